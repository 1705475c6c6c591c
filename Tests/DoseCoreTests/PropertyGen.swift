import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// Seeds for the property tests and how to replay one.
///
/// Every case gets its own seed, printed in each failed expectation. Replay a failing case alone with
/// `DOSEBAR_PROPERTY_SEED=0x… swift test --skip-build --filter Property`; change the base with
/// `DOSEBAR_PROPERTY_BASE=…` and multiply the number of cases with `DOSEBAR_PROPERTY_SCALE=N`.
enum Property {
    static let environment = ProcessInfo.processInfo.environment

    static func parse(_ text: String?) -> UInt64? {
        guard let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return nil }
        if t.lowercased().hasPrefix("0x") { return UInt64(t.dropFirst(2), radix: 16) }
        return UInt64(t)
    }

    static let base: UInt64 = parse(environment["DOSEBAR_PROPERTY_BASE"]) ?? 0xD05E_BA20_2026_0001
    static let scale: Int = Int(environment["DOSEBAR_PROPERTY_SCALE"] ?? "") ?? 1

    /// `count` seeds (times the scale), or only the replayed one.
    static func seeds(_ count: Int, salt: UInt64) -> [UInt64] {
        if let only = parse(environment["DOSEBAR_PROPERTY_SEED"]) { return [only] }
        var g = SplitMix64(seed: base ^ salt)
        return (0..<(count * max(1, scale))).map { _ in g.next() }
    }

    /// `seed 0x…` for failure messages.
    static func label(_ seed: UInt64) -> Comment { "seed 0x\(String(seed, radix: 16)) (replay: DOSEBAR_PROPERTY_SEED=0x\(String(seed, radix: 16)))" }
}

/// Zones the properties run in: the DESIGN matrix plus odd offsets and a southern-hemisphere DST.
enum Zones {
    static let identifiers = ["UTC", "Asia/Seoul", "America/New_York", "Europe/London", "Australia/Lord_Howe",
                              "Pacific/Chatham", "Asia/Kathmandu", "America/St_Johns", "America/Santiago"]

    /// The local dates in 2025–2027 on which the zone's offset changes (empty for fixed zones).
    static func transitionDays(_ zone: Zone) -> [LocalDate] {
        var days: [LocalDate] = []
        var t = Date(timeIntervalSince1970: 1_735_689_600) // 2025-01-01Z
        let end = Date(timeIntervalSince1970: 1_830_297_600) // 2028-01-01Z
        while let next = zone.timeZone.nextDaylightSavingTimeTransition(after: t), next < end {
            // The local date just before and just after the change (they differ for a midnight change).
            days.append(zone.date(of: next.addingTimeInterval(-1)))
            days.append(zone.date(of: next))
            t = next
        }
        return days
    }

    static let cache: [String: (Zone, [LocalDate])] = Dictionary(uniqueKeysWithValues: identifiers.map { id in
        let z = Zone(TimeZone(identifier: id)!)
        return (id, (z, transitionDays(z)))
    })
}

/// A random but reproducible world: a zone, "today", medicines with schedule histories and the
/// effective events of today, as DoseStore would hand them to DoseCore.
struct World {
    var seed: UInt64
    var zone: Zone
    var day: LocalDate
    var medications: [Medication]
    /// The events of today's slots and as-needed doses.
    var events: [DoseEvent]
    /// The events of yesterday's slots (some taken after midnight, DESIGN §3) and as-needed doses.
    var yesterdayEvents: [DoseEvent] = []

    /// Every event the store hands DoseCore for today: yesterday's slots may still be open (carried).
    var allEvents: [DoseEvent] { yesterdayEvents + events }
    var plan: DayPlan { DayPlan(date: day, medications: medications, events: allEvents, zone: zone) }
}

/// Generators of domain values, biased towards the edges: DST days, times near midnight and in
/// the small hours, tiny and huge windows, courses that start or end around today.
struct Gen {
    var rng: SplitMix64
    var nextEventID: Int64 = 1

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func zone() -> (Zone, [LocalDate]) { Zones.cache[rng.pick(Zones.identifiers)]! }

    /// A day in 2025–2027, half the time on or next to one of the zone's DST changes.
    mutating func day(transitions: [LocalDate]) -> LocalDate {
        if !transitions.isEmpty, rng.chance(0.5) {
            return rng.pick(transitions).adding(days: rng.pick([0, 0, 0, -1, 1]))
        }
        return LocalDate(year: 2025, month: 1, day: 1)!.adding(days: rng.int(0...(3 * 365)))
    }

