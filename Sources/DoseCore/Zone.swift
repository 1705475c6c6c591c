import Foundation

/// One entry of the zone log (DESIGN §3 "Where the person is"): from `at` on, the person is in `name`.
public struct ZoneChange: Sendable, Equatable {
    public let at: Date
    public let timeZone: TimeZone
    public let name: String

    public init(at: Date, timeZone: TimeZone, name: String? = nil) {
        self.at = at
        self.timeZone = timeZone
        self.name = name ?? timeZone.identifier
    }
}

/// Converts between instants and local wall-clock dates/times in the zone the person is in, with
/// DESIGN §3's rules for DST gaps (a missing time moves forward by the gap) and overlaps (a repeated
/// time means its first occurrence).
///
/// A zone may carry a log of changes (the person travelled): the first zone reaches back to the
/// beginning, each change holds from its instant on. A wall-clock time (D, h) is then placed by the
/// placement rule, change after change: for a change at c, a time whose instant in the zone before
/// is before c stays there (it was lived there); else its instant in the new zone if that is at or
/// after c; else (the clock jumped over it) c itself. So a day's start and its slots never move
/// once they are past, a westward change never repeats a time and an eastward one never loses one.
///
/// The time zone is always passed in; this type never looks at the system's.
public struct Zone: Sendable {
    /// The zone in force before the first change (the whole time, without changes).
    public let base: TimeZone
    /// The base zone's name as the user gave it (Foundation on Linux calls `UTC` `GMT`).
    public let baseName: String
    /// The changes, in instant order.
    public let changes: [ZoneChange]

    public init(_ timeZone: TimeZone, name: String? = nil) {
        base = timeZone
        baseName = name ?? timeZone.identifier
        changes = []
    }

    /// A zone log: `base` from the beginning, then each of `changes` from its instant on (sorted here;
    /// a change to the zone already in force is dropped: it moves nothing).
    public init(_ timeZone: TimeZone, name: String? = nil, changes: [ZoneChange]) {
        base = timeZone
        baseName = name ?? timeZone.identifier
        var kept: [ZoneChange] = []
        for c in changes.sorted(by: { ($0.at, $0.name) < ($1.at, $1.name) }) {
            // Two changes at one instant (two devices): the later by name holds, the same on every device.
            if let last = kept.last, last.at == c.at { kept.removeLast() }
            if c.name != (kept.last?.name ?? baseName) { kept.append(c) }
        }
        self.changes = kept
    }

    /// The zone in force now: the latest change's, else the base.
    public var timeZone: TimeZone { changes.last?.timeZone ?? base }
    /// The name of the zone in force after every change (the snapshot's `timezone` at its time: ``name(at:)``).
    public var identifier: String { changes.last?.name ?? baseName }

    /// The time zone and name in force at `instant`.
    public func entry(at instant: Date) -> (timeZone: TimeZone, name: String) {
        guard let i = lastChange(atOrBefore: instant) else { return (base, baseName) }
        return (changes[i].timeZone, changes[i].name)
    }

