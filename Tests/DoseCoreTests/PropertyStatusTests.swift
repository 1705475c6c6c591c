import DoseCore
import Foundation
import Testing

/// Properties of slots and their statuses (DESIGN §3) over random schedules, events, instants and zones.
@Suite struct PropertyStatusTests {
    /// The event that resolves a slot, chosen independently: the latest logged one for its key.
    static func winner(_ key: SlotKey, _ events: [DoseEvent]) -> DoseEvent? {
        events.filter { $0.slot == key && $0.kind != .undone }.max { ($0.loggedAt, $0.id) < ($1.loggedAt, $1.id) }
    }

    /// Instants worth looking at: every transition and event ±1 s, the day's edges, and random ones.
    static func probes(_ plan: DayPlan, _ events: [DoseEvent], _ g: inout Gen, random: Int = 40) -> [Date] {
        var set = Set<Date>()
        var anchors: [Date] = [plan.dayStart, plan.dayEnd]
        for s in plan.slots { anchors += s.transitions }
        anchors += events.map(\.at)
        for a in anchors { for d in [-1.0, 0, 1] { set.insert(a.addingTimeInterval(d)) } }
        for _ in 0..<random { set.insert(g.instant(plan.dayStart.addingTimeInterval(-3600), plan.dayEnd.addingTimeInterval(3600))) }
        return set.sorted()
    }

    @Test(arguments: Property.seeds(150, salt: 1))
    func everySlotHasExactlyOneStatusAndItIsTheTablesRow(seed: UInt64) {
        var g = Gen(seed: seed)
        let w = g.world(seed: seed, scheduled: true)
        let plan = w.plan
        #expect(!plan.slots.isEmpty, "the world's scheduled medicine has no slot on \(w.day); \(Property.label(seed))")
        let dayEnd = Oracle.endOfDay(w.day, w.zone)
        #expect(plan.dayEnd == dayEnd, "day end \(plan.dayEnd) vs Foundation's \(dayEnd); \(Property.label(seed))")
        let builder = SnapshotBuilder(plan: plan, history: History(today: w.day, recent: []), medications: w.medications)
        let probes = PropertyStatusTests.probes(plan, w.events, &g)
        var checked = 0
        for t in probes {
            for slot in plan.slots {
                let rows = Oracle.statuses(scheduled: slot.instant, window: slot.window, dayEnd: dayEnd,
                                           event: PropertyStatusTests.winner(slot.key, w.events), at: t)
                let status = slot.status(at: t)
                guard rows == [status] else {
                    Issue.record("slot \(slot.key) (\(w.zone.identifier), W=\(slot.window)s) at \(w.zone.local(t).iso8601): table rows \(rows), status \(status); \(Property.label(seed))")
                    return
                }
                checked += 1
            }
            let s = builder.snapshot(at: t, validUntil: t)
            let c = s.counts
            #expect(c.total == plan.slots.count && c.total == c.taken + c.skipped + c.due + c.late + c.missed + c.upcoming,
                    "counts \(c) at \(t); \(Property.label(seed))")
            #expect(s.doses.map(\.status) == plan.slots.map { $0.status(at: t) }, "\(Property.label(seed))")
            for d in s.doses {
                #expect((d.lateMinutes != nil) == (d.status == .late), "late_minutes only on late doses; \(Property.label(seed))")
                if let m = d.lateMinutes { #expect(m >= 0) }
            }
        }
        // Every slot was judged at every probe (the probes include each slot's transitions ±1 s).
        #expect(checked == plan.slots.count * probes.count && checked > 0, "\(checked) checks; \(Property.label(seed))")
    }

