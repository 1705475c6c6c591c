import Foundation

/// One scheduled dose of a day with everything needed to judge it at any instant.
public struct PlannedSlot: Sendable {
    public var key: SlotKey
    public var medication: Medication
    /// The instant of the scheduled time (after DST adjustment).
    public var instant: Date
    /// Tolerance window in seconds.
    public var window: Int
    /// The cut-off C = max(T + W, min(T′ − W, T + 24 h)), T′ the medicine's next slot (DESIGN §3, the
    /// leaflet rule): unresolved, the slot is open until then and `missed` from then on.
    public var cutoff: Date
    /// The event resolving it (``CountingEvents`` rule 4: the counting event logged last), if any.
    public var event: DoseEvent?
    /// False for a slot before the medicine's tracking start with no event (DESIGN §3): in no
    /// snapshot and no figure; only `--at`/`--slot` reach it.
    public var tracked = true

    /// Skipped at an instant after its cut-off: the dose had closed as missed when the skip was
    /// recorded (`skip --slot` the next day). It counts as skipped; history and the report say when
    /// it was decided (DESIGN §2, `decided_after_close`).
    public var decidedAfterClose: Bool {
        guard let e = event, e.kind == .skipped else { return false }
        return e.at > cutoff
    }

    /// Status at `t` (DESIGN §3). Events logged for a time after `t` do not count yet.
    public func status(at t: Date) -> SlotStatus {
        if let e = event, e.at <= t {
            if e.kind == .skipped { return .skipped }
            let x = e.at.timeIntervalSince1970, T = instant.timeIntervalSince1970, W = Double(window)
            if x < T - W { return .takenEarly }
            if x > T + W { return .takenLate }
            return .taken
        }
        if t >= cutoff { return .missed }
        if t < instant { return .upcoming }
        if t.timeIntervalSince1970 < instant.timeIntervalSince1970 + Double(window) { return .due }
        return .late
    }

    /// Due or late at `t`.
    public func isOpen(at t: Date) -> Bool {
        let s = status(at: t)
        return s == .due || s == .late
    }

    /// Whole minutes late at `t` (only meaningful when late).
    public func lateMinutes(at t: Date) -> Int { Int(saturating: (t.timeIntervalSince(instant) / 60).rounded(.down)) }

    /// Within the span the dose is open in, whatever was recorded: T ≤ t < C.
    public func spans(_ t: Date) -> Bool { instant <= t && t < cutoff }

    /// Opening within its window after `t`: T − W ≤ t < T (`take` takes such a dose early).
    public func opensWithinWindow(after t: Date) -> Bool { t < instant && instant.timeIntervalSince(t) <= Double(window) }

    /// Instants at which this slot's status (or lateness grade) may change, ignoring events.
    public var transitions: [Date] {
        [instant, instant.addingTimeInterval(Double(window)), instant.addingTimeInterval(LateGrade.twoHours.startSeconds),
         instant.addingTimeInterval(LateGrade.fourHours.startSeconds), cutoff]
    }

    /// The cut-off of a slot at `instant` whose medicine's next slot is at `next` (nil: none within reach).
    public static func cutoff(instant: Date, window: Int, next: Date?) -> Date {
        let day = instant.addingTimeInterval(86400)
        let closes = next.map { min($0.addingTimeInterval(-Double(window)), day) } ?? day
        return max(instant.addingTimeInterval(Double(window)), closes)
    }
}

/// How late a dose is, in the grades of DESIGN §3's messages: late, then from 2 hours, then from 4
/// hours (critical).
public enum LateGrade: Sendable {
    case late, twoHours, fourHours

    /// The grade of a dose `minutes` late.
    public init(minutes: Int) {
        self = minutes >= Self.fourHours.startMinutes ? .fourHours : minutes >= Self.twoHours.startMinutes ? .twoHours : .late
    }

    /// Minutes after the scheduled time from which this grade holds (plain late: from the window's
    /// end, which the slot's status says).
    public var startMinutes: Int {
        switch self {
        case .late: 0
        case .twoHours: 120
        case .fourHours: 240
        }
    }

