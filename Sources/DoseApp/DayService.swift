import DoseCore
import DoseStore
import Foundation

/// Loads what a day needs from the store and turns it into snapshots and timelines:
/// brings the per-day summaries up to yesterday (so streaks cost nothing per day of history),
/// then hands medicines, today's events and recent summaries to DoseCore.
public struct DayService {
    public let store: DoseStore
    public let context: AppContext

    public init(store: DoseStore, context: AppContext) {
        self.store = store; self.context = context
    }

    /// Everything DoseCore needs for `date` (normally today).
    public struct Day: Sendable {
        public var medications: [Medication]
        public var plan: DayPlan
        public var history: History
    }

    /// Loads the day, first summarising any finished days not yet summarised.
    public func load(_ date: LocalDate? = nil) throws -> Day {
        let date = date ?? context.today
        let zone = context.zone
        // One read transaction for the usual case; summaries pending (a new day, a change in the past) cost a write and a re-read.
        var (medications, last, events, recent) = try store.read { r in
            (try r.medications(includeArchived: true), try r.lastSummary(), try r.events(days: date.adding(days: -1)...date),
             try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)))
        }
        let firstDay = medications.flatMap { $0.versions.map { min($0.effective, $0.schedule.start) } }.min()
        if History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) != nil {
            try store.write { w in
                // Re-read inside the write transaction: another process may have just done this.
                let last = try w.reader.lastSummary()
                guard let range = History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) else { return }
                try w.saveSummaries(History.summaries(of: range, medications: medications, events: try w.reader.events(days: range),
                                                      zone: zone, after: last))
            }
            (medications, events, recent) = try store.read { r in
                (try r.medications(includeArchived: true), try r.events(days: date.adding(days: -1)...date),
                 try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)))
            }
        }
        let plan = DayPlan(date: date, medications: medications, events: events, zone: zone)
        return Day(medications: medications, plan: plan, history: History(today: date, recent: recent))
    }

    /// The snapshot builder for a loaded day, in the user's language and icons.
    public func builder(_ day: Day) -> SnapshotBuilder {
        SnapshotBuilder(plan: day.plan, history: day.history, medications: day.medications,
                        catalog: context.catalog, icons: context.config.icons)
    }

    /// Today's whole timeline.
    public func timeline() throws -> Timeline {
        TimelineProvider(builder: builder(try load())).timeline(generatedAt: context.now)
    }
}
