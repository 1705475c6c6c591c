import DoseCore

/// A medicine's register that sync merges by stamp (the later write wins, ``SyncMerge/wins(_:over:)``):
/// each detail on its own — so a rename on one device and a dose change on another both stay — and
/// the archive day. The raw value is the name on the wire (`changed`) and in the database
/// (`register.field`); schedule versions have registers of their own (``SyncMerge/versionRegister(effective:)``).
public enum SyncRegister: String, CaseIterable, Sendable {
    case name, dose, group, note
    case perDose = "per_dose"
    case lowDays = "low_days"
    case urgent
    case repeatMinutes = "repeat"
    case archive

    /// The details an `add` carries and an `edit` may change, in wire order.
    public static let details: [SyncRegister] = [.name, .dose, .group, .note, .perDose, .lowDays, .urgent, .repeatMinutes]

    /// Whether `a` and `b` differ in this register.
    public func differs(_ a: Medication, _ b: Medication) -> Bool {
        switch self {
        case .name: a.name != b.name
        case .dose: a.dose != b.dose
        case .group: a.group != b.group
        case .note: a.note != b.note
        case .perDose: a.perDose != b.perDose
        case .lowDays: a.lowDays != b.lowDays
        case .urgent: a.urgent != b.urgent
        case .repeatMinutes: a.repeatMinutes != b.repeatMinutes
        case .archive: a.archivedOn != b.archivedOn
        }
    }
}

extension SyncOperation {
    /// Of an `edit`, the registers it changed (absent: every detail); names it does not know are left
    /// out (the line check refuses them first).
    public var changedRegisters: [SyncRegister] {
        changed.map { $0.compactMap(SyncRegister.init(rawValue:)) } ?? SyncRegister.details
    }
}