    var startSeconds: Double { Double(startMinutes * 60) }
}

/// The slots, as-needed medicines and cycle positions of one local day.
public struct DayPlan: Sendable {
    public let date: LocalDate
    public let zone: Zone
    public let dayStart: Date
    public let dayEnd: Date
    /// The zone's offset from UTC all day long; nil on a day when it changes.
    public let offset: Int?
    /// Sorted by scheduled instant, then medication name: the tracked slots of the day.
    public private(set) var slots: [PlannedSlot]
    /// The day's slots before their medicine's tracking start, with no event (DESIGN §3): only
    /// `take --at`/`--slot` reach them.
    public private(set) var untracked: [PlannedSlot] = []
    /// The day before's tracked slots that may still be open during this day (DESIGN §4 carried
    /// slots): cut-off after this day's start and not resolved before it. Empty unless planned with `carry`.
    public private(set) var carried: [PlannedSlot] = []
    /// The day before's untracked slots still within their cut-off at this day's start (DESIGN §3
    /// Tracking start): like ``untracked``, only `take --at`/`--slot` reach them.
    public private(set) var carriedUntracked: [PlannedSlot] = []
    /// The day before's tracked slots that closed unresolved before this day began (cut-off at or
    /// before its start, no event before it), in instant order: `missed_yesterday` names those still
    /// unresolved at an instant (a skip recorded after the close resolves one). Empty unless planned with `carry`.
    public private(set) var closedYesterday: [PlannedSlot] = []
    /// Active as-needed medicines with today's taken instants (ascending).
    public private(set) var asNeeded: [(medication: Medication, maxPerDay: Int?, minInterval: Int?, taken: [Date])]
    /// Extra doses of scheduled medicines in force this day: taken events with no slot, at their own
    /// instants (ascending). Only an import writes them (a second take of one slot, a take at a time the
    /// schedule has no dose); they count in history and the report as doses taken, never as a slot.
    public private(set) var extras: [(medication: Medication, taken: [Date])] = []
    /// The as-needed doses of the day recorded with `--force` beyond a limit, by medicine (DESIGN §2).
    public private(set) var overLimit: [Int64: Set<Date>] = [:]
    /// The doses of the day without a slot whose time of taking is not known (imported: Dosage's
    /// "confirmed at an unknown time" and auto-confirmed), by medicine: history and the report say so.
    public private(set) var timeUnknown: [Int64: Set<Date>] = [:]
    /// Medicines in a cycle today, with their position and what follows its phase.
    public private(set) var cycles: [(medication: Medication, position: CyclePosition, turn: CycleTurn)]
    /// Whether any active medicine exists at all on this day.
    public let hasMedications: Bool

    /// Builds the plan of `date` from every medicine's schedule in force that day and the events of that day.
    /// `events` may include the day before's: with `carry`, its slots still open after midnight are `carried`.
    public init(date: LocalDate, medications: [Medication], events: [DoseEvent], zone: Zone, carry: Bool = true) {
        self.init(date: date, medications: medications, events: events, zone: zone, byName: false, carry: carry)
    }

