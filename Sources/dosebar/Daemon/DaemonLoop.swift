import DoseCore
import Foundation

/// Why the daemon woke up. An event source returns every reason already queued at once.
enum DaemonWake: Hashable, Sendable {
    /// The planned instant came (a timeline entry, midnight, a snooze).
    case deadline
    /// The wall clock stepped, the machine resumed, or the time zone changed: plan again.
    case clockChanged
    /// Another process changed the database.
    case dataChanged
    /// SIGHUP: read the config again.
    case reloadConfig
    /// SIGTERM or SIGINT: leave cleanly.
    case stop
    /// SIGUSR1: say how many times the loop woke.
    case report
    /// The person chose an action in a notification.
    case answered(AlertAnswer)
}

/// Where the daemon's "now" comes from.
protocol DaemonClock: AnyObject {
    var now: Date { get }
    /// False for a fixed clock (`DOSEBAR_NOW`): then no timer is armed, only changes and signals wake the loop.
    var advances: Bool { get }
}

/// Blocks until something happens. The real one is epoll over timerfd, inotify and signalfd;
/// tests script one that advances a simulated clock.
protocol DaemonEventSource: AnyObject {
    /// Sleeps until `deadline` (nil: no deadline) or until something else happens, and returns every
    /// reason already queued. Never returns an empty array.
    func wait(until deadline: Date?) throws -> [DaemonWake]
}

/// Today as the daemon last computed it.
struct DaemonDay: Sendable {
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

    init(timeline: Timeline, slots: [PlannedSlot], changed: [String]) {
        entryInstants = timeline.entries.map(\.at.date)
        reloadAt = timeline.reloadAt.date
        self.slots = slots
        self.changed = changed
        offset = timeline.generatedAt.offset
    }
}

/// Everything the loop does to the outside world.
protocol DaemonHost: AnyObject {
    /// Recomputes today at `now` from the store and writes the files that changed.
    func refresh(now: Date) throws -> DaemonDay
    /// Reads the config again (SIGHUP).
    func reloadConfig() throws
    /// Pokes the bars after files changed.
    func nudgeBars(changed: [String])
    /// Atomically records the keys not yet recorded and returns those (so two daemons, or a restart,
    /// never announce one transition twice).
    func claimAlertKeys(_ keys: [String], now: Date) throws -> Set<String>
    /// Whether a key was recorded earlier.
    func alertKeyWasClaimed(_ key: String) throws -> Bool
    /// Shows a notification.
    func show(_ alert: DoseAlert, now: Date)
    /// Closes open notifications none of whose doses is still in `unresolved`.
    func withdrawAlerts(unresolved: Set<SlotKey>)
    /// Logs the doses of an answered notification as taken or skipped at `now`.
    func record(_ choice: AlertAnswer.Choice, slots: [SlotKey], now: Date) throws
    /// Tells the service manager (READY=1 once, then STATUS=…).
    func status(_ text: String, ready: Bool)
    /// The loop ends: close what is open, tell the service manager.
    func stopping()
    /// Prints a warning (refresh failures, busy database…); the loop goes on.
    func warn(_ text: String)
    /// Prints the loop's counters (SIGUSR1, and once at exit).
    func report(_ stats: DaemonStats)
}

/// What the loop counts, for tests and `SIGUSR1`.
struct DaemonStats: Hashable, Sendable {
    /// Returns from the event source (each is one sleep ended).
    var wakeups = 0
    /// Wake-ups by reason.
    var deadlines = 0, dataChanges = 0, clockChanges = 0, reloads = 0, answers = 0
    /// Recomputations of the day.
    var refreshes = 0
    /// Refreshes after which at least one file had changed.
    var writes = 0
    /// Notifications shown.
    var alerts = 0
    /// The instant the loop last planned to wake at.
    var nextWake: Date?

    var line: String {
        "wakeups=\(wakeups) deadlines=\(deadlines) data=\(dataChanges) clock=\(clockChanges) reloads=\(reloads) "
            + "answers=\(answers) refreshes=\(refreshes) writes=\(writes) alerts=\(alerts)"
            + (nextWake.map { " next=\(ISO8601.format($0, offset: 0, zulu: true))" } ?? "")
    }
}

/// The daemon: computes today, sleeps until the next instant anything can change, and repeats.
///
/// Pure decisions (when to wake, what to announce) with every effect behind `DaemonHost`, so a
/// test runs a whole simulated day in milliseconds. Runs on one thread; not `Sendable`.
final class DaemonLoop {
    let clock: DaemonClock
    let source: DaemonEventSource
    let host: DaemonHost
    /// Desktop notifications on (`--notify`).
    let notifying: Bool
    /// How long "Snooze" waits.
    let snoozeDelay: TimeInterval
    /// How long to wait before trying again after a failed refresh.
    let retryDelay: TimeInterval

    private(set) var stats = DaemonStats()
    private var day: DaemonDay?
    private var lastFailure: Date?
    /// Alerts put off by "Snooze", with when to show them again.
    private(set) var snoozed: [(at: Date, alert: DoseAlert)] = []

