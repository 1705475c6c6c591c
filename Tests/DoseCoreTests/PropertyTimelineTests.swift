import DoseCore
import Foundation
import Testing

/// Properties of the timeline (DESIGN §4): every entry is the snapshot a fresh computation gives at
/// its instant, and nothing a bar shows changes between two entries.
@Suite struct PropertyTimelineTests {
    /// What a bar shows, apart from the minute count of lateness (which ticks every minute by design).
    struct Shown: Equatable, CustomStringConvertible {
        var state: DayState
        var counts: Snapshot.Counts
        var doses: [String]
        var next: Snapshot.Next?
        var streak: Snapshot.Streak
        var asNeeded: [Snapshot.AsNeeded]
        var messages: [String]

        init(_ s: Snapshot) {
            state = s.state; counts = s.counts; next = s.next; streak = s.streak; asNeeded = s.asNeeded
            doses = s.doses.map { "\($0.medicationID)@\($0.scheduled.iso8601)=\($0.status.rawValue)" }
            messages = s.messages.map(\.id)
        }

        var description: String { "\(state) \(doses) \(messages) next=\(next.map { "\($0.medication)@\($0.scheduled.iso8601)" } ?? "-")" }
    }

    static func history(_ g: inout Gen, _ day: LocalDate) -> History {
        var recent: [DaySummary] = []
        var streak = 0, best = 0
        for back in stride(from: 29, through: 1, by: -1) where g.rng.chance(0.8) {
            let total = g.rng.int(0...4), missed = g.rng.chance(0.2) ? g.rng.int(0...total) : 0
            let taken = total - missed
            streak = missed > 0 ? 0 : streak + (taken > 0 ? 1 : 0)
            best = max(best, streak)
            recent.append(DaySummary(date: day.adding(days: -back), total: total, taken: taken, onTime: taken,
                                     skipped: 0, missed: missed, streak: streak, best: best,
                                     troubled: missed > 0 ? ["1@08:00"] : []))
        }
        return History(today: day, recent: recent)
    }

    @Test(arguments: Property.seeds(120, salt: 10))
    func everyEntryIsAFreshSnapshotAtItsInstant(seed: UInt64) {
        var g = Gen(seed: seed)
        let w = g.world(seed: seed, scheduled: false) // every entry of any day is checked; slot-less days (rest, none) too
        let history = PropertyTimelineTests.history(&g, w.day)
        let catalog = g.rng.chance(0.5) ? Catalog.english : Catalog.korean
        let provider = TimelineProvider(builder: SnapshotBuilder(plan: w.plan, history: history, medications: w.medications, catalog: catalog))
        let timeline = provider.timeline(generatedAt: w.zone.startOfDay(w.day))
        let entries = timeline.entries
        // A command shares the entries out between two workers: the same timeline, whichever part runs first.
        #expect(provider.timeline(generatedAt: w.zone.startOfDay(w.day), workers: LastPartFirst()) == timeline,
                "the timeline computed in two parts differs; \(Property.label(seed))")
        guard !entries.isEmpty else { Issue.record("empty timeline; \(Property.label(seed))"); return }
        let dayStart = Oracle.startOfDay(w.day, w.zone), dayEnd = Oracle.endOfDay(w.day, w.zone)
        #expect(entries.first!.at.date == dayStart, "first entry at midnight; \(Property.label(seed))")
        #expect(entries.last!.validUntil.date == dayEnd, "last entry valid until the next midnight; \(Property.label(seed))")
        #expect(timeline.reloadAt.date == dayEnd, "\(Property.label(seed))")
        for (a, b) in zip(entries, entries.dropFirst()) {
            #expect(a.at.date < b.at.date && a.validUntil.date == b.at.date, "entries sorted and contiguous; \(Property.label(seed))")
        }
        // Every local hour is an entry.
        let hourSet = Set(entries.map(\.at.date))
        // So is the cut-off of every slot listed at some instant of the day, yesterday's (carried) included
        // (DESIGN §4), when it falls within the day: by the oracle's C.
        let active = w.medications.filter { $0.archivedOn.map { $0 > w.day } ?? true }
        for slot in Oracle.slots(active, on: w.day.adding(days: -1), w.zone, events: w.allEvents) + Oracle.slots(w.medications, on: w.day, w.zone, events: w.allEvents)
        where slot.tracked && slot.cutoff >= dayStart && slot.cutoff < dayEnd
            && (PropertyStatusTests.winner(slot.key, w.allEvents).map { $0.at >= slot.cutoff } ?? true) {
            #expect(hourSet.contains(slot.cutoff), "no entry at the cut-off of \(slot); \(Property.label(seed))")
        }
        var t = dayStart
        while t < dayEnd {
            if Oracle.wall(t, w.zone) % 3600 == 0 { #expect(hourSet.contains(t), "hour \(w.zone.local(t).iso8601) has no entry; \(Property.label(seed))") }
            t = t.addingTimeInterval(60)
        }
        // Each entry equals a snapshot built from scratch at its instant: the entry in force when
        // the timeline was generated complete, the others without tooltip and later messages.
        let generatedAt = w.zone.startOfDay(w.day)
        for e in entries {
            let inForce = e.at.date <= generatedAt && generatedAt < e.validUntil.date
            let fresh = SnapshotBuilder(plan: DayPlan(date: w.day, medications: w.medications, events: w.allEvents, zone: w.zone),
                                        history: history, medications: w.medications, catalog: catalog)
                .snapshot(at: e.at.date, validUntil: e.validUntil.date)
            var light = fresh
            light.tooltip = ""
            light.messages = [fresh.message]
            guard e == (inForce ? fresh : light) else {
                Issue.record("entry at \(e.at.iso8601) differs from a fresh snapshot; \(Property.label(seed))")
                return
            }
            #expect(provider.snapshot(at: e.at.date) == fresh, "snapshot(at:) at an entry instant; \(Property.label(seed))")
        }
        #expect(entries.filter { !$0.tooltip.isEmpty }.count == 1, "exactly the entry in force is complete; \(Property.label(seed))")
        // Between two entries nothing a bar shows changes: probe random instants inside each interval.
        let builder = provider.builder
        for e in entries {
            // (The entry as a bar in force would show it: complete, with every message.)
            let shown = Shown(builder.snapshot(at: e.at.date, validUntil: e.validUntil.date))
            for _ in 0..<3 {
                let probe = g.instant(e.at.date, e.validUntil.date)
                let s = builder.snapshot(at: probe, validUntil: e.validUntil.date)
                if Shown(s) != shown {
                    Issue.record("""
                        \(w.zone.identifier) \(w.day): entry \(e.at.iso8601)…\(e.validUntil.iso8601) shows \(shown)
                        but at \(w.zone.local(probe).iso8601) it is \(Shown(s)); \(Property.label(seed))
                        """)
                    return
                }
            }
        }
    }
}

/// Two workers that run the parts from the last to the first: a result put in the wrong place shows.
struct LastPartFirst: Workers {
    var width: Int { 2 }

    func map<T>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        (0..<parts).reversed().map { body($0) }.reversed()
    }
}