    /// `byName`: `medications` already come in name-then-id order (the history ledger's, day after day).
    /// `courseEnds`: the day a medicine was really archived, when `medications` pretend otherwise (the
    /// ledger keeps an archived medicine's last day in its plan): its last slots have no next slot.
    init(date: LocalDate, medications: [Medication], events: [DoseEvent], zone: Zone, byName: Bool, carry: Bool = false,
         courseEnds: [Int64: LocalDate] = [:]) {
        self.date = date
        self.zone = zone
        // The frames of the days whose slots are placed: the day before's carried ones, this day's,
        // and the two after, where a slot's next one (its cut-off) may fall. Each is found once
        // for every medicine: time zone look-ups per medicine and day add up over years of history.
        let yesterdayFrame = carry ? DayFrame(date.adding(days: -1), zone: zone) : nil
        let today = DayFrame(date, zone: zone, start: yesterdayFrame?.end)
        let tomorrow = DayFrame(date.adding(days: 1), zone: zone, start: today.end)
        let following = (tomorrow, DayFrame(date.adding(days: 2), zone: zone, start: tomorrow.end))
        let start = today.start
        dayStart = today.start
        dayEnd = today.end
        offset = today.offset
        var latest: [SlotKey: DoseEvent] = [:]
        // At most an entry an event: grown once, not rehashed at every doubling (a day of 50
        // medicines grew it seven times, a twentieth of summarising 20 years).
        latest.reserveCapacity(events.count)
        var extra: [Int64: [Date]] = [:]
        // Which events count: ``CountingEvents``. Events may come with the undo events that cancel
        // them (the store filters those out already; a raw log does not).
        let cancelled = CountingEvents.cancelled(in: events)
        // A medicine on a zone of its own has slots of the dates around the day in it (`--keep-zone`).
        let keeps = medications.contains { $0.keepsZone }
        for e in events where CountingEvents.counts(e, cancelled: cancelled) {
            if let key = e.slot {
                guard key.date == date || (carry && key.date == date.adding(days: -1))
                    || (keeps && key.date >= date.adding(days: -DayPlan.keptReach - 1) && key.date <= date.adding(days: DayPlan.keptReach))
                else { continue }
                if let old = latest[key], !CountingEvents.resolves(e, over: old) { continue }
                latest[key] = e
            } else if e.kind == .taken, zone.date(of: e.at) == date {
                extra[e.medicationID, default: []].append(e.at)
                if e.overLimit { overLimit[e.medicationID, default: []].insert(e.at) }
                if !e.timeKnown { timeUnknown[e.medicationID, default: []].insert(e.at) }
            }
        }
        var slots: [PlannedSlot] = []
        var order: [(instant: Date, rank: Int)] = []
        slots.reserveCapacity(medications.count * 2)
        order.reserveCapacity(medications.count * 2)
        var previous: [PlannedSlot] = []
        var previousOrder: [(instant: Date, rank: Int)] = []
        var closed: [PlannedSlot] = []
        let ranks = byName ? Array(medications.indices) : DayPlan.nameRanks(medications)
        var asNeeded: [(Medication, Int?, Int?, [Date], rank: Int)] = []
        var cycles: [(Medication, CyclePosition, CycleTurn, rank: Int)] = []
        var extras: [(Medication, [Date], rank: Int)] = []
        var any = false
        let yesterday = date.adding(days: -1)
        for (index, m) in medications.enumerated() {
            if carry {
                for slot in DayPlan.slots(of: m, on: yesterdayFrame ?? DayFrame(yesterday, zone: zone), zone: zone, events: latest,
                                          courseEnd: courseEnds.isEmpty ? nil : courseEnds[m.id], following: (today, tomorrow))
                where slot.event.map({ $0.at >= start }) ?? true {
                    if !slot.tracked {
                        // Only `--at`/`--slot` reach it, as they reach the day's untracked ones.
                        if slot.cutoff > start { carriedUntracked.append(slot) }
                        continue
                    }
                    if slot.cutoff > start {
                        previous.append(slot)
                        previousOrder.append((slot.instant, ranks[index]))
                    } else {
                        closed.append(slot)
                    }
                }
            }
            guard let s = m.schedule(on: date) else { continue }
            if s.start > date { continue }
            if let until = s.until, date > until { continue }
            any = true
            if case let .asNeeded(maxPerDay, minInterval) = s.recurrence {
                asNeeded.append((m.on(date), maxPerDay, minInterval, (extra[m.id] ?? []).sorted(), ranks[index]))
                continue
            }
            if !extra.isEmpty, let taken = extra[m.id] { extras.append((m.on(date), taken.sorted(), ranks[index])) }
            if let pos = s.cyclePosition(on: date), let turn = s.cycleTurn(after: date) { cycles.append((m, pos, turn, ranks[index])) }
            for slot in DayPlan.slots(of: m, on: today, zone: zone, events: latest, courseEnd: courseEnds.isEmpty ? nil : courseEnds[m.id],
                                      following: following) {
                if slot.tracked {
                    order.append((slot.instant, ranks[index]))
                    slots.append(slot)
                } else {
                    untracked.append(slot)
                }
            }
        }
        // By instant, then name and id (ranked once: comparing names for every pair was most of a year's history).
        // (`order` itself sorted with each slot's index: a comparison reading two elements through
        // their indices is slower.)
        var keyed = order.enumerated().map { (instant: $0.element.instant, rank: $0.element.rank, index: $0.offset) }
        keyed.sort { ($0.instant, $0.rank, $0.index) < ($1.instant, $1.rank, $1.index) }
        self.slots = keyed.map { slots[$0.index] }
        carried = previousOrder.indices.sorted { (previousOrder[$0].instant, previousOrder[$0].rank) < (previousOrder[$1].instant, previousOrder[$1].rank) }
            .map { previous[$0] }
        closedYesterday = closed.sorted { $0.instant < $1.instant }
        // As-needed medicines and cycles by name too: not by local row id, which differs between
        // machines that sync one history.
        self.asNeeded = asNeeded.sorted { $0.rank < $1.rank }
            .map { (medication: $0.0, maxPerDay: $0.1, minInterval: $0.2, taken: $0.3) }
        self.cycles = cycles.sorted { $0.rank < $1.rank }.map { (medication: $0.0, position: $0.1, turn: $0.2) }
        self.extras = extras.sorted { $0.rank < $1.rank }.map { (medication: $0.0, taken: $0.1) }
        hasMedications = any || medications.contains { $0.archivedOn == nil || $0.archivedOn! > date }
    }

