import DoseCore
import Foundation

/// Everything the loop does to the outside world.
protocol DaemonHost: AnyObject {
    /// Recomputes today at `now` from the store and writes the files that changed.
    func refresh(now: Date) throws -> DaemonDay
    /// Reads the config again (SIGHUP).
    func reloadConfig() throws
    /// Pokes the bars after files changed.
    func nudgeBars(changed: [String])
    /// The notifications state a previous daemon left (empty when none).
    func loadNotifications() throws -> NotifyState
    /// Stores the notifications state and records `keys` as announced, in one transaction (so a
    /// restart never announces one transition twice, and finds what is on screen and snoozed).
    func saveNotifications(_ state: NotifyState, claiming keys: [String], now: Date) throws
    /// Whether a key was recorded earlier.
    func alertKeyWasClaimed(_ key: String) throws -> Bool
    /// Asks the notification server to show `alert` (in place of the notification `replacing` when
    /// given); the outcome comes back as a `.sent` or `.notSent` wake.
    func show(_ alert: DoseAlert, replacing: UInt32?, now: Date)
    /// Ends the process a previous daemon left waiting for the answer to `previous`, closing the
    /// notification too when `close`, else leaving it on screen to be taken over.
    func release(_ previous: NotifyState.Open, close: Bool)
    /// Closes open notifications none of whose doses is still in `unresolved` (a double dose's: in
    /// `doubles`, the slots taken on two devices not confirmed yet).
    func withdrawAlerts(unresolved: Set<SlotKey>, doubles: Set<SlotKey>)
    /// Logs the doses of an answered notification as taken or skipped at `now` (`confirm`: confirms
    /// the double doses of those slots).
    func record(_ choice: AlertAnswer.Choice, slots: [SlotKey], now: Date) throws
    /// Whether clicks get feedback (config `[notify] clicks`, default true).
    var confirmsClicks: Bool { get }
    /// Minutes after which an unanswered reminder comes again, for the medicines with no `--repeat`
    /// of their own (config `[notify] repeat`, default nil: never).
    var repeatDefault: Int? { get }
    /// The id of the newest event (where confirmations start from when none was looked at yet).
    func lastEventID() throws -> Int64
    /// The takes in force recorded without a terminal after the event `id`, in the order written.
    func clickTakes(after id: Int64) throws -> [ClickTake]
    /// Reverts exactly `events` (Undo on a click's confirmation) at `now`.
    func undo(events: [Int64], now: Date) throws
    /// Takes what a click that recorded nothing left (its refusal), if it is fresh at `now`; the record is removed.
    func takeClickRefusal(now: Date) -> String?
    /// Tells the service manager (READY=1 once, then STATUS=…).
    func status(_ text: String, ready: Bool)
    /// The loop ends: close what is open, tell the service manager.
    func stopping()
    /// Prints a warning (refresh failures, busy database…); the loop goes on.
    func warn(_ text: String)
    /// Prints the loop's counters (SIGUSR1, and once at exit).
    func report(_ stats: DaemonStats)
}

/// Today as the daemon last computed it.
struct DaemonDay: Sendable {
    /// This day with the double doses `doubles`.
    func withDoubles(_ doubles: [DoseAlert]) -> DaemonDay {
        var day = self
        day.doubles = doubles
        return day
    }

    /// Instants at which the files must be rewritten (timeline entries after the first) and `reload_at`.
    var entryInstants: [Date]
    var reloadAt: Date
    /// Today's slots, to decide notifications.
    var slots: [PlannedSlot]
    /// Files of the shared directory that changed since the previous refresh, whoever wrote them
    /// (empty: nothing changed, no bar needs a nudge).
    var changed: [String]
    /// The local UTC offset when it was computed (for status lines).
    var offset: Int
    /// Slots taken on two devices not confirmed yet, as `double` alerts (any day: until confirmed or undone).
    var doubles: [DoseAlert] = []
    /// The medicines whose next dose a recent change of zone moved, each with its message and when
    /// that dose was resolved (``TravelGap``).
    var travelGaps: [(gap: TravelGap, text: String, resolvedAt: Date?)] = []

    init(timeline: Timeline, slots: [PlannedSlot], changed: [String]) {
        entryInstants = timeline.entries.map(\.at.date)
        reloadAt = timeline.reloadAt.date
        self.slots = slots
        self.changed = changed
        offset = timeline.generatedAt.offset
    }
}
