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
    /// Units one dose uses (default 1); with ``perDoseTimes``, the earliest time's.
    public var perDose: Amount
    /// The amount of each dose time when they differ (`--per-dose 0.5,1`), canonical
    /// (``PerTimeDose``); nil: `perDose` for every time. Set by ``on(_:)`` from the version in
    /// force (the `medication` row does not hold it), and by `add`/`edit` before they write.
    public var perDoseTimes: [TimedAmount]?
    /// `low` when days left ≤ this (default 7).
    public var lowDays: Int
    /// Its reminders are critical from the first one (`--urgent`, Dosage's "increase priority").
    public var urgent: Bool
    /// Minutes after which an unanswered reminder is shown again (`--repeat`): nil follows the
    /// configuration's `[notify] repeat` (off unless set), 0 never repeats.
    public var repeatMinutes: Int?
    /// The first day the medicine no longer appears (archived from this day on); nil when active.
    public var archivedOn: LocalDate?
    /// The instant tracking starts (DESIGN §3 Tracking start): a slot before it with no event is
    /// untracked. Nil: tracked from its first schedule day.
    public var trackedFrom: Date?
    /// Schedule versions sorted by `effective`; the one in force on a date is the last with `effective ≤ date`.
    public var versions: [ScheduleVersion]

    public init(id: Int64, name: String, dose: String? = nil, group: String? = nil, note: String? = nil,
                stock: Amount? = nil, perDose: Amount = 1, perDoseTimes: [TimedAmount]? = nil, lowDays: Int = 7, urgent: Bool = false, repeatMinutes: Int? = nil,
                archivedOn: LocalDate? = nil, trackedFrom: Date? = nil, versions: [ScheduleVersion]) {
        self.urgent = urgent; self.repeatMinutes = repeatMinutes
        self.trackedFrom = trackedFrom
        self.id = id; self.name = name; self.dose = dose; self.group = group; self.note = note
        self.stock = stock; self.perDose = perDose; self.perDoseTimes = perDoseTimes; self.lowDays = lowDays; self.archivedOn = archivedOn
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

    /// Whether a version of its schedule keeps its times in a zone of its own (`--keep-zone`): its
    /// slots then belong to the person's day their instant falls in, and their events may be of the
    /// dates around it.
    public var keepsZone: Bool { versions.contains { $0.schedule.keepZone != nil } }

    /// The newest schedule version (what `list` shows).
    public var currentSchedule: Schedule? { versions.last?.schedule }

    /// The version in force on `date` (archive aside): the last with `effective ≤ date`.
    public func version(on date: LocalDate) -> ScheduleVersion? {
        var found: ScheduleVersion?
        for v in versions {
            if v.effective <= date { found = v } else { break }
        }
        return found
    }

    /// The dose text and amount in force on `date` (DESIGN §2 `edit`: a dose change never rewrites
    /// the past): the version's own, else this medicine's `dose` and `perDose` (a version written
    /// before versions carried a dose, or by a device that did not know them). Before the first
    /// version, the first one's.
    public func dosing(on date: LocalDate) -> Dosing {
        let base = Dosing(text: dose, perDose: perDose, perTime: perDoseTimes)
        guard versions.contains(where: { $0.dosing != nil }) else { return base }
        return (version(on: date) ?? versions.first)?.dosing ?? base
    }

    /// The doses in force over `days`, each with the days it held (consecutive versions of one
    /// dose joined): one entry when the dose did not change.
    public func dosings(in days: ClosedRange<LocalDate>) -> [(days: ClosedRange<LocalDate>, dosing: Dosing)] {
        var out: [(days: ClosedRange<LocalDate>, dosing: Dosing)] = []
        var start = days.lowerBound
        var current = dosing(on: start)
        for v in versions where v.effective > days.lowerBound && v.effective <= days.upperBound {
            let next = dosing(on: v.effective)
            guard next != current else { continue }
            out.append((start...v.effective.adding(days: -1), current))
            start = v.effective
            current = next
        }
        out.append((start...days.upperBound, current))
        return out
    }

    /// This medicine as of `date`: `dose` and `perDose` those in force that day. Every dose of a
    /// day is shown, counted and subtracted with these.
    public func on(_ date: LocalDate) -> Medication {
        guard versions.contains(where: { $0.dosing != nil }) else { return self }
        var m = self
        let d = dosing(on: date)
        m.dose = d.text; m.perDose = d.perDose; m.perDoseTimes = d.perTime
        return m
    }
}

/// A dose's text and amount ("500 mg", 1 tablet) as a schedule version holds them.
public struct Dosing: Hashable, Sendable {
    /// What one dose is, in words (`--dose`); nil for none.
    public var text: String?
    /// Stock units one dose uses (`--per-dose`); with `perTime`, the earliest time's.
    public var perDose: Amount
    /// The amount of each dose time when they differ (canonical, ``PerTimeDose``); nil: `perDose`
    /// for every time.
    public var perTime: [TimedAmount]?
    public init(text: String?, perDose: Amount, perTime: [TimedAmount]? = nil) {
        self.text = text; self.perDose = perDose; self.perTime = perTime
    }
}

/// A schedule that applies from `effective` until the next version's `effective`.
public struct ScheduleVersion: Hashable, Sendable {
    public var effective: LocalDate
    public var schedule: Schedule
    /// The dose in force from `effective` on; nil: the medicine's (a version from before doses
    /// were versioned).
    public var dosing: Dosing?
    public init(effective: LocalDate, schedule: Schedule, dosing: Dosing? = nil) {
        self.effective = effective
        self.schedule = schedule
        self.dosing = dosing
    }
}