    /// The slots of `m` on `frame`'s day (none when no schedule of it is in force or it does not occur),
    /// each with its cut-off and event. `following`: the frames of the two days after it.
    static func slots(of m: Medication, on frame: DayFrame, zone: Zone, events: [SlotKey: DoseEvent], courseEnd: LocalDate?,
                      following: (DayFrame, DayFrame)) -> [PlannedSlot] {
        let mine = placedSlots(of: m, on: frame, zone: zone, events: events, courseEnd: courseEnd, following: following)
        guard m.keepsZone else { return mine }
        return (mine + keptSlots(of: m, on: frame, zone: zone, events: events, courseEnd: courseEnd)).sorted { $0.instant < $1.instant }
    }

    /// The days whose events plans of `days` need: those days, and with a medicine on a zone of its
    /// own (`--keep-zone`), the dates around them its slots on those days may be of.
    public static func eventDays(_ days: ClosedRange<LocalDate>, medications: [Medication]) -> ClosedRange<LocalDate> {
        guard medications.contains(where: { $0.keepsZone }) else { return days }
        return days.lowerBound.adding(days: -keptReach - 1)...days.upperBound.adding(days: keptReach)
    }

    /// How many dates either side of a day a kept zone's slots may come from (offsets differ by at most 26 h,
    /// and a day after a change may last 50).
    static let keptReach = 2

    /// The slots of `m`'s versions that keep their own zone (`--keep-zone`) whose instants fall on
    /// `frame`'s day: (D, h) at h on D in that zone, whatever the person's clock reads then.
    static func keptSlots(of m: Medication, on frame: DayFrame, zone: Zone, events: [SlotKey: DoseEvent],
                          courseEnd: LocalDate?) -> [PlannedSlot] {
        var out: [PlannedSlot] = []
        for d in (-keptReach...keptReach).map({ frame.date.adding(days: $0) }) {
            if let courseEnd, d >= courseEnd { continue }
            guard let s = m.schedule(on: d), let kept = s.keepZone, s.start <= d, s.until.map({ d <= $0 }) ?? true,
                  !s.recurrence.isAsNeeded, s.occurs(on: d) else { continue }
            let dated = m.on(d)
            for t in s.times {
                let instant = Zone.wallInstant(kept, d, t.minuteOfDay)
                guard instant >= frame.start, instant < frame.end else { continue }
                let key = SlotKey(medicationID: m.id, date: d, time: t)
                let event = events[key]
                let tracked = event != nil || m.trackedFrom.map { instant >= $0 } ?? true
                out.append(PlannedSlot(key: key, medication: dated, instant: instant, window: s.window,
                                       cutoff: PlannedSlot.cutoff(instant: instant, window: s.window,
                                                                  next: keptNext(of: m, after: instant, from: d, zone: zone, courseEnd: courseEnd)),
                                       event: event, tracked: tracked))
            }
        }
        return out
    }

