import DoseCore
import Foundation
import Testing

/// Properties of the streak (DESIGN §3 Streak) over random histories of up to three months.
@Suite struct PropertyStreakTests {
    /// How a finished day counts, judged from the events the generator chose (not from DoseCore's
    /// summary): complete, broken (a slot with no event = missed), or neutral.
    enum Outcome { case complete, broken, neutral }

    static func outcome(slots: [SlotKey], events: [DoseEvent]) -> Outcome {
        var taken = 0, skipped = 0, missed = 0
        for key in slots {
            switch PropertyStatusTests.winner(key, events)?.kind {
            case .taken?: taken += 1
            case .skipped?: skipped += 1
            default: missed += 1
            }
        }
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
        // Days mostly diligent so long streaks happen; sometimes sloppy.
        let diligence = g.rng.pick([0.97, 0.9, 0.7, 0.4])
        var previous: DaySummary?
        var summaries: [DaySummary] = []
        var oracleStreak = 0, oracleBest = 0, completeDays = 0, daysWithSlots = 0
        var d = first
        while d < last {
            let empty = DayPlan(date: d, medications: meds, events: [], zone: zone)
            var events: [DoseEvent] = []
            let allSkip = g.rng.chance(0.05)
            for slot in empty.slots where g.rng.chance(diligence) {
                let kind: DoseEvent.Kind = allSkip || g.rng.chance(0.08) ? .skipped : .taken
                events.append(g.event(slot.key.medicationID, kind, slot: slot.key,
                                      at: g.instant(empty.dayStart, empty.dayEnd)))
            }
            let plan = DayPlan(date: d, medications: meds, events: events, zone: zone)
            let s = plan.summary(after: previous)
            if !plan.slots.isEmpty { daysWithSlots += 1 }
            switch PropertyStreakTests.outcome(slots: plan.slots.map(\.key), events: events) {
            case .complete: oracleStreak += 1; completeDays += 1
            case .broken: oracleStreak = 0
            case .neutral: break
            }
            oracleBest = max(oracleBest, oracleStreak)
            #expect(s.streak == oracleStreak && s.best == oracleBest,
                    "\(d): streak \(s.streak)/best \(s.best), expected \(oracleStreak)/\(oracleBest); \(Property.label(seed))")
            #expect(s.streak <= completeDays && s.best <= completeDays && s.streak <= s.best,
                    "\(d): streak \(s.streak), best \(s.best), complete days so far \(completeDays); \(Property.label(seed))")
            summaries.append(s)
            previous = s
            d = d.adding(days: 1)
        }
        #expect(daysWithSlots > 0 && summaries.count == length, "\(daysWithSlots) of \(summaries.count) days had slots; \(Property.label(seed))")
        // Today, at any instant: current ≤ complete days (today's included once complete), best ≥ current.
        let today = last
        let empty = DayPlan(date: today, medications: meds, events: [], zone: zone)
        let events = g.events(for: empty, resolveProbability: diligence)
        let plan = DayPlan(date: today, medications: meds, events: events, zone: zone)
        let builder = SnapshotBuilder(plan: plan, history: History(today: today, recent: summaries), medications: meds)
        let todayComplete = PropertyStreakTests.outcome(slots: plan.slots.map(\.key), events: events) == .complete
        for _ in 0..<10 {
            let t = g.instant(plan.dayStart, plan.dayEnd)
            let s = builder.snapshot(at: t, validUntil: t).streak
            #expect(s.current <= completeDays + (todayComplete ? 1 : 0) && s.best >= s.current,
                    "at \(zone.local(t).iso8601): \(s), complete days \(completeDays); \(Property.label(seed))")
            // Today never lowers the streak carried from yesterday unless it is broken (a missed slot).
            if s.today != .broken { #expect(s.current >= oracleStreak, "\(s) vs yesterday's \(oracleStreak); \(Property.label(seed))") }
            if s.today == .done { #expect(s.current == oracleStreak + 1, "\(Property.label(seed))") }
        }
    }
}