    static let trickyTimes = ["00:00", "00:01", "00:30", "01:00", "01:30", "01:59", "02:00", "02:15", "02:30", "02:45",
                              "03:00", "03:30", "11:59", "12:00", "21:00", "22:00", "23:00", "23:30", "23:59"]

    mutating func time() -> LocalTime {
        if rng.chance(0.45) { return LocalTime(rng.pick(Gen.trickyTimes))! }
        return LocalTime(minuteOfDay: rng.int(0...1439))
    }

    mutating func times() -> [LocalTime] { (0..<rng.int(1...4)).map { _ in time() } }

    mutating func window() -> Int { rng.pick([0, 60, 900, 1800, 3600, 7200, 7200, 7200, 10800, 14400, 21600, 43200]) }

    mutating func recurrence(allowAsNeeded: Bool = true) -> Recurrence {
        switch rng.int(0...(allowAsNeeded ? 7 : 6)) {
        case 0, 1: return .daily
        case 2:
            var days = Set<Weekday>()
            for d in Weekday.allCases where rng.chance(0.45) { days.insert(d) }
            return .weekdays(days.isEmpty ? [rng.pick(Weekday.allCases)] : days)
        case 3: return .everyDays(rng.int(1...10))
        case 4: return .everyWeeks(rng.int(1...4))
        case 5: return .everyMonths(rng.int(1...6))
        case 6: return .cycle(active: rng.int(1...28), rest: rng.int(0...14))
        default:
            return .asNeeded(maxPerDay: rng.chance(0.5) ? rng.int(1...5) : nil,
                             minInterval: rng.chance(0.5) ? rng.pick([600, 3600, 4 * 3600, 8 * 3600]) : nil)
        }
    }

    /// A schedule whose course starts at most `back` days before `day` (and may end around it).
    mutating func schedule(around day: LocalDate, back: Int = 120, allowAsNeeded: Bool = true) -> Schedule {
        let recurrence = recurrence(allowAsNeeded: allowAsNeeded)
        let start = day.adding(days: -rng.int(0...back))
        let until: LocalDate? = rng.chance(0.3) ? start.adding(days: rng.int(0...(back + 30))) : nil
        return Schedule(recurrence: recurrence, times: recurrence.isAsNeeded ? [] : times(), window: window(),
                        start: start, until: until)
    }

    /// A medicine as `add` then `edit` would leave it: the first version effective no later than its
    /// course starts (or `firstDay`), later versions on distinct later dates.
    mutating func medication(id: Int64, around day: LocalDate, firstDay: LocalDate? = nil,
                             versions: ClosedRange<Int> = 1...3, allowAsNeeded: Bool = true) -> Medication {
        var list: [ScheduleVersion] = []
        let first = schedule(around: day, allowAsNeeded: allowAsNeeded)
        var effective = min(first.start, firstDay ?? first.start)
        list.append(ScheduleVersion(effective: effective, schedule: first))
        for _ in 1..<rng.int(versions) {
            effective = effective.adding(days: rng.int(1...40))
            list.append(ScheduleVersion(effective: effective, schedule: schedule(around: effective, back: 30, allowAsNeeded: allowAsNeeded)))
        }
        // Amounts to hundredths: stock 0…60 units, a dose of 0.5, 1 or 1.5.
        let stock: Amount? = rng.chance(0.6) ? Amount(hundredths: rng.int(0...6000)) : nil
        // Sometimes added with a back-dated --from: tracked from an instant within two days of `day`.
        let trackedFrom: Date? = rng.chance(0.25)
            ? Date(timeIntervalSince1970: Double((day.dayNumber + rng.int(-2...1)) * 86400 + rng.int(-14 * 3600...(38 * 3600))))
            : nil
        return Medication(id: id, name: "Med\(id)", dose: rng.chance(0.5) ? "\(rng.int(1...500)) mg" : nil,
                          group: rng.chance(0.3) ? rng.pick(["morning", "evening"]) : nil,
                          stock: stock, perDose: Amount(hundredths: rng.int(1...3) * 50), lowDays: rng.int(0...10),
                          archivedOn: rng.chance(0.1) ? day.adding(days: rng.int(-3...3)) : nil, trackedFrom: trackedFrom,
                          versions: list)
    }

    mutating func medications(around day: LocalDate, count: ClosedRange<Int> = 1...5, allowAsNeeded: Bool = true) -> [Medication] {
        (1...rng.int(count)).map { medication(id: Int64($0), around: day, allowAsNeeded: allowAsNeeded) }
    }