    /// The index of the last change at or before `instant` (a binary search: a history of many
    /// flights costs a log lookup, not a walk through the log, DESIGN §8).
    func lastChange(atOrBefore instant: Date) -> Int? {
        var low = 0, high = changes.count
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].at <= instant { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The name of the zone in force at `instant`.
    public func name(at instant: Date) -> String { entry(at: instant).name }

    /// The changes at instants in `range`.
    public func changes(in range: Range<Date>) -> [ZoneChange] { changes.filter { range.contains($0.at) } }

    /// Identifies the whole log: cached judgements of days are valid only for the log they were made with.
    public var fingerprint: String {
        changes.reduce(baseName) { $0 + "|\(Int(unixSecondsOf: $1.at))=\($1.name)" }
    }

    /// Whether no change falls in `start...end`: a day there is lived in one zone.
    func isSettled(_ start: Date, _ end: Date) -> Bool {
        if changes.isEmpty { return true }
        // The first change at or after `start`, if any, is after `end`.
        let first = (lastChange(atOrBefore: start).map { $0 + 1 } ?? 0)
        let i = first > 0 && changes[first - 1].at == start ? first - 1 : first
        return i == changes.count || changes[i].at > end
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int {
        changes.isEmpty ? base.secondsFromGMT(for: instant) : entry(at: instant).timeZone.secondsFromGMT(for: instant)
    }

    /// The instant and its offset, ready for ISO-8601 output.
    public func local(_ instant: Date) -> LocalInstant { LocalInstant(date: instant, offset: offset(at: instant)) }

    /// The local date at `instant`: the day whose start (``startOfDay(_:)``) is the latest at or
    /// before it. After a westward change the clock reads an earlier date than the day already lived
    /// (it goes on until the new zone's next midnight); without changes, the wall clock's date.
    public func date(of instant: Date) -> LocalDate {
        let wall = local(instant).localDate
        if changes.isEmpty { return wall }
        var d = wall.adding(days: 2)
        while d > wall.adding(days: -3), startOfDay(d) > instant { d = d.adding(days: -1) }
        return d
    }

    /// The local wall-clock time (minute precision) at `instant`.
    public func time(of instant: Date) -> LocalTime { local(instant).time }

    /// The instant of a wall-clock `time` on `date`.
    /// In a spring-forward gap the time moves forward by the gap (02:30 → 03:30);
    /// in a fall-back overlap the first occurrence is chosen.
    public func instant(_ date: LocalDate, _ time: LocalTime) -> Date {
        instant(date, minuteOfDay: time.minuteOfDay)
    }

    /// Like `instant(_:_:)` for a minute of the day that may be 1440 (next midnight). With changes,
    /// the placement rule (the type's notes) moves it from zone to zone.
    public func instant(_ date: LocalDate, minuteOfDay: Int) -> Date {
        if changes.isEmpty { return Zone.wallInstant(base, date, minuteOfDay) }
        // Changes two days or more before the wall time cannot hold it back: the time is past each
        // of them in every zone (offsets are within ±14 h), so the fold through them ends at the
        // last one's wall instant. Only the changes after it are folded.
        let naive = Date(timeIntervalSince1970: Double(date.dayNumber * 86400 + minuteOfDay * 60 - 2 * 86400))
        var t: Date
        var rest = changes[...]
        if let k = lastChange(atOrBefore: naive) {
            t = Zone.wallInstant(changes[k].timeZone, date, minuteOfDay)
            rest = changes[(k + 1)...]
        } else {
            t = Zone.wallInstant(base, date, minuteOfDay)
        }
        for c in rest {
            if t < c.at { break }
            let there = Zone.wallInstant(c.timeZone, date, minuteOfDay)
            t = there >= c.at ? there : c.at
        }
        return t
    }

    /// The instants at which the clock read `time` on `date`: in each zone of the log, the wall
    /// instant when that zone was in force then. Flying west the same reading comes twice (several
    /// instants); a reading the clock jumped over flying east never came (none). Without changes,
    /// the one instant of ``instant(_:_:)``.
    public func readings(_ date: LocalDate, _ time: LocalTime) -> [Date] {
        if changes.isEmpty { return [instant(date, time)] }
        var out: [Date] = []
        for tz in [base] + changes.map(\.timeZone) {
            let t = Zone.wallInstant(tz, date, time.minuteOfDay)
            let plain = Zone(tz)
            guard entry(at: t).timeZone.identifier == tz.identifier, plain.time(of: t) == time, plain.date(of: t) == date,
                  !out.contains(t) else { continue }
            out.append(t)
        }
        return out.sorted()
    }

    /// The instant of a wall-clock minute of `date` in one time zone (DST rules of ``instant(_:_:)``).
    static func wallInstant(_ tz: TimeZone, _ date: LocalDate, _ minuteOfDay: Int) -> Date {
        func offset(_ t: Double) -> Int { tz.secondsFromGMT(for: Date(timeIntervalSince1970: t)) }
        let naive = Double(date.dayNumber * 86400 + minuteOfDay * 60)
        let before = offset(naive - 86400 / 2 - 14 * 3600)
        let after = offset(naive + 86400 / 2 + 14 * 3600)
        let a = naive - Double(before), b = naive - Double(after)
        // No change of offset within a day and a half either side: the common case, no more lookups.
        if before == after { return Date(timeIntervalSince1970: a) }
        let aValid = offset(a) == before
        let bValid = offset(b) == after
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
