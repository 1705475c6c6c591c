import Foundation

/// A medicine or supplement with its schedule history and stock.
public struct Medication: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var name: String
    public var dose: String?
    public var group: String?
    public var note: String?
    /// Units on hand; nil when stock is not tracked.
    public var stock: Amount?
    /// Units one dose uses (default 1).
    public var perDose: Amount
    /// `low` when days left ≤ this (default 7).
    public var lowDays: Int
    /// The first day the medicine no longer appears (archived from this day on); nil when active.
    public var archivedOn: LocalDate?
    /// The instant tracking starts (DESIGN §3 Tracking start): a slot before it with no event is
    /// untracked. Nil: tracked from its first schedule day.
    public var trackedFrom: Date?
    /// Schedule versions sorted by `effective`; the one in force on a date is the last with `effective ≤ date`.
    public var versions: [ScheduleVersion]

    public init(id: Int64, name: String, dose: String? = nil, group: String? = nil, note: String? = nil,
                stock: Amount? = nil, perDose: Amount = 1, lowDays: Int = 7, archivedOn: LocalDate? = nil,
                trackedFrom: Date? = nil, versions: [ScheduleVersion]) {
        self.trackedFrom = trackedFrom
        self.id = id; self.name = name; self.dose = dose; self.group = group; self.note = note
        self.stock = stock; self.perDose = perDose; self.lowDays = lowDays; self.archivedOn = archivedOn
        self.versions = versions.sorted { $0.effective < $1.effective }
    }

    /// The schedule in force on `date`, or nil before the first version or once archived.
    public func schedule(on date: LocalDate) -> Schedule? {
        if let archivedOn, date >= archivedOn { return nil }
        var found: Schedule?
        for v in versions {
            if v.effective <= date { found = v.schedule } else { break }
        }
        return found
    }

    /// The key two names collide on (the database's `name_key`): case and Unicode normalisation do not matter.
    public static func nameKey(_ name: String) -> String {
        name.lowercased().precomposedStringWithCanonicalMapping
    }

    /// The newest schedule version (what `list` shows).
    public var currentSchedule: Schedule? { versions.last?.schedule }
}

/// A schedule that applies from `effective` until the next version's `effective`.
public struct ScheduleVersion: Hashable, Sendable {
    public var effective: LocalDate
    public var schedule: Schedule
    public init(effective: LocalDate, schedule: Schedule) {
        self.effective = effective
        self.schedule = schedule
    }
}
