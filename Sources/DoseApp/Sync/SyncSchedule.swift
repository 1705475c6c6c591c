import DoseCore
import Foundation

/// A schedule version's schedule in an operation: the recurrence flattened like the database's.
public struct SyncSchedule: Codable, Sendable, Equatable {
    public var kind: String
    public var a: Int?
    public var b: Int?
    /// 1 = Monday … 7 = Sunday.
    public var weekdays: [Int]?
    public var times: [String]
    public var window: Int
    public var start: String
    public var until: String?

    public init(_ s: Schedule) {
        switch s.recurrence {
        case .daily: kind = "daily"
        case .weekdays(let days): kind = "weekdays"; weekdays = days.map(\.rawValue).sorted()
        case .everyDays(let n): kind = "every_days"; a = n
        case .everyWeeks(let n): kind = "every_weeks"; a = n
        case .everyMonths(let n): kind = "every_months"; a = n
        case .cycle(let active, let rest): kind = "cycle"; a = active; b = rest
        case .asNeeded(let max, let interval): kind = "as_needed"; a = max; b = interval
        }
        times = s.times.map(\.description)
        window = s.window
        start = s.start.description
        until = s.until?.description
    }

    /// The domain value; nil for a schedule this dosebar cannot read.
    public var schedule: Schedule? {
        let recurrence: Recurrence
        switch kind {
        case "daily": recurrence = .daily
        case "weekdays": recurrence = .weekdays(Set((weekdays ?? []).compactMap(Weekday.init(rawValue:))))
        case "every_days": guard let a else { return nil }; recurrence = .everyDays(a)
        case "every_weeks": guard let a else { return nil }; recurrence = .everyWeeks(a)
        case "every_months": guard let a else { return nil }; recurrence = .everyMonths(a)
        case "cycle": guard let a, let b else { return nil }; recurrence = .cycle(active: a, rest: b)
        case "as_needed": recurrence = .asNeeded(maxPerDay: a, minInterval: b)
        default: return nil
        }
        let parsed = times.compactMap { LocalTime($0) }
        guard parsed.count == times.count, let startDay = LocalDate(start) else { return nil }
        var untilDay: LocalDate?
        if let until { guard let u = LocalDate(until) else { return nil }; untilDay = u }
        return Schedule(recurrence: recurrence, times: parsed, window: window, start: startDay, until: untilDay)
    }
}
