import DoseCore
import Foundation

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

    /// Withdraws notifications whose doses got resolved, shows snoozed ones that are due again,
    /// then every transition not announced yet.
    private func alert(now: Date) {
        guard let day else { return }
        var unresolved: [SlotKey: SlotStatus] = [:]
        for slot in day.slots {
            let s = slot.status(at: now)
            if s == .due || s == .late || s == .upcoming { unresolved[slot.key] = s }
        }
        host.withdrawAlerts(unresolved: Set(unresolved.keys))
        do {
            try showReminders(now: now, unresolved: unresolved)
            try showOwed(day, now: now)
        } catch {
            host.warn("notifications: \(describe(error))")
        }
    }

    /// Snoozed alerts come back for the doses still open, as what they are now (due or late).
    private func showReminders(now: Date, unresolved: [SlotKey: SlotStatus]) throws {
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
    }

    /// The transitions owed now that no notification announced yet (claimed first, so two
    /// daemons or a restart never announce one twice).
    private func showOwed(_ day: DaemonDay, now: Date) throws {
        let owed = DoseAlert.owed(slots: day.slots, now: now) { key in (try? host.alertKeyWasClaimed(key)) ?? false }
        for var a in owed {
            let claimed = try host.claimAlertKeys(a.keys, now: now)
            a.doses = a.doses.filter { claimed.contains(DoseAlert.key(a.kind, $0.slot)) }
            guard !a.doses.isEmpty else { continue }
            host.show(a, now: now)
            stats.alerts += 1
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
