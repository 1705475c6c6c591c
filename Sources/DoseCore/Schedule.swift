import Foundation

/// How often a medicine recurs. Every kind counts from the schedule's `start` date.
public enum Recurrence: Hashable, Sendable {
    case daily
    /// On the given ISO weekdays.
    case weekdays(Set<Weekday>)
    /// Every N days / weeks (same weekday) / months (same day of month, clamped) from `start`.
    case everyDays(Int)
    case everyWeeks(Int)
    case everyMonths(Int)
    /// `active` days with doses then `rest` days without; day 1 is `start`.
    case cycle(active: Int, rest: Int)
    /// No slots; optional daily maximum and minimum interval (seconds) between doses.
    case asNeeded(maxPerDay: Int?, minInterval: Int?)

    public var isAsNeeded: Bool { if case .asNeeded = self { return true } else { return false } }
}

/// One version of a medicine's schedule: what recurs, at which times, over which dates.
public struct Schedule: Hashable, Sendable {
    public var recurrence: Recurrence
    /// Wall-clock times of the doses of a day, sorted, unique. Empty for as-needed.
    public var times: [LocalTime]
    /// Tolerance window W in seconds (default 2 h).
    public var window: Int
    /// First day of the course; anchor of every-N and cycle counting.
    public var start: LocalDate
    /// Last day of the course, inclusive.
    public var until: LocalDate?
    /// The zone whose clock the times are on wherever the person is (`--keep-zone`, DESIGN §3 "Where
    /// the person is"): a slot (D, h) is at h on D in this zone, and belongs to the person's day its
    /// instant falls in. Nil: the times follow the person's clock (the zone log).
    public var keepZone: TimeZone?

    public static let defaultWindow = 7200

    public init(recurrence: Recurrence, times: [LocalTime], window: Int = Schedule.defaultWindow,
                start: LocalDate, until: LocalDate? = nil, keepZone: TimeZone? = nil) {
        self.recurrence = recurrence
        self.times = times.count < 2 ? times : Array(Set(times)).sorted()
        self.window = window
        self.start = start
        self.until = until
        self.keepZone = keepZone
    }

    /// Where a day falls in a cycle, if this is a cycle schedule and the course has begun.
    /// A cycle an older dosebar stored out of range (no active day, negative rest) has no position.
    public func cyclePosition(on date: LocalDate) -> CyclePosition? {
        guard case let .cycle(active, rest) = recurrence, active > 0, rest >= 0, date >= start else { return nil }
        if let until, date > until { return nil }
        let index = (date - start) % active.saturatingAdding(rest)
        if index < active { return CyclePosition(phase: .active, day: index + 1, length: active) }
        return CyclePosition(phase: .rest, day: index - active + 1, length: rest)
    }

    /// What follows the phase `date` is in: the next phase and its first day (the day after the
    /// phase's last), or the course's last day when `until` comes first. Nil where ``cyclePosition(on:)`` is.
    public func cycleTurn(after date: LocalDate) -> CycleTurn? {
        guard case let .cycle(_, rest) = recurrence, let position = cyclePosition(on: date) else { return nil }
        let first = date.adding(days: position.length - position.day + 1)
        if let until, until < first { return .courseEnds(on: until) }
        // With no rest days an active phase is followed by the next cycle's day 1.
        return .next(phase: position.phase == .active && rest > 0 ? .rest : .active, on: first)
    }

    /// Whether the schedule has doses on `date` (ignores the as-needed kind, which never does).
    /// An every-N with N below 1 (a row an older dosebar let through) has none: it must not trap.
    public func occurs(on date: LocalDate) -> Bool {
        guard date >= start else { return false }
        if let until, date > until { return false }
        switch recurrence {
        case .daily: return true
        case .weekdays(let days): return days.contains(date.weekday)
        case .everyDays(let n): return n > 0 && (date - start) % n == 0
        case .everyWeeks(let n): return n > 0 && (date - start) % n.saturatingMultiplied(by: 7) == 0
        case .everyMonths(let n):
            guard n > 0 else { return false }
            let s = start.components, d = date.components
            let months = (d.year - s.year) * 12 + (d.month - s.month)
            guard months >= 0, months % n == 0 else { return false }
            return start.adding(months: months) == date
        case .cycle:
            return cyclePosition(on: date)?.phase == .active
        case .asNeeded:
            return false
        }
    }
}

/// A day's place in an ACTIVE/REST cycle.
public struct CyclePosition: Hashable, Sendable {
    public enum Phase: String, Sendable { case active, rest }
    public var phase: Phase
    /// 1-based day within the phase.
    public var day: Int
    /// Length of the phase in days.
    public var length: Int
    public init(phase: Phase, day: Int, length: Int) { self.phase = phase; self.day = day; self.length = length }
}

/// What follows a day's phase of a cycle (``Schedule/cycleTurn(after:)``).
public enum CycleTurn: Hashable, Sendable {
    /// `phase` begins on `on` (an active phase again in a cycle without rest days).
    case next(phase: CyclePosition.Phase, on: LocalDate)
    /// The course ends on its last day `on` (`until`) before another phase begins.
    case courseEnds(on: LocalDate)

    /// The first day of the next phase; nil when the course ends first.
    public var nextPhaseStart: LocalDate? {
        if case let .next(_, on) = self { return on }
        return nil
    }
}
