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
    /// `more`: other anchors (the oracle's cut-offs of yesterday's slots).
    static func probes(_ plan: DayPlan, _ events: [DoseEvent], _ g: inout Gen, random: Int = 40, more: [Date] = []) -> [Date] {
        var set = Set<Date>()
        var anchors: [Date] = [plan.dayStart, plan.dayEnd] + more
        for s in plan.slots + plan.carried { anchors += s.transitions }
        anchors += events.map(\.at)
        for a in anchors { for d in [-1.0, 0, 1] { set.insert(a.addingTimeInterval(d)) } }
        for _ in 0..<random { set.insert(g.instant(plan.dayStart.addingTimeInterval(-3600), plan.dayEnd.addingTimeInterval(3600))) }
        return set.sorted()
    }

    /// A dose line as `id@day@instant=status`, for comparing the snapshot's list with the oracle's.
    static func line(_ id: Int64, _ day: LocalDate, _ at: Date, _ status: SlotStatus) -> String {
        "\(id)@\(day)@\(Int(at.timeIntervalSince1970))=\(status.rawValue)"
    }

    /// Each of today's slots has the one status of DESIGN §3's table, its cut-off from the medicine's next
    /// slot (the oracle's, from the schedule versions), and the snapshot lists yesterday's slots open at its
    /// instant first (carried), then today's, counting today's only.
    @Test(arguments: Property.seeds(150, salt: 1))
    func everySlotHasExactlyOneStatusAndItIsTheTablesRow(seed: UInt64) {
        var g = Gen(seed: seed)
        let w = g.world(seed: seed, scheduled: true)
        let plan = w.plan
        let events = w.allEvents
        #expect(!plan.slots.isEmpty, "the world's scheduled medicine has no slot on \(w.day); \(Property.label(seed))")
        let dayStart = Oracle.startOfDay(w.day, w.zone), dayEnd = Oracle.endOfDay(w.day, w.zone)
        #expect(plan.dayEnd == dayEnd, "day end \(plan.dayEnd) vs Foundation's \(dayEnd); \(Property.label(seed))")
        // The oracle's slots: today's tracked ones, and yesterday's of medicines still in force today.
        let today = Dictionary(Oracle.slots(w.medications, on: w.day, w.zone, events: events).filter(\.tracked).map { ($0.key, $0) }) { a, _ in a }
        let stillActive = w.medications.filter { $0.archivedOn.map { $0 > w.day } ?? true }
        let yesterday = Oracle.slots(stillActive, on: w.day.adding(days: -1), w.zone, events: events).filter(\.tracked)
            .sorted { ($0.instant, $0.name, $0.key.medicationID) < ($1.instant, $1.name, $1.key.medicationID) }
        #expect(Set(plan.slots.map(\.key)) == Set(today.keys), "today's tracked slots; \(Property.label(seed))")
        let builder = SnapshotBuilder(plan: plan, history: History(today: w.day, recent: []), medications: w.medications)
        let probes = PropertyStatusTests.probes(plan, events, &g, more: yesterday.flatMap { [$0.instant, $0.cutoff] })
        var checked = 0
        for slot in plan.slots {
            guard let o = today[slot.key] else { continue }
            guard slot.cutoff == o.cutoff else {
                Issue.record("slot \(slot.key) (\(w.zone.identifier), W=\(slot.window)s): cut-off \(w.zone.local(slot.cutoff).iso8601), oracle \(w.zone.local(o.cutoff).iso8601); \(Property.label(seed))")
                return
            }
        }
        for t in probes {
            for slot in plan.slots {
                guard let o = today[slot.key] else { continue }
                let rows = Oracle.statuses(scheduled: o.instant, window: o.window, cutoff: o.cutoff,
                                           event: PropertyStatusTests.winner(slot.key, events), at: t)
                let status = slot.status(at: t)
                guard rows == [status] else {
                    Issue.record("slot \(slot.key) (\(w.zone.identifier), W=\(slot.window)s) at \(w.zone.local(t).iso8601): table rows \(rows), status \(status); \(Property.label(seed))")
                    return
                }
                checked += 1
            }
            // A day's snapshots are of its instants.
            guard t >= dayStart && t < dayEnd else { continue }
            let s = builder.snapshot(at: t, validUntil: t)
            let c = s.counts
            #expect(c.total == plan.slots.count && c.total == c.taken + c.skipped + c.due + c.late + c.missed + c.upcoming,
                    "counts \(c) at \(t); \(Property.label(seed))")
            // Carried: yesterday's slots open (due or late) at t by the table, earliest first (75 of the
            // 150 base seeds' worlds list one at some probe).
            var carried: [String] = []
            for y in yesterday {
                let rows = Oracle.statuses(scheduled: y.instant, window: y.window, cutoff: y.cutoff,
                                           event: PropertyStatusTests.winner(y.key, events), at: t)
                if rows == [.due] || rows == [.late] { carried.append(PropertyStatusTests.line(y.key.medicationID, y.key.date, y.instant, rows[0])) }
            }
            let want = carried + plan.slots.map { PropertyStatusTests.line($0.key.medicationID, $0.key.date, $0.instant, $0.status(at: t)) }
            let got = s.doses.map { PropertyStatusTests.line($0.medicationID, $0.day, $0.scheduled.date, $0.status) }
            guard got == want && c.carried == carried.count else {
                Issue.record("at \(w.zone.local(t).iso8601) (\(w.zone.identifier)): doses \(got), expected \(want), carried \(c.carried); \(Property.label(seed))")
                return
            }
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
        // Independently: which medicines have which times on the day (DESIGN §3's recurrence rules),
        // tracked (at or after the medicine's tracking start, or resolved by a back-dated event).
        let all = Oracle.slots(w.medications, on: w.day, w.zone, events: w.allEvents)
        let expected = Set(all.filter(\.tracked).map(\.key))
        let got = Set(w.plan.slots.map(\.key))
        #expect(Set(w.plan.untracked.map(\.key)) == Set(all.filter { !$0.tracked }.map(\.key)),
                "untracked slots: \(w.plan.untracked.map(\.key)); \(Property.label(seed))")
        #expect(!expected.isEmpty, "the world's scheduled medicine has no slot by the oracle either; \(Property.label(seed))")
        #expect(got == expected, "missing \(expected.subtracting(got)), extra \(got.subtracting(expected)); \(Property.label(seed))")
    }
}
