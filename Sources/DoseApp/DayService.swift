import DoseCore
import DoseStore
import Foundation

/// Loads what a day needs from the store and turns it into snapshots and timelines:
/// brings the per-day summaries up to yesterday (so streaks cost nothing per day of history),
/// then hands medicines, today's events and recent summaries to DoseCore.
public struct DayService {
    public let store: DoseStore
    public let context: AppContext
    /// Counts the days summarised when there are many (the first export after an import or a sync).
    public let progress: WorkProgress

    public init(store: DoseStore, context: AppContext, progress: WorkProgress = .silent) {
        self.store = store; self.context = context; self.progress = progress
    }

    /// Days summarised between two steps of ``progress`` (one read of their events each).
    static let summaryChunk = 366

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
                // A year at a time, each chained onto the one before: the same summaries as in one go.
                let total = range.upperBound.dayNumber - range.lowerBound.dayNumber + 1
                progress.begin(.days, total: total)
                defer { progress.end() }
                var previous = last, start = range.lowerBound, done = 0
                while start <= range.upperBound {
                    let end = min(start.adding(days: Self.summaryChunk - 1), range.upperBound)
                    let chunk = History.summaries(of: start...end, medications: medications, events: try w.reader.events(days: start...end),
                                                  zone: zone, after: previous)
                    try w.saveSummaries(chunk)
                    previous = chunk.last ?? previous
                    done += end.dayNumber - start.dayNumber + 1
                    progress.step(done)
                    start = end.adding(days: 1)
                }
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
