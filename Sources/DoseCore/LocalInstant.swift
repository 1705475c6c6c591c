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
    public var clock: String {
        let local = Int(unixSecondsOf: date) + offset
        let m = ((local % 86400) + 86400) % 86400 / 60
        return LocalTime(minuteOfDay: m).description
    }
}
