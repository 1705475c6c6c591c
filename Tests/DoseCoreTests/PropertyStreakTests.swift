import DoseCore
import Foundation
import Testing

/// Properties of the streak (DESIGN §3 Streak) over random histories of up to three months.
@Suite struct PropertyStreakTests {
    /// How a day counts, judged from the events the generator chose (not from DoseCore's summary):
    /// complete, broken (a slot closed unresolved: missed), neutral, or pending (a slot still open).
    enum Outcome { case complete, broken, neutral, pending }

    /// The day of `slots` (the oracle's tracked slots of one day) as of `t`; finished (every event counts,
    /// every unresolved slot missed) when `t` is nil. DESIGN §3 Streak: a day with a slot still open is
    /// pending; else a missed slot breaks; else at least one taken completes; else neutral.
    static func outcome(_ slots: [Oracle.Slot], events: [DoseEvent], at t: Date? = nil) -> Outcome {
        var taken = 0, open = 0, missed = 0
        for slot in slots {
            let e = PropertyStatusTests.winner(slot.key, events)
            if let e, t.map({ e.at <= $0 }) ?? true {
                if e.kind == .taken { taken += 1 }
            } else if let t, t < slot.cutoff {
                open += 1  // upcoming counts as open here: not resolved, not closed
            } else {
                missed += 1
            }
        }
        if open > 0 { return .pending }
        if missed > 0 { return .broken }
        if taken > 0 { return .complete }
        return .neutral // no slots, or every slot skipped
    }

