import Foundation

/// An instant together with the local UTC offset in force at it, so it can be
/// written as ISO-8601 with that offset without a time-zone lookup.
public struct LocalInstant: Hashable, Sendable, Comparable {
    public var date: Date
    /// Seconds east of UTC at `date`.
    public var offset: Int

    public init(date: Date, offset: Int) { self.date = date; self.offset = offset }

    public static func < (a: LocalInstant, b: LocalInstant) -> Bool { a.date < b.date }

    /// `2026-03-08T03:30:00-04:00`.
    public var iso8601: String { ISO8601.format(date, offset: offset) }

    /// Local wall-clock `HH:MM`.
    public var clock: String { time.description }
    /// The offset as `UTC+09:00` / `UTC-05:00` / `UTC+05:45`.
    public var offsetText: String { "UTC" + String(iso8601.suffix(6)) }

    /// The local date at this instant.
    public var localDate: LocalDate { Self.split(Int(unixSecondsOf: date) + offset).day }

    /// The local wall-clock time (minute precision) at this instant.
    public var time: LocalTime { LocalTime(minuteOfDay: Self.split(Int(unixSecondsOf: date) + offset).second / 60) }

    /// Local seconds (Unix seconds plus the offset) as a day and the second of that day, floored (a
    /// moment before 1970 is on the day before): the one place local seconds become a date and a time.
    public static func split(_ local: Int) -> (day: LocalDate, second: Int) {
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        return (LocalDate(dayNumber: days), local - days * 86400)
    }
}