    /// A medicine that has slots on `day` by DESIGN §3's rules, whatever the rest of the world does:
    /// active, one version, a course around the day and a recurrence aligned on it (the day's weekday,
    /// a multiple of N days or weeks from `--from`, an active day of a cycle). Worlds that include one
    /// cannot make a property vacuous by having nothing scheduled.
    mutating func scheduledMedication(id: Int64, on day: LocalDate) -> Medication {
        let recurrence: Recurrence
        var start = day.adding(days: -rng.int(0...60))
        switch rng.int(0...4) {
        case 0: recurrence = .daily
        case 1:
            var days: Set<Weekday> = [day.weekday]
            for d in Weekday.allCases where rng.chance(0.3) { days.insert(d) }
            recurrence = .weekdays(days)
        case 2:
            let n = rng.int(1...10)
            start = day.adding(days: -n * rng.int(0...8))
            recurrence = .everyDays(n)
        case 3:
            let n = rng.int(1...4)
            start = day.adding(days: -7 * n * rng.int(0...4))
            recurrence = .everyWeeks(n)
        default:
            let active = rng.int(1...28), rest = rng.int(0...14)
            start = day.adding(days: -((active + rest) * rng.int(0...3) + rng.int(0...(active - 1))))
            recurrence = .cycle(active: active, rest: rest)
        }
        let until: LocalDate? = rng.chance(0.3) ? day.adding(days: rng.int(0...30)) : nil
        let schedule = Schedule(recurrence: recurrence, times: times(), window: window(), start: start, until: until)
        return Medication(id: id, name: "Med\(id)", dose: rng.chance(0.5) ? "\(rng.int(1...500)) mg" : nil,
                          stock: rng.chance(0.6) ? Amount(hundredths: rng.int(0...6000)) : nil, perDose: Amount(hundredths: rng.int(1...3) * 50), lowDays: rng.int(0...10),
                          versions: [ScheduleVersion(effective: start, schedule: schedule)])
    }

    /// An instant in `[from, to)`, whole seconds.
    mutating func instant(_ from: Date, _ to: Date) -> Date {
        let a = Int(from.timeIntervalSince1970), b = Int(to.timeIntervalSince1970) - 1
        return Date(timeIntervalSince1970: Double(b <= a ? a : rng.int(a...b)))
    }

    /// Effective events of `plan`'s day: some slots taken (near or far from their time) or skipped,
    /// a few resolved twice (the later log wins), as-needed doses; all inside the local day, as the
    /// CLI logs them.
    /// `until`: takes and skips may come up to then (a day's slots stay open past its end, DESIGN §3);
    /// the day's end when nil.
    mutating func events(for plan: DayPlan, resolveProbability p: Double = 0.5, until: Date? = nil) -> [DoseEvent] {
        var out: [DoseEvent] = []
        let last = until ?? plan.dayEnd
        // Now and then a back-dated take or skip of a slot before the medicine's tracking start.
        var slots = plan.slots
        for slot in plan.untracked where rng.chance(0.3) { slots.append(slot) }
        for slot in slots where rng.chance(p) {
            for _ in 0..<(rng.chance(0.1) ? 2 : 1) {
                let at: Date
                if rng.chance(0.6) {
                    let spread = Double(max(slot.window, 600)) * 2
                    let x = slot.instant.addingTimeInterval(Double(rng.int(Int(-spread)...Int(spread))))
                    at = min(max(x, plan.dayStart), last.addingTimeInterval(-1))
                } else {
                    at = instant(plan.dayStart, last)
                }
                out.append(event(slot.key.medicationID, rng.chance(0.8) ? .taken : .skipped, slot: slot.key, at: at))
            }
        }
        for item in plan.asNeeded {
            for _ in 0..<rng.int(0...3) {
                out.append(event(item.medication.id, .taken, slot: nil, at: instant(plan.dayStart, plan.dayEnd)))
            }
        }
        return out
    }

    /// An event logged a little after it happened, with ids growing in the order of logging.
    mutating func event(_ medicationID: Int64, _ kind: DoseEvent.Kind, slot: SlotKey?, at: Date) -> DoseEvent {
        defer { nextEventID += 1 }
        return DoseEvent(id: nextEventID, medicationID: medicationID, kind: kind, slot: slot, at: at,
                         loggedAt: at.addingTimeInterval(Double(rng.int(0...3600)) + Double(nextEventID) / 1000))
    }

