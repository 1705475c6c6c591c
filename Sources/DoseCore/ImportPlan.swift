import Foundation

/// What a file to import brings, read whole before anything is written (`import dosage`,
/// `import csv`): the medicines it names and the doses it records. Applying it is DoseApp's
/// `ImportService`, in one transaction.
public struct ImportPlan: Sendable {
    /// A medicine the file names. One that dosebar already has (same name, any letter case) is
    /// reused as it is; otherwise `template` is added.
    public struct Medicine: Sendable {
        public var name: String
        /// What to add when dosebar has no medicine of this name (its id is ignored).
        public var template: Medication
        /// How the template was made, for the summary (`daily 08:00, 20:00`, `as needed, archived`).
        public var origin: Origin

        public enum Origin: Sendable, Equatable {
            /// From a treatment of the file.
            case treatment
            /// Only named by doses that match no treatment: added archived, as needed, so they stay in history.
            case historyOnly
            /// A treatment deleted in Dosage whose history records misses, skips or auto-confirmed
            /// doses: added archived, its slots rebuilt from its entries, so each keeps its meaning.
            case rebuilt
            /// Named by a CSV row but unknown here: added as needed.
            case unknownName
        }

        public init(name: String, template: Medication, origin: Origin) {
            self.name = name; self.template = template; self.origin = origin
        }
    }

    /// Which dose of the medicine an imported record resolves.
    public enum Slot: Sendable, Hashable {
        /// The slot of that date at that nominal time (`08:00`, before any DST move).
        case nominal(LocalDate, LocalTime)
        /// The slot of that date scheduled at that instant (what `report --format csv` writes).
        case instant(LocalDate, Date)
        /// No slot: an as-needed dose, or an extra dose of a scheduled medicine (a second take of one
        /// slot, a take at a time its schedule has no dose), taken at its own instant.
        case asNeeded
    }

    /// One taken or skipped dose.
    public struct Dose: Sendable {
        public var name: String
        public var kind: DoseEvent.Kind
        public var slot: Slot
        /// When it was taken or skipped.
        public var at: Date
        /// False when the record did not say when it was taken (`at` is then the slot's time).
        public var timeKnown: Bool
        /// An as-needed dose recorded beyond its limits (`over_limit` in a report's CSV).
        public var overLimit: Bool

        public init(name: String, kind: DoseEvent.Kind, slot: Slot, at: Date, timeKnown: Bool = true, overLimit: Bool = false) {
            self.name = name; self.kind = kind; self.slot = slot; self.at = at; self.timeKnown = timeKnown
            self.overLimit = overLimit
        }
    }

    public var medicines: [Medicine] = []
    public var doses: [Dose] = []
    /// Records of doses missed (Dosage writes them; dosebar's missed is the absence of a record).
    public var missed = 0
    /// The earliest slot a missed record names, by medicine (``Medication/nameKey(_:)``): a medicine
    /// the import creates is tracked from it when that is earlier (DESIGN §3 Tracking start), so the
    /// miss the file recorded is one in dosebar too.
    public var firstMissed: [String: Date] = [:]
    /// Records of doses missed, by medicine (``Medication/nameKey(_:)``), for the summary.
    public var missedBy: [String: Int] = [:]
    /// What the file holds that dosebar has no place for, one line each, for the summary.
    public var noEquivalent: [String] = []

    public init() {}

    /// Counts a missed record of medicine `name` at the slot `at`.
    public mutating func recordMissed(_ name: String, at: Date?) {
        missed += 1
        let key = Medication.nameKey(name)
        missedBy[key, default: 0] += 1
        guard let at else { return }
        firstMissed[key] = min(firstMissed[key] ?? at, at)
    }
}

/// What an import did (or, in a dry run, would do).
public struct ImportSummary: Sendable {
    /// Medicines added: name and what they were made from (`daily 08:00`, …).
    public var added: [(name: String, schedule: String, origin: ImportPlan.Medicine.Origin)] = []
    /// Medicines that dosebar already had, by their name in dosebar.
    public var reused: [String] = []
    public var taken = 0
    public var skipped = 0
    /// Doses whose slot was already resolved, or as-needed doses already logged at that instant.
    public var alreadyThere = 0
    /// Taken doses whose time was not recorded (Dosage's "confirmed at an unknown time"), among `taken`.
    public var timeUnknown = 0
    public var missed = 0
    /// Extra doses (no slot) of scheduled medicines, among `taken`.
    public var extra = 0
    /// What was imported into each medicine, in the order of ``ImportPlan/medicines``.
    public var medicines: [Line] = []
    public var noEquivalent: [String] = []
    public var dryRun = false

    /// One medicine's part of an import.
    public struct Line: Sendable {
        public var name: String
        /// Added by this import (else dosebar had it and kept it as it is).
        public var added: Bool
        public var taken = 0
        public var timeUnknown = 0
        public var skipped = 0
        public var missed = 0
        public var extra = 0
        public var alreadyThere = 0
        /// Schedule versions and stock of an added medicine.
        public var versions = 0
        public var stock: Amount?

        public init(name: String, added: Bool) { self.name = name; self.added = added }
    }

    public init() {}

}