    @Test(arguments: Property.seeds(150, salt: 2))
    func statusesMoveOnlyForwardInTime(seed: UInt64) {
        var g = Gen(seed: seed)
        let w = g.world(seed: seed, scheduled: true)
        let plan = w.plan
        let probes = PropertyStatusTests.probes(plan, w.events, &g, random: 60)
        var changes = 0
        for slot in plan.slots {
            var previous: SlotStatus?
            for t in probes {
                let s = slot.status(at: t)
                defer { previous = s }
                guard let p = previous, p != s else { continue }
                changes += 1
                // Unresolved statuses only advance along upcoming → due → late → missed; a resolved
                // one (taken*, skipped) never changes again; unresolved may become resolved.
                let ok: Bool
                if let rp = Oracle.rank(p) {
                    ok = Oracle.rank(s).map { $0 > rp } ?? true
                } else {
                    ok = false
                }
                if !ok {
                    Issue.record("slot \(slot.key) in \(w.zone.identifier) went \(p) → \(s) at \(w.zone.local(t).iso8601); \(Property.label(seed))")
                    break
                }
            }
        }
        // The probes run from an hour before the day to an hour after it: every slot starts
        // `upcoming` and ends resolved or `missed`, so each one changed at least once.
        #expect(!plan.slots.isEmpty && changes >= plan.slots.count, "\(changes) changes for \(plan.slots.count) slots; \(Property.label(seed))")
    }

    @Test(arguments: Property.seeds(100, salt: 3))
    func slotInstantsFollowTheDSTRules(seed: UInt64) {
        var g = Gen(seed: seed)
        let (zone, transitions) = g.zone()
        let day = g.day(transitions: transitions)
        for _ in 0..<8 {
            let time = g.time()
            let got = zone.instant(day, time)
            let want = Oracle.instant(day, time, zone)
            #expect(got == want, "\(day) \(time) in \(zone.identifier): \(zone.local(got).iso8601), want \(zone.local(want).iso8601); \(Property.label(seed))")
        }
        #expect(zone.startOfDay(day) == Oracle.startOfDay(day, zone), "start of \(day) in \(zone.identifier); \(Property.label(seed))")
        // Every local hour of the day, each occurrence once: brute force over the day's minutes.
        var hours: [Date] = []
        var t = Oracle.startOfDay(day, zone)
        let end = Oracle.endOfDay(day, zone)
        while t < end {
            if Oracle.wall(t, zone) % 3600 == 0 { hours.append(t) }
            t = t.addingTimeInterval(60)
        }
        #expect(zone.hours(of: day) == hours, "hours of \(day) in \(zone.identifier); \(Property.label(seed))")
    }

    @Test(arguments: Property.seeds(100, salt: 4))
    func slotsComeFromTheScheduleInForceThatDay(seed: UInt64) {
        var g = Gen(seed: seed)
        let w = g.world(seed: seed, scheduled: true)
        // Independently: which medicines have which times on the day (DESIGN §3's recurrence rules).
        var expected = Set<SlotKey>()
        let cal = Oracle.calendar(Zone(TimeZone(identifier: "UTC")!))
        func comps(_ d: LocalDate) -> DateComponents { DateComponents(year: d.year, month: d.month, day: d.day) }
        let dayDate = cal.date(from: comps(w.day))!
        for m in w.medications {
            if let a = m.archivedOn, w.day >= a { continue }
            guard let v = m.versions.last(where: { $0.effective <= w.day }) else { continue }
            let s = v.schedule
            guard s.start <= w.day, s.until.map({ w.day <= $0 }) ?? true else { continue }
            let startDate = cal.date(from: comps(s.start))!
            let days = cal.dateComponents([.day], from: startDate, to: dayDate).day!
            let occurs: Bool
            switch s.recurrence {
            case .daily: occurs = true
            case .weekdays(let set):
                let wd = cal.component(.weekday, from: dayDate) // 1 = Sunday
                occurs = set.contains(Weekday(rawValue: wd == 1 ? 7 : wd - 1)!)
            case .everyDays(let n): occurs = days % n == 0
            case .everyWeeks(let n): occurs = days % (7 * n) == 0
            case .everyMonths(let n):
                occurs = (0...200).contains { k in
                    k % n == 0 && cal.date(byAdding: .month, value: k, to: startDate) == dayDate
                }
            case .cycle(let a, let r): occurs = days % (a + r) < a
            case .asNeeded: occurs = false
            }
            if occurs { for t in s.times { expected.insert(SlotKey(medicationID: m.id, date: w.day, time: t)) } }
        }
        let got = Set(w.plan.slots.map(\.key))
        #expect(!expected.isEmpty, "the world's scheduled medicine has no slot by the oracle either; \(Property.label(seed))")
        #expect(got == expected, "missing \(expected.subtracting(got)), extra \(got.subtracting(expected)); \(Property.label(seed))")
    }
}