    /// A world; with `scheduled`, one of its medicines surely has slots today (``scheduledMedication(id:on:)``).
    mutating func world(seed: UInt64, allowAsNeeded: Bool = true, scheduled: Bool) -> World {
        let (zone, transitions) = zone()
        let day = day(transitions: transitions)
        var meds = medications(around: day, allowAsNeeded: allowAsNeeded)
        if scheduled { meds.append(scheduledMedication(id: Int64(meds.count + 1), on: day)) }
        let events = events(for: DayPlan(date: day, medications: meds, events: [], zone: zone))
        // Yesterday's slots: some settled before midnight, some after it (within today), some never.
        let yesterday = DayPlan(date: day.adding(days: -1), medications: meds, events: [], zone: zone, carry: false)
        let yesterdayEvents = self.events(for: yesterday, resolveProbability: 0.5,
                                     until: rng.chance(0.5) ? yesterday.dayEnd.addingTimeInterval(86400) : nil)
        return World(seed: seed, zone: zone, day: day, medications: meds, events: events, yesterdayEvents: yesterdayEvents)
    }
}

/// Independent oracles: what DESIGN §3 says, computed with Foundation's calendar and by brute force,
/// never by calling the code under test for the answer.
enum Oracle {
    static func calendar(_ zone: Zone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone.timeZone
        return c
    }

    /// The first instant of a local date (Foundation's `startOfDay`, from the day's noon).
    static func startOfDay(_ date: LocalDate, _ zone: Zone) -> Date {
        let cal = calendar(zone)
        let noon = cal.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
        return cal.startOfDay(for: noon)
    }

    static func endOfDay(_ date: LocalDate, _ zone: Zone) -> Date { startOfDay(date.adding(days: 1), zone) }

    /// Wall-clock seconds since the epoch at `t` (local time read as if it were UTC).
    static func wall(_ t: Date, _ zone: Zone) -> Int {
        Int(t.timeIntervalSince1970) + zone.timeZone.secondsFromGMT(for: t)
    }

    /// DESIGN §3: the instant of `time` on `date` — its first occurrence, or, when the wall time
    /// does not exist, the instant the same distance past the start of the gap. Found by walking
    /// every minute of a wide band of UTC instants.
    static func instant(_ date: LocalDate, _ time: LocalTime, _ zone: Zone) -> Date {
        let naive = date.dayNumber * 86400 + time.minuteOfDay * 60
        // Quickly: every instant whose wall time is `naive` is `naive − o` for an offset o in force
        // around it; the earliest such one is the first occurrence. None: the time is in a gap.
        let offsets = Set([-16 * 3600, 0, 16 * 3600].map { zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(naive + $0))) })
        if let first = offsets.map({ naive - $0 }).filter({ wall(Date(timeIntervalSince1970: Double($0)), zone) == naive }).min() {
            return Date(timeIntervalSince1970: Double(first))
        }
        var t = naive - 16 * 3600
        while t <= naive + 16 * 3600 {
            if wall(Date(timeIntervalSince1970: Double(t)), zone) == naive { return Date(timeIntervalSince1970: Double(t)) }
            t += 60
        }
        // In a gap: the wall clock jumped over `naive`. The gap starts at the last instant whose
        // wall time is below `naive`; move forward by the time between that jump and `naive`.
        t = naive - 16 * 3600
        while wall(Date(timeIntervalSince1970: Double(t + 60)), zone) < naive { t += 60 }
        let jump = t + 60 // first instant past the gap
        let before = wall(Date(timeIntervalSince1970: Double(t)), zone) + 60 // wall time at the gap's start
        return Date(timeIntervalSince1970: Double(jump + (naive - before)))
    }

    /// Every row of the status table that holds for an unresolved-or-resolved slot at `t`, `cutoff` its
    /// C (``cutoff(scheduled:window:next:)``); exactly one must.
    static func statuses(scheduled T: Date, window W: Int, cutoff C: Date, event: DoseEvent?, at t: Date) -> [SlotStatus] {
        let e = event.flatMap { $0.at <= t ? $0 : nil }
        let notTaken = e == nil
        var rows: [SlotStatus] = []
        let tt = t.timeIntervalSince1970, TT = T.timeIntervalSince1970, w = Double(W)
        if notTaken && t < C && tt < TT { rows.append(.upcoming) }
        if notTaken && t < C && TT <= tt && tt < TT + w { rows.append(.due) }
        if notTaken && t < C && TT + w <= tt { rows.append(.late) }
        if notTaken && t >= C { rows.append(.missed) }
        if let e, e.kind == .taken {
            let x = e.at.timeIntervalSince1970
            if TT - w <= x && x <= TT + w { rows.append(.taken) }
            if x < TT - w { rows.append(.takenEarly) }
            if x > TT + w { rows.append(.takenLate) }
        }
        if let e, e.kind == .skipped { rows.append(.skipped) }
        return rows
    }

    /// Position in the unresolved order of DESIGN §3 (upcoming → due → late → missed).
    static func rank(_ s: SlotStatus) -> Int? {
        switch s {
        case .upcoming: 0
        case .due: 1
        case .late: 2
        case .missed: 3
        default: nil
        }
    }
}