    /// The first slot of `m` after `instant` (a slot of date `from`) on that date and the two after,
    /// each version placed by its own rule.
    static func keptNext(of m: Medication, after instant: Date, from: LocalDate, zone: Zone, courseEnd: LocalDate?) -> Date? {
        var best: Date?
        for d in (0...2).map({ from.adding(days: $0) }) {
            if let courseEnd, d >= courseEnd { break }
            guard let s = m.schedule(on: d) else { break }
            guard !s.recurrence.isAsNeeded, s.start <= d, s.until.map({ d <= $0 }) ?? true, s.occurs(on: d) else { continue }
            for t in s.times {
                let y = s.keepZone.map { Zone.wallInstant($0, d, t.minuteOfDay) } ?? zone.instant(d, t)
                if y > instant, best.map({ y < $0 }) ?? true { best = y }
            }
        }
        return best
    }

    /// The slots of `m` on `frame`'s day placed on the person's clock (the zone log).
    static func placedSlots(of m: Medication, on frame: DayFrame, zone: Zone, events: [SlotKey: DoseEvent], courseEnd: LocalDate?,
                            following: (DayFrame, DayFrame)) -> [PlannedSlot] {
        let date = frame.date
        guard let s = m.schedule(on: date), s.keepZone == nil, s.start <= date, s.until.map({ date <= $0 }) ?? true,
              !s.recurrence.isAsNeeded, s.occurs(on: date), !s.times.isEmpty else { return [] }
        let instants = s.times.map { frame.instant($0, zone: zone) }
        // The days after's slots, sorted, read only when a change of zone put the first of them at
        // or before one of this day's (DESIGN §3 "Where the person is"): every other day needs just
        // the first, with no array made (this runs for every medicine and day of a history).
        let first = nextSlot(of: m, in: following, zone: zone, courseEnd: courseEnd)
        var after: [Date]?
        // The dose of this day's version: an earlier day keeps the dose it had (DESIGN §2 `edit`).
        let dated = m.on(date)
        var out: [PlannedSlot] = []
        out.reserveCapacity(s.times.count)
        for (i, t) in s.times.enumerated() {
            let key = SlotKey(medicationID: m.id, date: date, time: t)
            // The first slot after T by instant: on a spring-forward day a moved time (02:30 → 03:30)
            // can pass a later one (03:00).
            // (Strictly after: a change of zone can place two slots at one instant, DESIGN §3.)
            var next = first
            if let f = first, f <= instants[i] {
                if after == nil { after = laterSlots(of: m, in: following, zone: zone, courseEnd: courseEnd) }
                next = after?.first { $0 > instants[i] }
            }
            var later: Date?
            for other in instants where other > instants[i] && later.map({ other < $0 }) ?? true { later = other }
            if let later { next = later }
            let event = events[key]
            let tracked = event != nil || m.trackedFrom.map { instants[i] >= $0 } ?? true
            out.append(PlannedSlot(key: key, medication: dated, instant: instants[i], window: s.window,
                                   cutoff: PlannedSlot.cutoff(instant: instants[i], window: s.window, next: next),
                                   event: event, tracked: tracked))
        }
        return out
    }

    /// The first slot (by instant) of `m` on the two days `days` frame (the two after a slot's), past an as-needed stretch (a later one cannot move a cut-off: it is
    /// at most T + 24 h, and a window at most 12 h). None once the course ends or it is archived.
    static func nextSlot(of m: Medication, in days: (DayFrame, DayFrame), zone: Zone, courseEnd: LocalDate?) -> Date? {
        for frame in [days.0, days.1] {
            let d = frame.date
            if let courseEnd, d >= courseEnd { return nil }
            guard let s = m.schedule(on: d) else { return nil }
            guard !s.recurrence.isAsNeeded, s.start <= d, s.until.map({ d <= $0 }) ?? true, s.occurs(on: d), !s.times.isEmpty else { continue }
            var first: Date?
            for t in s.times {
                let instant = s.keepZone.map { Zone.wallInstant($0, d, t.minuteOfDay) } ?? frame.instant(t, zone: zone)
                if first.map({ instant < $0 }) ?? true { first = instant }
            }
            return first
        }
        return nil
    }