    @Test(arguments: Property.seeds(120, salt: 30))
    func streakNeverExceedsCompleteDaysAndFollowsTheRules(seed: UInt64) {
        var g = Gen(seed: seed)
        let (zone, _) = g.zone()
        let last = LocalDate(year: 2026, month: 1, day: 1)!.adding(days: g.rng.int(0...364))
        let length = g.rng.int(3...90)
        let first = last.adding(days: -length)
        var meds = (1...g.rng.int(1...3)).map { g.medication(id: Int64($0), around: first.adding(days: 20), firstDay: first) }
        // One medicine surely scheduled on the first day, so the history is never all empty days.
        meds.append(g.scheduledMedication(id: Int64(meds.count + 1), on: first))
        // (A medicine removed today leaves today's snapshot with whatever of yesterday was still open:
        // DESIGN does not say how that counts for the streak, so it is not generated.)
        for i in meds.indices where meds[i].archivedOn == last { meds[i].archivedOn = last.adding(days: 1) }
        // Days mostly diligent so long streaks happen; sometimes sloppy.
        let diligence = g.rng.pick([0.97, 0.9, 0.7, 0.4])
        let yesterday = last.adding(days: -1)
        var previous: DaySummary?
        var summaries: [DaySummary] = []
        var oracleStreak = 0, oracleBest = 0, completeDays = 0, daysWithSlots = 0
        var eventsByDay: [LocalDate: [DoseEvent]] = [:]
        var d = first
        while d < last {
            let empty = DayPlan(date: d, medications: meds, events: [], zone: zone, carry: false)
            var events: [DoseEvent] = []
            let allSkip = g.rng.chance(0.05)
            // Yesterday's doses may be taken after midnight (before their cut-off, as `take` records them).
            let lateNight = d == yesterday && g.rng.chance(0.6)
            for slot in empty.slots where g.rng.chance(diligence) {
                let kind: DoseEvent.Kind = allSkip || g.rng.chance(0.08) ? .skipped : .taken
                let until = lateNight ? max(min(slot.cutoff, empty.dayEnd.addingTimeInterval(86400)), empty.dayEnd) : empty.dayEnd
                events.append(g.event(slot.key.medicationID, kind, slot: slot.key, at: g.instant(empty.dayStart, until)))
            }
            eventsByDay[d] = events
            let plan = DayPlan(date: d, medications: meds, events: events, zone: zone, carry: false)
            let s = plan.summary(after: previous)
            let slots = Oracle.slots(meds, on: d, zone, events: events).filter(\.tracked)
            if !slots.isEmpty { daysWithSlots += 1 }
            if d < yesterday {
                switch PropertyStreakTests.outcome(slots, events: events) {
                case .complete: oracleStreak += 1; completeDays += 1
                case .broken: oracleStreak = 0
                case .neutral, .pending: break
                }
                oracleBest = max(oracleBest, oracleStreak)
                #expect(s.streak == oracleStreak && s.best == oracleBest,
                        "\(d): streak \(s.streak)/best \(s.best), expected \(oracleStreak)/\(oracleBest); \(Property.label(seed))")
                #expect(s.streak <= completeDays && s.best <= completeDays && s.streak <= s.best,
                        "\(d): streak \(s.streak), best \(s.best), complete days so far \(completeDays); \(Property.label(seed))")
            }
            summaries.append(s)
            previous = s
            d = d.adding(days: 1)
        }
        #expect(daysWithSlots > 0 && summaries.count == length, "\(daysWithSlots) of \(summaries.count) days had slots; \(Property.label(seed))")
        // Today, at any instant: yesterday as of that instant (pending while one of its slots is open,
        // DESIGN §3), then today (broken as soon as one of its slots closes unresolved).
        let today = last
        let emptyToday = DayPlan(date: today, medications: meds, events: [], zone: zone, carry: false)
        let todayEvents = g.events(for: emptyToday, resolveProbability: diligence)
        let yesterdayEvents = eventsByDay[yesterday] ?? []
        let plan = DayPlan(date: today, medications: meds, events: yesterdayEvents + todayEvents, zone: zone)
        let builder = SnapshotBuilder(plan: plan, history: History(today: today, recent: summaries), medications: meds)
        let ySlots = Oracle.slots(meds, on: yesterday, zone, events: yesterdayEvents).filter(\.tracked)
        let tSlots = Oracle.slots(meds, on: today, zone, events: todayEvents).filter(\.tracked)
        var probes = (0..<10).map { _ in g.instant(plan.dayStart, plan.dayEnd) }
        for slot in ySlots + tSlots where slot.cutoff >= plan.dayStart && slot.cutoff < plan.dayEnd {
            probes += [slot.cutoff.addingTimeInterval(-1), slot.cutoff]
        }
        for e in yesterdayEvents + todayEvents where e.at >= plan.dayStart && e.at < plan.dayEnd { probes += [e.at.addingTimeInterval(-1), e.at] }
        for t in probes where t >= plan.dayStart && t < plan.dayEnd {
            let y = PropertyStreakTests.outcome(ySlots, events: yesterdayEvents, at: t)
            let through = y == .pending ? oracleStreak : y == .broken ? 0 : y == .complete ? oracleStreak + 1 : oracleStreak
            let now = PropertyStreakTests.outcome(tSlots, events: todayEvents, at: t)
            // Today: broken once a slot closed unresolved, even with others still to come.
            let broken = tSlots.contains { slot in
                let e = PropertyStatusTests.winner(slot.key, todayEvents)
                return (e.map { $0.at > t } ?? true) && t >= slot.cutoff
            }
            let complete = now == .complete
            let current = broken ? 0 : through + (complete ? 1 : 0)
            let best = max(oracleBest, through, current)
            let state: Snapshot.Streak.Today = broken ? .broken : tSlots.isEmpty || now == .neutral ? .none : complete ? .done : .pending
            let s = builder.snapshot(at: t, validUntil: t).streak
            #expect(s == Snapshot.Streak(current: current, best: best, today: state),
                    "at \(zone.local(t).iso8601): \(s), expected \(current)/\(best)/\(state) (yesterday \(y), before it \(oracleStreak)); \(Property.label(seed))")
            #expect(s.current <= completeDays + 2 && s.best >= s.current, "\(Property.label(seed))")
        }
    }
}
