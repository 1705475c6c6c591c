import DoseCore
import DoseRuntime
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
    /// A command summarises a year on another thread while it reads the next year's events.
    public let bulk: BulkWork

    public init(store: DoseStore, context: AppContext, progress: WorkProgress = .silent, bulk: BulkWork = .command) {
        self.store = store; self.context = context; self.progress = progress; self.bulk = bulk
    }

    /// Days summarised between two steps of ``progress`` (one read of their events each).
    static let summaryChunk = 366

    /// Years a command summarises at once besides the one whose events it reads: one left summarising
    /// alone while the next year's events were read (and the reading waiting for it) kept the two cores
    /// half idle.
    static let yearsAtOnce = 2

    /// Everything DoseCore needs for `date` (normally today).
    public struct Day: Sendable {
        public var medications: [Medication]
        public var plan: DayPlan
        public var history: History
        /// Slots taken on two devices, confirmed or not (DESIGN §10): the bar warns of those not confirmed.
        public var doubleDoses: [DoubleDose] = []
    }

    /// Loads the day, first summarising any finished days not yet summarised.
    public func load(_ date: LocalDate? = nil) throws -> Day {
        let date = date ?? context.today
        let zone = context.zone
        // One read transaction for the usual case; summaries pending (a new day, a change in the past) cost a write and a re-read.
        var (medications, last, events, recent, doubles) = try read(date)
        let firstDay = medications.flatMap { $0.versions.map { min($0.effective, $0.schedule.start) } }.min()
        if let pending = History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) {
            let kept: Void? = try store.writeIfWritable { w in
                // Re-read inside the write transaction: another process may have just done this.
                let last = try w.reader.lastSummary()
                guard let range = History.pendingDays(lastSummarised: last?.date, firstDay: firstDay, today: date) else { return }
                // A year at a time, each chained onto the one before: the same summaries as in one go.
                // A command summarises years on other threads while this one reads the next years'
                // events (each took half of the first export after another device's 20 years): a
                // day's counts need nothing of the day before, its streak is chained here after.
                let total = range.upperBound.dayNumber - range.lowerBound.dayNumber + 1
                progress.begin(.days, total: total)
                defer { progress.end() }
                let years = stride(from: range.lowerBound.dayNumber, through: range.upperBound.dayNumber, by: Self.summaryChunk).map {
                    LocalDate(dayNumber: $0)...LocalDate(dayNumber: min($0 + Self.summaryChunk - 1, range.upperBound.dayNumber))
                }
                let summarise: @Sendable (ClosedRange<LocalDate>, [DoseEvent]) -> [DaySummary] = { [medications] days, events in
                    History.summaries(of: days, medications: medications, events: events, zone: zone, after: nil)
                }
                var previous = last, done = 0
                func save(_ days: ClosedRange<LocalDate>, _ summaries: [DaySummary]) throws {
                    var chunk = summaries
                    for i in chunk.indices { chunk[i].chain(after: i == 0 ? previous : chunk[i - 1]) }
                    try w.saveSummaries(chunk)
                    previous = chunk.last ?? previous
                    done += days.upperBound.dayNumber - days.lowerBound.dayNumber + 1
                    progress.step(done)
                }
                var summarising: [(days: ClosedRange<LocalDate>, summaries: Parallel.Background<[DaySummary]>)] = []
                for days in years {
                    let events = try w.reader.events(days: DayPlan.eventDays(days, medications: medications))
                    guard bulk.concurrent else {
                        try save(days, summarise(days, events))
                        continue
                    }
                    summarising.append((days, Parallel.Background { summarise(days, events) }))
                    if summarising.count > Self.yearsAtOnce {
                        let oldest = summarising.removeFirst()
                        try save(oldest.days, oldest.summaries.take())
                    }
                }
                for year in summarising { try save(year.days, year.summaries.take()) }
            }
            guard kept != nil else {
                // A read-only or busy database: the summaries are computed and not kept.
                recent = try unkeptSummaries(pending, after: last, medications: medications, recent: recent, today: date)
                let plan = DayPlan(date: date, medications: medications, events: events, zone: zone)
                return Day(medications: medications, plan: plan, history: History(today: date, recent: recent), doubleDoses: doubles)
            }
            (medications, events, recent, doubles) = try store.read { r in
                let medications = try r.medications(includeArchived: true)
                return (medications, try r.events(days: DayPlan.eventDays(date.adding(days: -1)...date, medications: medications)),
                        try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)),
                        try DoubleDoseService.read(r, medications: medications))
            }
        }
        let plan = DayPlan(date: date, medications: medications, events: events, zone: zone)
        return Day(medications: medications, plan: plan, history: History(today: date, recent: recent), doubleDoses: doubles)
    }

    /// The 29 days' summaries before `today` when the pending ones cannot be kept: those stored,
    /// then the pending days computed here and chained onto the last stored one, as a kept
    /// summary would be.
    private func unkeptSummaries(_ pending: ClosedRange<LocalDate>, after last: DaySummary?, medications: [Medication],
                                 recent: [DaySummary], today: LocalDate) throws -> [DaySummary] {
        let events = try store.read { r in try r.events(days: DayPlan.eventDays(pending, medications: medications)) }
        var computed = History.summaries(of: pending, medications: medications, events: events, zone: context.zone, after: nil)
        for i in computed.indices { computed[i].chain(after: i == 0 ? last : computed[i - 1]) }
        let window = today.adding(days: -29)
        return recent.filter { $0.date < pending.lowerBound } + computed.filter { $0.date >= window && $0.date < today }
    }

    /// What ``load(_:)`` reads first, in one read transaction: the medicines, the last summary,
    /// the events of `date` and the day before, the summaries of the 29 days before, the double doses.
    private func read(_ date: LocalDate) throws -> ([Medication], DaySummary?, [DoseEvent], [DaySummary], [DoubleDose]) {
        try store.read { r in
            let medications = try r.medications(includeArchived: true)
            return (medications, try r.lastSummary(), try r.events(days: DayPlan.eventDays(date.adding(days: -1)...date, medications: medications)),
                    try r.summaries(from: date.adding(days: -29), through: date.adding(days: -1)),
                    try DoubleDoseService.read(r, medications: medications))
        }
    }

    /// Reads what ``load(_:)`` reads for today and keeps nothing, writing nothing: the statements are
    /// prepared and the pages are in the connection's cache when the command reads them
    /// (``HeadStart``, while the command line is parsed).
    public func readAhead() {
        _ = try? read(context.today)
    }

    /// The snapshot builder for a loaded day, in the user's language and icons.
    public func builder(_ day: Day) -> SnapshotBuilder {
        SnapshotBuilder(plan: day.plan, history: day.history, medications: day.medications,
                        catalog: context.catalog, icons: context.config.icons, doubleDoses: day.doubleDoses)
    }

    /// Today's whole timeline.
    public func timeline() throws -> Timeline {
        TimelineProvider(builder: builder(try load())).timeline(generatedAt: context.now)
    }
}