    /// Every slot of `m` on the two days `days` frame, ascending, by ``nextSlot(of:in:zone:courseEnd:)``'s
    /// rules: a slot's next one when a change of zone placed the first of them at or before it.
    static func laterSlots(of m: Medication, in days: (DayFrame, DayFrame), zone: Zone, courseEnd: LocalDate?) -> [Date] {
        var out: [Date] = []
        for frame in [days.0, days.1] {
            let d = frame.date
            if let courseEnd, d >= courseEnd { break }
            guard let s = m.schedule(on: d) else { break }
            guard !s.recurrence.isAsNeeded, s.start <= d, s.until.map({ d <= $0 }) ?? true, s.occurs(on: d), !s.times.isEmpty else { continue }
            for t in s.times { out.append(s.keepZone.map { Zone.wallInstant($0, d, t.minuteOfDay) } ?? frame.instant(t, zone: zone)) }
        }
        return out.sorted()
    }

    /// `t` with its offset from UTC (no time zone lookup when `t` falls on this day and the offset holds all day).
    public func local(_ t: Date) -> LocalInstant {
        if let offset, t >= dayStart, t < dayEnd { return LocalInstant(date: t, offset: offset) }
        return zone.local(t)
    }

    /// Each medicine's place in the order by name, then id (`ranks[i]` for `medications[i]`); no sort when
    /// they already come in that order.
    static func nameRanks(_ medications: [Medication]) -> [Int] {
        func before(_ a: Medication, _ b: Medication) -> Bool { (a.name, a.id) < (b.name, b.id) }
        if zip(medications, medications.dropFirst()).allSatisfy({ !before($1, $0) }) { return Array(medications.indices) }
        var ranks = [Int](repeating: 0, count: medications.count)
        for (rank, i) in medications.indices.sorted(by: { before(medications[$0], medications[$1]) }).enumerated() { ranks[i] = rank }
        return ranks
    }

    /// The final outcome of the day once it is over (every event counts, unresolved slots are missed),
    /// chained onto the previous day's streak.
    public func summary(after previous: DaySummary?) -> DaySummary {
        var s = DaySummary(date: date, total: slots.count, taken: 0, onTime: 0, skipped: 0, missed: 0)
        for slot in slots {
            let status = slot.status(at: .distantFuture)
            switch status {
            case .taken: s.taken += 1; s.onTime += 1
            case .takenEarly: s.taken += 1
            case .takenLate: s.taken += 1; s.troubled.append(slot.key.daily.description)
            case .skipped: s.skipped += 1
            default: s.missed += 1; s.troubled.append(slot.key.daily.description)
            }
        }
        s.chain(after: previous)
        return s
    }
}

/// A day's start and end, and its offset when the day is 24 hours long at one offset: its wall-clock
/// times are then its start plus their minutes, with no time zone look-up (``Zone/instant(_:minuteOfDay:)``
/// makes two or more for each).
struct DayFrame {
    let date: LocalDate
    let start: Date
    let end: Date
    let offset: Int?

    /// `start`: the day's start when it is known already (the day before's end).
    init(_ date: LocalDate, zone: Zone, start: Date? = nil) {
        self.date = date
        let start = start ?? zone.startOfDay(date), end = zone.endOfDay(date)
        let startOffset = zone.offset(at: start)
        self.start = start
        self.end = end
        offset = end.timeIntervalSince(start) == 86400 && zone.offset(at: end.addingTimeInterval(-1)) == startOffset
            && zone.isSettled(start, end) ? startOffset : nil
    }

    /// The instant of the wall-clock time `t` on this day (``Zone/instant(_:_:)``'s rules on a day
    /// whose offset changes).
    func instant(_ t: LocalTime, zone: Zone) -> Date {
        offset != nil ? start.addingTimeInterval(Double(t.minuteOfDay * 60)) : zone.instant(date, t)
    }
}
