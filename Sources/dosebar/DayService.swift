import DoseCore
import DoseStore
import Foundation

/// Loads what a day needs from the store and turns it into snapshots and timelines:
/// brings the per-day summaries up to yesterday (so streaks cost nothing per day of history),
/// then hands medicines, today's events and recent summaries to DoseCore.
struct DayService {
    let store: DoseStore
    let context: AppContext

    /// Everything DoseCore needs for `date` (normally today).
    struct Day {
        var medications: [Medication]
        var plan: DayPlan
        var history: History
    }

    /// Loads the day, first summarising any finished days not yet summarised.
    func load(_ date: LocalDate? = nil) throws -> Day {
        let date = date ?? context.today
        let zone = context.zone
        // One read transaction for the usual case; summaries pending (a new day, a change in the past) cost a write and a re-read.
        var (medications, last, events, recent) = try store.read { r in
            (try r.medications(includeArchived: true), try r.lastSummary(), try r.events(days: date...date),
             try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)))
        }
        let firstDay = medications.flatMap { $0.versions.map { min($0.effective, $0.schedule.start) } }.min()
        if History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) != nil {
            try store.write { w in
                // Re-read inside the write transaction: another process may have just done this.
                let last = try w.lastSummary()
                guard let range = History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) else { return }
                let events = try w.events(days: range)
                var byDay: [LocalDate: [DoseEvent]] = [:]
                for e in events { byDay[e.slot?.date ?? zone.date(of: e.at), default: []].append(e) }
                var previous = last
                var out: [DaySummary] = []
                var d = range.lowerBound
                while d <= range.upperBound {
                    let s = DayPlan(date: d, medications: medications, events: byDay[d] ?? [], zone: zone).summary(after: previous)
                    out.append(s)
                    previous = s
                    d = d.adding(days: 1)
                }
                try w.saveSummaries(out)
            }
            (medications, events, recent) = try store.read { r in
                (try r.medications(includeArchived: true), try r.events(days: date...date),
                 try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)))
            }
        }
        let plan = DayPlan(date: date, medications: medications, events: events, zone: zone)
        return Day(medications: medications, plan: plan, history: History(today: date, recent: recent))
    }

    /// The snapshot builder for a loaded day, in the user's language and icons.
    func builder(_ day: Day) -> SnapshotBuilder {
        SnapshotBuilder(plan: day.plan, history: day.history, medications: day.medications,
                        catalog: context.catalog, icons: context.config.icons)
    }

    /// Today's whole timeline.
    func timeline() throws -> Timeline {
        TimelineProvider(builder: builder(try load())).timeline(generatedAt: context.now)
    }
}
