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

    /// How long to wait before showing again what no notification server took (only while
    /// something is owed: with nothing pending there is no such wake-up).
    let notifyRetryDelay: TimeInterval

    /// How long after it was written a click's take is still confirmed: a daemon started later
    /// (or a server that appears later) says nothing of it.
    static let clickFreshness: TimeInterval = 600

    private(set) var stats = DaemonStats()
    private var day: DaemonDay?
    private var lastFailure: Date?
    /// What is on screen and snoozed, as stored for the next daemon (snoozes being shown excepted:
    /// those are in `inFlight` until the server takes them).
    private var notes = NotifyState()
    /// The stored form of the state last written (nil before the first load).
    private var savedNotes: String?
    /// Notifications asked for and not yet accepted or refused by the server.
    private var inFlight: [InFlight] = []
    /// Notifications of a previous daemon still to be shown again by this one (their actions
    /// reached the old process only), by id.
    private var toTakeOver: Set<UInt32> = []
    /// When to show again what the server did not take; nil when nothing is pending.
    private(set) var notifyRetryAt: Date?

    /// A notification on its way to the server.
    private struct InFlight {
        var alert: DoseAlert
        /// The snooze it comes from, kept (and stored) until the reminder is shown.
        var snoozed: NotifyState.Snoozed?
        /// The notification it takes over.
        var replacing: UInt32?
    }

    /// Alerts put off by "Snooze", with when to show them again.
    var snoozed: [NotifyState.Snoozed] { notes.snoozed + inFlight.compactMap(\.snoozed) }

    init(clock: DaemonClock, source: DaemonEventSource, host: DaemonHost, notifying: Bool,
         snoozeDelay: TimeInterval = 600, retryDelay: TimeInterval = 30, notifyRetryDelay: TimeInterval = 60) {
        self.clock = clock; self.source = source; self.host = host; self.notifying = notifying
        self.snoozeDelay = snoozeDelay; self.retryDelay = retryDelay; self.notifyRetryDelay = notifyRetryDelay
    }

    /// Runs until a stop request; returns the counters.
    @discardableResult
    func run() throws -> DaemonStats {
        if notifying { loadNotes() }
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
                    // Stopping closes every notification this process showed: none is left to take over.
                    // A repeating reminder goes on with the next daemon: its next repeat is kept as a snooze's end is.
                    if notifying {
                        notes.snoozed += notes.open.compactMap { o in o.repeatAt.map { NotifyState.Snoozed(at: $0, alert: o.alert) } }
                        notes.open.removeAll()
                        saveNotes()
                    }
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
                case .sent(let alert, let id, let helper):
                    sent(alert, id: id, helper: helper)
                case .notSent(let alert):
                    notSent(alert)
                case .closed(let alert, let id):
                    closed(alert, id: id)
                case .clickRefused:
                    // Read (and removed) whatever happens: a notice nobody shows is not kept.
                    let refusal = host.takeClickRefusal(now: clock.now)
                    if notifying, host.confirmsClicks, let refusal {
                        ask(InFlight(alert: DoseAlert(kind: .nothing, scheduled: clock.now, doses: [], note: refusal)), now: clock.now)
                        saveNotes()
                    }
                }
            }
            if recompute {
                update()
                host.status(statusLine(), ready: false)
            }
        }
    }

    /// The first instant after `now` at which anything can change: the next timeline entry, the
    /// next midnight, a snoozed alert, or a retry after a failure (of a refresh, or of a notification
    /// no server took). Nil with a fixed clock.
    func nextWake(after now: Date) -> Date? {
        guard clock.advances else { return nil }
        var candidates: [Date] = notes.snoozed.map(\.at) + notes.open.compactMap(\.repeatAt) + [notifyRetryAt].compactMap { $0 }
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

    /// Withdraws notifications whose doses got resolved, takes over those a previous daemon left
    /// on screen, shows snoozed ones that are due again, then every transition not announced yet.
    private func alert(now: Date) {
        guard let day else { return }
        var unresolved: [SlotKey: SlotStatus] = [:]
        for slot in day.slots {
            let s = slot.status(at: now)
            if s == .due || s == .late || s == .upcoming { unresolved[slot.key] = s }
        }
        // A double dose's slot is taken: its notification stays while the double dose does.
        let doubleSlots = Set(day.doubles.flatMap(\.slots))
        host.withdrawAlerts(unresolved: Set(unresolved.keys), doubles: doubleSlots)
        // Everything pending is tried now; a refusal plans the next try.
        notifyRetryAt = nil
        takeOver(unresolved: unresolved, doubles: doubleSlots, now: now)
        repeatUnanswered(now: now, unresolved: unresolved)
        showReminders(now: now, unresolved: unresolved)
        showOwed(day, now: now)
        confirmClicks(now: now)
        saveNotes()
    }

    /// Confirms the doses recorded without a terminal since the last look (DESIGN §2): one
    /// notification per command, naming its doses, with an Undo of exactly those events. Each
    /// event is confirmed once (its `took:<id>` key is claimed when the server takes the
    /// notification); what no server took is tried again while it is fresh.
    private func confirmClicks(now: Date) {
        guard host.confirmsClicks else { return }
        do {
            guard let seen = notes.clicksSeen else {
                notes.clicksSeen = try host.lastEventID()
                return
            }
            let takes = try host.clickTakes(after: seen)
            guard !takes.isEmpty else { return }
            let pending = Set(inFlight.flatMap(\.alert.keys))
            func claimed(_ key: String) -> Bool { (try? host.alertKeyWasClaimed(key)) ?? false }
            let fresh = takes.filter { now.timeIntervalSince($0.loggedAt) < Self.clickFreshness }
            for a in DoseAlert.confirmations(fresh, alreadySent: { pending.contains($0) || claimed($0) }) {
                ask(InFlight(alert: a), now: now)
            }
            // Looked at for good: the takes up to the first one still owed its confirmation.
            var last = seen
            for t in takes {
                guard now.timeIntervalSince(t.loggedAt) >= Self.clickFreshness || claimed("took:\(t.event)") else { break }
                last = t.event
            }
            notes.clicksSeen = last
        } catch {
            host.warn("notifications: clicks not confirmed: \(describe(error))")
        }
    }

    /// The doses of `alert` still open, as what they are now (a due dose may have turned late); nil when none is.
    private func stillOpen(_ alert: DoseAlert, _ unresolved: [SlotKey: SlotStatus]) -> DoseAlert? {
        var a = alert
        a.doses = a.doses.filter { unresolved[$0.slot] == .due || unresolved[$0.slot] == .late }
        guard !a.doses.isEmpty else { return nil }
        if a.doses.contains(where: { unresolved[$0.slot] == .late }) { a.kind = .late }
        return a
    }

    /// A previous daemon's notifications still naming open doses are sent again in their place
    /// (same id: the server replaces what is still on screen), so that their actions reach this
    /// process; the others are closed and forgotten. Either way the notify-send a killed daemon left
    /// waiting is ended.
    private func takeOver(unresolved: [SlotKey: SlotStatus], doubles: Set<SlotKey>, now: Date) {
        guard !toTakeOver.isEmpty else { return }
        for record in notes.open where toTakeOver.contains(record.id) {
            toTakeOver.remove(record.id)
            var alert = record.alert
            if alert.kind == .took {
                // Its Undo reaches only the process that shows it: shown again in its place.
                host.release(record, close: false)
                ask(InFlight(alert: alert, replacing: record.id), now: now)
                continue
            }
            if alert.kind.isNotice {
                // A missed notice has no action to take over: left on screen, forgotten here.
                host.release(record, close: false)
                notes.open.removeAll { $0.id == record.id }
                continue
            }
            // The kind stays: a late transition not announced yet is owed on its own.
            alert.doses = alert.doses.filter {
                alert.kind == .double ? doubles.contains($0.slot) : unresolved[$0.slot] == .due || unresolved[$0.slot] == .late
            }
            host.release(record, close: alert.doses.isEmpty)
            guard !alert.doses.isEmpty else {
                notes.open.removeAll { $0.id == record.id }
                continue
            }
            ask(InFlight(alert: alert, replacing: record.id), now: now)
        }
    }

    /// Reminders on screen unanswered for their repeat interval are shown again in their own place
    /// (`--replace-id`: never a second notification), for the doses still open, as what they are
    /// now; the next repeat is planned when the server took it (``sent(_:id:helper:)``). One being
    /// taken over or replaced already is left to that.
    private func repeatUnanswered(now: Date, unresolved: [SlotKey: SlotStatus]) {
        for i in notes.open.indices {
            guard let at = notes.open[i].repeatAt else { continue }
            let record = notes.open[i]
            // Its doses resolved: no repeat, and no wake-up planned for one.
            guard var a = stillOpen(record.alert, unresolved) else { notes.open[i].repeatAt = nil; continue }
            guard at <= now, !toTakeOver.contains(record.id), !inFlight.contains(where: { $0.replacing == record.id }) else { continue }
            notes.open[i].repeatAt = nil
            a.reminder = true
            ask(InFlight(alert: a, replacing: record.id), now: now)
        }
    }

    /// Snoozed alerts come back for the doses still open, as what they are now (due or late).
    private func showReminders(now: Date, unresolved: [SlotKey: SlotStatus]) {
        var waiting: [NotifyState.Snoozed] = []
        for entry in notes.snoozed {
            guard entry.at <= now else { waiting.append(entry); continue }
            guard var a = stillOpen(entry.alert, unresolved) else { continue }
            a.reminder = true
            ask(InFlight(alert: a, snoozed: entry), now: now)
        }
        notes.snoozed = waiting
    }

    /// The transitions owed now that no notification announced yet (nor is being sent: a late
    /// reminder stands for the late notification). Recorded as announced once the server took them.
    private func showOwed(_ day: DaemonDay, now: Date) {
        let pending = Set(inFlight.flatMap(\.alert.keys))
        let owed = DoseAlert.owed(slots: day.slots, now: now, repeatDefault: host.repeatDefault) { key in
            pending.contains(key) || ((try? host.alertKeyWasClaimed(key)) ?? false)
        }
        for a in owed { ask(InFlight(alert: a), now: now) }
        // One notification per double dose, once: its key is claimed when the server took it.
        let doubles = DoseAlert.owedDoubles(day.doubles) { key in
            pending.contains(key) || ((try? host.alertKeyWasClaimed(key)) ?? false)
        }
        for a in doubles { ask(InFlight(alert: a), now: now) }
        // One notice per medicine whose next dose a change of zone moved (DESIGN §3 "Where the person is").
        let travels = DoseAlert.owedTravels(day.travelGaps, now: now) { key in
            pending.contains(key) || ((try? host.alertKeyWasClaimed(key)) ?? false)
        }
        for a in travels { ask(InFlight(alert: a), now: now) }
    }

    private func ask(_ entry: InFlight, now: Date) {
        inFlight.append(entry)
        host.show(entry.alert, replacing: entry.replacing, now: now)
    }

    /// The server took a notification: its transitions count as announced, and it is on screen.
    private func sent(_ alert: DoseAlert, id: UInt32, helper: Int32?) {
        guard let i = inFlight.firstIndex(where: { $0.alert == alert }) else { return }
        let entry = inFlight.remove(at: i)
        notes.open.removeAll { $0.id == id || $0.id == entry.replacing }
        let repeatAt = alert.repeatMinutes.map { clock.now.addingTimeInterval(TimeInterval($0) * 60) }
        notes.open.append(NotifyState.Open(id: id, alert: alert, helper: helper, repeatAt: repeatAt))
        stats.alerts += 1
        saveNotes(claiming: alert.keys)
    }

    /// No server took it: what it stood for stays pending (unannounced, snoozed, or to take over)
    /// and is tried again at the next wake-up, at the latest after `notifyRetryDelay`.
    private func notSent(_ alert: DoseAlert) {
        guard let i = inFlight.firstIndex(where: { $0.alert == alert }) else { return }
        let entry = inFlight.remove(at: i)
        if let s = entry.snoozed { notes.snoozed.append(s) }
        if let id = entry.replacing { toTakeOver.insert(id) }
        stats.unsent += 1
        let retry = clock.now.addingTimeInterval(notifyRetryDelay)
        notifyRetryAt = min(notifyRetryAt ?? retry, retry)
    }

    /// A notification is gone from the screen: nothing to take over after a restart.
    private func closed(_ alert: DoseAlert, id: UInt32?) {
        if let id {
            notes.open.removeAll { $0.id == id }
        } else if let i = inFlight.firstIndex(where: { $0.alert == alert }) {
            inFlight.remove(at: i)
        }
        saveNotes()
    }

    private func answered(_ answer: AlertAnswer) {
        let now = clock.now
        if let id = answer.id { notes.open.removeAll { $0.id == id } }
        switch answer.choice {
        case .snooze:
            notes.snoozed.append(NotifyState.Snoozed(at: now.addingTimeInterval(snoozeDelay), alert: answer.alert))
        case .taken, .skip, .confirm:
            do { try host.record(answer.choice, slots: answer.alert.slots, now: now) }
            catch { host.warn("could not log '\(answer.choice.rawValue)' from the notification: \(describe(error))") }
        case .undo:
            do { try host.undo(events: answer.alert.events ?? [], now: now) }
            catch { host.warn("could not undo from the notification: \(describe(error))") }
        }
        saveNotes()
    }

    /// The state a previous daemon left: its notifications are taken over at the first update.
    private func loadNotes() {
        do {
            notes = try host.loadNotifications()
            savedNotes = try notes.encoded()
        } catch {
            host.warn("notifications: the previous daemon's state is unreadable and is dropped: \(describe(error))")
            notes = NotifyState()
        }
        toTakeOver = Set(notes.open.map(\.id))
    }

    /// Stores the state when it changed (or when keys are to be claimed).
    private func saveNotes(claiming keys: [String] = []) {
        var stored = notes
        stored.snoozed += inFlight.compactMap(\.snoozed)
        do {
            let text = try stored.encoded()
            guard text != savedNotes || !keys.isEmpty else { return }
            try host.saveNotifications(stored, claiming: keys, now: clock.now)
            savedNotes = text
        } catch {
            host.warn("notifications: \(describe(error))")
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