/// DESIGN §3 Slots, Status and Tracking start, from the medicines' schedule versions with Foundation's
/// calendar: which slots a medicine has on a day, each one's next slot T′ and cut-off C.
extension Oracle {
    /// One slot as DESIGN §3 defines it.
    struct Slot: CustomStringConvertible {
        var key: SlotKey
        var name: String
        var instant: Date
        var window: Int
        var cutoff: Date
        /// At or after the medicine's tracking start, or resolved by an event (a back-dated one).
        var tracked: Bool
        var description: String { "\(key) T=\(instant) C=\(cutoff) W=\(window) tracked=\(tracked)" }
    }

    static let utc: Calendar = { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }()

    /// The schedule of `m` that applies on `date`: the last version effective by then, not archived, within its course.
    static func schedule(of m: Medication, on date: LocalDate) -> Schedule? {
        if let a = m.archivedOn, date >= a { return nil }
        guard let v = m.versions.last(where: { $0.effective <= date }) else { return nil }
        let s = v.schedule
        guard s.start <= date, s.until.map({ date <= $0 }) ?? true else { return nil }
        return s
    }

    /// Whether `s` has doses on `date` (DESIGN §3's recurrence rules, counted with Foundation's calendar).
    static func occurs(_ s: Schedule, on date: LocalDate) -> Bool {
        func comps(_ d: LocalDate) -> DateComponents { DateComponents(year: d.year, month: d.month, day: d.day) }
        let dayDate = utc.date(from: comps(date))!, startDate = utc.date(from: comps(s.start))!
        let days = utc.dateComponents([.day], from: startDate, to: dayDate).day!
        guard days >= 0 else { return false }
        switch s.recurrence {
        case .daily: return true
        case .weekdays(let set):
            let wd = utc.component(.weekday, from: dayDate) // 1 = Sunday
            return set.contains(Weekday(rawValue: wd == 1 ? 7 : wd - 1)!)
        case .everyDays(let n): return n > 0 && days % n == 0
        case .everyWeeks(let n): return n > 0 && days % (7 * n) == 0
        case .everyMonths(let n):
            return n > 0 && (0...200).contains { k in k % n == 0 && utc.date(byAdding: .month, value: k, to: startDate) == dayDate }
        case .cycle(let a, let r): return a > 0 && r >= 0 && days % (a + r) < a
        case .asNeeded: return false
        }
    }

    /// The instants of `m`'s doses on `date` with their times and window.
    static func doses(of m: Medication, on date: LocalDate, _ zone: Zone) -> [(time: LocalTime, instant: Date, window: Int)] {
        guard let s = schedule(of: m, on: date), occurs(s, on: date) else { return [] }
        return s.times.map { ($0, instant(date, $0, zone), s.window) }
    }

    /// T′: the first slot of `m` after `T` (a slot of `date` or of the days after), by the versions in force; nil
    /// when there is none within three days (a later one cannot move C past T + 24 h).
    static func next(of m: Medication, after T: Date, from date: LocalDate, _ zone: Zone) -> Date? {
        (0...3).flatMap { doses(of: m, on: date.adding(days: $0), zone).map(\.instant) }.filter { $0 > T }.min()
    }

    /// C = max(T + W, min(T′ − W, T + 24 h)), or T + 24 h without T′.
    static func cutoff(scheduled T: Date, window W: Int, next: Date?) -> Date {
        let day = T.addingTimeInterval(86400)
        let closes = next.map { min($0.addingTimeInterval(-Double(W)), day) } ?? day
        return max(T.addingTimeInterval(Double(W)), closes)
    }

    /// Every slot of `medications` on `date` (untracked ones too, marked), in no particular order.
    static func slots(_ medications: [Medication], on date: LocalDate, _ zone: Zone, events: [DoseEvent]) -> [Slot] {
        var out: [Slot] = []
        for m in medications {
            for d in doses(of: m, on: date, zone) {
                let key = SlotKey(medicationID: m.id, date: date, time: d.time)
                let resolved = events.contains { $0.slot == key && $0.kind != .undone }
                out.append(Slot(key: key, name: m.name, instant: d.instant, window: d.window,
                                cutoff: cutoff(scheduled: d.instant, window: d.window, next: next(of: m, after: d.instant, from: date, zone)),
                                tracked: resolved || m.trackedFrom.map { d.instant >= $0 } ?? true))
            }
        }
        return out
    }
}
