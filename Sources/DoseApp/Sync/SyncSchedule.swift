import DoseCore
import DoseExport
import Foundation

/// A schedule version's schedule in an operation: the recurrence in its flat form (`Recurrence.Flat`,
/// the database's too).
public struct SyncSchedule: Encodable, Sendable, Equatable {
    public var kind: String
    public var a: Int?
    public var b: Int?
    /// 1 = Monday … 7 = Sunday.
    public var weekdays: [Int]?
    public var times: [String]
    public var window: Int
    public var start: String
    public var until: String?
    /// The zone the times stay in (`--keep-zone`); absent: the person's clock.
    public var keepZone: String?

    private enum CodingKeys: String, CodingKey {
        case kind, a, b, weekdays, times, window, start, until, keepZone = "keep_zone"
    }

    public init(_ s: Schedule) {
        let flat = s.recurrence.flat
        kind = flat.kind
        a = flat.a
        b = flat.b
        weekdays = flat.kind == "weekdays" ? flat.weekdays.map(\.rawValue).sorted() : nil
        times = s.times.map(\.description)
        window = s.window
        start = s.start.description
        until = s.until?.description
        keepZone = s.keepZone?.identifier
    }

    /// The schedule an operation's `schedule` object holds; throws as ``SyncOperation``'s reader does
    /// (`kind`, `times`, `window` and `start` are required).
    init(_ o: JSONObjectView) throws(JSONTypeMismatch) {
        guard let kind = try o.string("kind"), let times = try o.strings("times"), let window = try o.int("window"),
              let start = try o.string("start") else { throw JSONTypeMismatch() }
        self.kind = kind
        a = try o.int("a")
        b = try o.int("b")
        weekdays = try o.ints("weekdays")
        self.times = times
        self.window = window
        self.start = start
        until = try o.string("until")
        keepZone = try o.string("keep_zone")
    }

    /// The domain value; nil for a schedule this dosebar cannot read.
    public var schedule: Schedule? {
        let days = Set((weekdays ?? []).compactMap(Weekday.init(rawValue:)))
        guard let recurrence = try? Recurrence(flat: .init(kind: kind, a: a, b: b, weekdays: days)) else { return nil }
        let parsed = times.compactMap { LocalTime($0) }
        guard parsed.count == times.count, let startDay = LocalDate(start) else { return nil }
        var untilDay: LocalDate?
        if let until { guard let u = LocalDate(until) else { return nil }; untilDay = u }
        var kept: TimeZone?
        if let keepZone { guard FieldRules.isZoneName(keepZone), let tz = TimeZone(identifier: keepZone) else { return nil }; kept = tz }
        return Schedule(recurrence: recurrence, times: parsed, window: window, start: startDay, until: untilDay, keepZone: kept)
    }
}