    init(clock: DaemonClock, source: DaemonEventSource, host: DaemonHost, notifying: Bool,
         snoozeDelay: TimeInterval = 600, retryDelay: TimeInterval = 30) {
        self.clock = clock; self.source = source; self.host = host; self.notifying = notifying
        self.snoozeDelay = snoozeDelay; self.retryDelay = retryDelay
    }

    /// Runs until a stop request; returns the counters.
    @discardableResult
    func run() throws -> DaemonStats {
        update()
        host.status(statusLine(), ready: true)
        while true {
            let deadline = nextWake(after: clock.now)
            stats.nextWake = deadline
            let wakes = try source.wait(until: deadline)
            stats.wakeups += 1
            var recompute = false
            for wake in wakes {
                switch wake {
                case .stop:
                    host.stopping()
                    return stats
                case .report:
                    host.report(stats)
                case .deadline:
                    stats.deadlines += 1; recompute = true
                case .dataChanged:
                    stats.dataChanges += 1; recompute = true
                case .clockChanged:
                    stats.clockChanges += 1; recompute = true
                case .reloadConfig:
                    stats.reloads += 1; recompute = true
                    do { try host.reloadConfig() } catch { host.warn("config not reloaded: \(describe(error))") }
                case .answered(let answer):
                    stats.answers += 1; recompute = true
                    answered(answer)
                }
            }
            if recompute {
                update()
                host.status(statusLine(), ready: false)
            }
        }
    }

    /// The first instant after `now` at which anything can change: the next timeline entry, the
    /// next midnight, a snoozed alert, or a retry after a failure. Nil with a fixed clock.
    func nextWake(after now: Date) -> Date? {
        guard clock.advances else { return nil }
        var candidates: [Date] = snoozed.map(\.at)
        if let day {
            if let next = day.entryInstants.first(where: { $0 > now }) { candidates.append(next) }
            candidates.append(day.reloadAt)
        }
        if day == nil || lastFailure != nil { candidates.append((lastFailure ?? now).addingTimeInterval(retryDelay)) }
        // Never in the past: an instant already gone would spin the loop.
        return candidates.filter { $0 > now }.min()
    }

    /// Recomputes the day, nudges bars when files changed, and shows the notifications owed.
    private func update() {
        let now = clock.now
        do {
            let fresh = try host.refresh(now: now)
            day = fresh
            lastFailure = nil
            stats.refreshes += 1
            if !fresh.changed.isEmpty {
                stats.writes += 1
                host.nudgeBars(changed: fresh.changed)
            }
        } catch {
            lastFailure = now
            host.warn("could not update the shared directory: \(describe(error))")
            return
        }
        if notifying { alert(now: now) }
    }

    private func alert(now: Date) {
        guard let day else { return }
        var unresolved: [SlotKey: SlotStatus] = [:]
        for slot in day.slots {
            let s = slot.status(at: now)
            if s == .due || s == .late || s == .upcoming { unresolved[slot.key] = s }
        }
        host.withdrawAlerts(unresolved: Set(unresolved.keys))
        do {
            // Snoozed alerts come back for the doses still open, as what they are now (due or late).
            var reminders: [DoseAlert] = []
            snoozed.removeAll { entry in
                guard entry.at <= now else { return false }
                var a = entry.alert
                a.doses = a.doses.filter { unresolved[$0.slot] == .due || unresolved[$0.slot] == .late }
                guard !a.doses.isEmpty else { return true }
                if a.doses.contains(where: { unresolved[$0.slot] == .late }) { a.kind = .late }
                a.reminder = true
                reminders.append(a)
                return true
            }
            for a in reminders {
                // A reminder that is now late also stands for the late notification.
                if a.kind == .late { _ = try host.claimAlertKeys(a.keys, now: now) }
                host.show(a, now: now)
                stats.alerts += 1
            }
            let owed = DoseAlert.owed(slots: day.slots, now: now) { key in (try? host.alertKeyWasClaimed(key)) ?? false }
            for var a in owed {
                let claimed = try host.claimAlertKeys(a.keys, now: now)
                a.doses = a.doses.filter { claimed.contains(DoseAlert.key(a.kind, $0.slot)) }
                guard !a.doses.isEmpty else { continue }
                host.show(a, now: now)
                stats.alerts += 1
            }
        } catch {
            host.warn("notifications: \(describe(error))")
        }
    }

    private func answered(_ answer: AlertAnswer) {
        let now = clock.now
        switch answer.choice {
        case .snooze:
            snoozed.append((at: now.addingTimeInterval(snoozeDelay), alert: answer.alert))
        case .taken, .skip:
            do { try host.record(answer.choice, slots: answer.alert.slots, now: now) }
            catch { host.warn("could not log '\(answer.choice.rawValue)' from the notification: \(describe(error))") }
        }
    }

    private func statusLine() -> String {
        guard let day else { return "waiting: the shared directory could not be written" }
        let next = nextWake(after: clock.now) ?? day.reloadAt
        return "\(day.slots.count) dose(s) today; next update \(ISO8601.format(next, offset: day.offset))"
    }

    private func describe(_ error: Error) -> String {
        (error as? DosebarError)?.description ?? "\(error)"
    }
}
