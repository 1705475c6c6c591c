import Foundation

/// Converts between instants and local wall-clock dates/times in one time zone,
/// with DESIGN §3's rules for DST gaps (a missing time moves forward by the gap)
/// and overlaps (a repeated time means its first occurrence).
///
/// The time zone is always passed in; this type never looks at the system's.
public struct Zone: Sendable {
    public let timeZone: TimeZone
    /// The zone's name as the user gave it (Foundation on Linux calls `UTC` `GMT`).
    public let identifier: String

    public init(_ timeZone: TimeZone, name: String? = nil) {
        self.timeZone = timeZone
        identifier = name ?? timeZone.identifier
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int { timeZone.secondsFromGMT(for: instant) }

    /// The instant and its offset, ready for ISO-8601 output.
    public func local(_ instant: Date) -> LocalInstant { LocalInstant(date: instant, offset: offset(at: instant)) }

    /// The local date at `instant`.
    public func date(of instant: Date) -> LocalDate { local(instant).localDate }

    /// The local wall-clock time (minute precision) at `instant`.
    public func time(of instant: Date) -> LocalTime { local(instant).time }

    /// The instant of a wall-clock `time` on `date`.
    /// In a spring-forward gap the time moves forward by the gap (02:30 → 03:30);
    /// in a fall-back overlap the first occurrence is chosen.
    public func instant(_ date: LocalDate, _ time: LocalTime) -> Date {
        instant(date, minuteOfDay: time.minuteOfDay)
    }

    /// Like `instant(_:_:)` for a minute of the day that may be 1440 (next midnight).
    public func instant(_ date: LocalDate, minuteOfDay: Int) -> Date {
        let naive = Double(date.dayNumber * 86400 + minuteOfDay * 60)
        let before = offset(at: Date(timeIntervalSince1970: naive - 86400 / 2 - 14 * 3600))
        let after = offset(at: Date(timeIntervalSince1970: naive + 86400 / 2 + 14 * 3600))
        let a = naive - Double(before), b = naive - Double(after)
        // No change of offset within a day and a half either side: the common case, no more lookups.
        if before == after { return Date(timeIntervalSince1970: a) }
        let aValid = offset(at: Date(timeIntervalSince1970: a)) == before
        let bValid = offset(at: Date(timeIntervalSince1970: b)) == after
        switch (aValid, bValid) {
        case (true, true): return Date(timeIntervalSince1970: min(a, b))
        case (true, false): return Date(timeIntervalSince1970: a)
        case (false, true): return Date(timeIntervalSince1970: b)
        case (false, false):
            // In the gap: wall time + the offset before the change lands after it, moved by the gap.
            return Date(timeIntervalSince1970: a)
        }
    }

    /// Local midnight starting `date`.
    public func startOfDay(_ date: LocalDate) -> Date { instant(date, minuteOfDay: 0) }

    /// The start of the next day: when `date` ends.
    public func endOfDay(_ date: LocalDate) -> Date { startOfDay(date.adding(days: 1)) }

    /// Every local hour that exists on `date` (23, 24 or 25 entries on DST days are all possible:
    /// a repeated hour appears once per occurrence), as instants.
    public func hours(of date: LocalDate) -> [Date] {
        let start = startOfDay(date), end = endOfDay(date)
        var result: [Date] = []
        // Walk whole hours in UTC from local midnight; keep those that land on a local hour boundary.
        var t = start
        while t < end {
            let local = Int(unixSecondsOf: t) + offset(at: t)
            if ((local % 3600) + 3600) % 3600 == 0 { result.append(t) }
            t = t.addingTimeInterval(900)
        }
        return result
    }
}
