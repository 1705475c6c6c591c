@testable import DoseDaemon
import DoseCore
import Foundation
import Testing

// The daemon's loop (DoseDaemon's DaemonLoop with every effect behind DaemonHost) driven by a
// simulated clock: a whole day runs in milliseconds, and every instant the loop chose to wake at
// is checked.

/// A clock the test moves.
final class SimClock: DaemonClock {
    var now: Date
    var advances = true
    init(_ now: Date) { self.now = now }
}

/// Something that happens to the daemon from outside at a simulated instant.
struct SimEvent {
    var at: Date
    var wake: DaemonWake
    /// Runs when the event happens (e.g. another process logs a dose, or the clock is set).
    var action: () -> Void = {}

    /// The daemon dies at `at` (kill -9): the loop ends without seeing a stop.
    static func crash(at: Date) -> SimEvent { SimEvent(at: at, wake: .report, crashes: true) }
    var crashes = false

    init(at: Date, wake: DaemonWake, crashes: Bool = false, action: @escaping () -> Void = {}) {
        self.at = at; self.wake = wake; self.crashes = crashes; self.action = action
    }
}

struct SimCrash: Error {}

/// An event source that jumps the clock to the deadline, or to the next scripted event when that
/// comes first.
final class SimSource: DaemonEventSource {
    let clock: SimClock
    var script: [SimEvent]
    /// The notification server's answers, handed over first, at once (the host's outbox).
    let server: SimHost?
    /// Every deadline the loop slept until, and what woke it.
    var sleeps: [(deadline: Date?, woke: [DaemonWake], at: Date)] = []
    /// The sleeps ended by the server's replies (an id, a refusal): one right after each request.
    var replies: Int { sleeps.count - others.count }
    /// The sleeps ended by the timer or the script.
    var others: [(deadline: Date?, woke: [DaemonWake], at: Date)] {
        sleeps.filter { !$0.woke.allSatisfy { switch $0 { case .sent, .notSent: true; default: false } } }
    }

    init(clock: SimClock, script: [SimEvent], server: SimHost? = nil) {
        self.clock = clock
        self.script = script // in the order given: after a clock step, instants go backwards
        self.server = server
    }

    func wait(until deadline: Date?) throws -> [DaemonWake] {
        if let replies = server?.takeReplies(), !replies.isEmpty {
            sleeps.append((deadline, replies, clock.now))
            return replies
        }
        if let next = script.first, deadline == nil || next.at <= deadline! {
            script.removeFirst()
            clock.now = max(clock.now, next.at)
            if next.crashes { throw SimCrash() }
            next.action()
            sleeps.append((deadline, [next.wake], clock.now))
            return [next.wake]
        }
        guard let deadline else { throw DosebarError.internal("the loop slept forever with nothing scripted") }
        clock.now = deadline
        sleeps.append((deadline, [.deadline], clock.now))
        return [.deadline]
    }
}

/// Keys claimed by "sent" notifications and the notifications state: what the store's notified
/// and meta tables keep across restarts.
final class SimLedger {
    var keys: [String: Date] = [:]
    var state = NotifyState()
    var saves = 0
}

/// The store, shared directory and notification server of a simulated user.
final class SimHost: DaemonHost {
    var zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
    var medications: [Medication]
    var events: [DoseEvent] = []
    let ledger: SimLedger
    var lastText: String?
    var refreshes: [Date] = []
    var days: [LocalDate] = []
    var nudges = 0
    var shown: [(at: Date, alert: DoseAlert)] = []
    /// Every request to the server, with the id it replaces.
    var requests: [(at: Date, alert: DoseAlert, replacing: UInt32?)] = []
    /// Whether a notification server runs (it takes every notification).
    var serverUp = true
    /// When the server appears (nil: it runs from the start).
    var serverUpFrom: Date?
    var nextID: UInt32 = 1
    private var replies: [DaemonWake] = []
    var withdrawn: [Set<SlotKey>] = []
    /// The double doses' slots at each withdrawal.
    var withdrawnDoubles: [Set<SlotKey>] = []
    var recorded: [(AlertAnswer.Choice, [SlotKey], Date)] = []
    var statuses: [(String, Bool)] = []
    var warnings: [String] = []
    var failRefresh = false
    /// Slots taken on two devices not confirmed yet (what the store's double doses are).
    var doubles: [DoseAlert] = []
    var stopped = false
    var reloads = 0
    /// Clicks, their refusals and the Undos of their confirmations (DaemonClickTests).
    var clicks = SimClicks()
    /// `[notify] repeat` (DaemonRepeatTests).
    var repeatDefault: Int?

    init(medications: [Medication], ledger: SimLedger = SimLedger()) {
        self.medications = medications
        self.ledger = ledger
    }

    func plan(_ now: Date) -> DayPlan {
        let date = zone.date(of: now)
        return DayPlan(date: date, medications: medications,
                       events: events.filter { $0.slot?.date == date && !clicks.undone.contains($0.id) }, zone: zone)
    }

    func refresh(now: Date) throws -> DaemonDay {
        if failRefresh { throw DosebarError.busy("database busy") }
        let plan = plan(now)
        let builder = SnapshotBuilder(plan: plan, history: History(today: plan.date, recent: []), medications: medications)
        let timeline = TimelineProvider(builder: builder).timeline(generatedAt: now)
        refreshes.append(now)
        days.append(plan.date)
        let text = timeline.entry(at: now)!.text + " " + timeline.entry(at: now)!.state.rawValue
        let changed = text == lastText ? [] : ["snapshot.txt"]
        lastText = text
        var day = DaemonDay(timeline: timeline, slots: plan.slots, changed: changed).withDoubles(doubles)
        day.travelGaps = builder.travelNotices
        return day
    }

    func reloadConfig() throws { reloads += 1 }
    func nudgeBars(changed: [String]) { nudges += 1 }
    func loadNotifications() throws -> NotifyState { ledger.state }
    func saveNotifications(_ state: NotifyState, claiming keys: [String], now: Date) throws {
        for k in keys where ledger.keys[k] == nil { ledger.keys[k] = now }
        ledger.state = state
        ledger.saves += 1
    }
    func alertKeyWasClaimed(_ key: String) throws -> Bool { ledger.keys[key] != nil }
    /// Records the request; the server's answer (an id, or a refusal when it is down) comes as the next wake.
    func show(_ alert: DoseAlert, replacing: UInt32?, now: Date) {
        requests.append((now, alert, replacing))
        if serverUp && serverUpFrom.map({ now >= $0 }) ?? true {
            shown.append((now, alert))
            let id = replacing ?? nextID
            if replacing == nil { nextID += 1 }
            replies.append(.sent(alert, id: id, helper: 100 + Int32(id)))
        } else {
            replies.append(.notSent(alert))
        }
    }
    func takeReplies() -> [DaemonWake] {
        defer { replies.removeAll() }
        return replies
    }
    func withdrawAlerts(unresolved: Set<SlotKey>, doubles: Set<SlotKey>) { withdrawn.append(unresolved); withdrawnDoubles.append(doubles) }
    /// Helpers of a previous daemon ended, and whether their notification was closed.
    var released: [(Int32?, Bool)] = []
    func release(_ previous: NotifyState.Open, close: Bool) { released.append((previous.helper, close)) }
    func record(_ choice: AlertAnswer.Choice, slots: [SlotKey], now: Date) throws {
        recorded.append((choice, slots, now))
        if choice == .confirm { doubles.removeAll { $0.slots.contains(where: slots.contains) }; return }
        for s in slots {
            events.append(DoseEvent(id: Int64(events.count + 1), medicationID: s.medicationID,
                                    kind: choice == .skip ? .skipped : .taken, slot: s, at: now, loggedAt: now))
        }
    }
    func status(_ text: String, ready: Bool) { statuses.append((text, ready)) }
    func stopping() { stopped = true }
    func warn(_ text: String) { warnings.append(text) }
    func report(_ stats: DaemonStats) {}

    /// Another process takes a dose (what `dosebar take` does to the database).
    func take(_ id: Int64, _ date: String, _ time: String, at: Date) {
        let slot = SlotKey(medicationID: id, date: LocalDate(date)!, time: LocalTime(time)!)
        events.append(DoseEvent(id: Int64(events.count + 1), medicationID: id, kind: .taken, slot: slot, at: at, loggedAt: at))
    }
}

enum Sim {
    static func t(_ s: String) -> Date { ISO8601.parse(s)! }
    static func med(_ id: Int64, _ name: String, _ times: [String], window: Int = 7200) -> Medication {
        Medication(id: id, name: name, versions: [ScheduleVersion(effective: LocalDate("2026-01-01")!, schedule: Schedule(
            recurrence: .daily, times: times.map { LocalTime($0)! }, window: window, start: LocalDate("2026-01-01")!))])
    }
    static let meds = [med(1, "Aspirin", ["08:00"]), med(2, "Magnesium", ["08:00"]), med(3, "Vitamin D", ["21:00"])]

    static func run(host: SimHost, from start: String, script: [SimEvent], notify: Bool = true)
        throws -> (DaemonStats, SimSource, DaemonLoop) {
        let clock = SimClock(t(start))
        let source = SimSource(clock: clock, script: script, server: host)
        let loop = DaemonLoop(clock: clock, source: source, host: host, notifying: notify)
        let stats = try loop.run()
        return (stats, source, loop)
    }

    /// Every instant the day's timeline has an entry at, plus the next midnight.
    static func entryInstants(_ host: SimHost, day: String) -> Set<Date> {
        let date = LocalDate(day)!
        let plan = DayPlan(date: date, medications: host.medications, events: host.events, zone: host.zone)
        let builder = SnapshotBuilder(plan: plan, history: History(today: date, recent: []), medications: host.medications)
        return Set(TimelineProvider(builder: builder).instants()).union([plan.dayEnd])
    }
}

@Suite("Daemon loop, simulated")
struct DaemonLoopTests {
    @Test("a simulated day: wakes only at timeline entries and midnight, one notification per transition")
    func simulatedDay() throws {
        let host = SimHost(medications: Sim.meds)
        let script = [
            // Another process takes Aspirin at 08:10 (a bar click): the daemon hears the database change.
            SimEvent(at: Sim.t("2026-11-22T08:10:00+09:00"), wake: .dataChanged) {
                host.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:10:00+09:00"))
            },
            SimEvent(at: Sim.t("2026-11-23T01:30:00+09:00"), wake: .stop),
        ]
        let (stats, source, _) = try Sim.run(host: host, from: "2026-11-22T06:30:00+09:00", script: script)

        // Every timer wake-up is at an entry instant of its day (or midnight): none in between.
        let allowed = Sim.entryInstants(host, day: "2026-11-22").union(Sim.entryInstants(host, day: "2026-11-23"))
        let timerWakes = source.sleeps.filter { $0.woke == [.deadline] }
        for s in timerWakes { #expect(allowed.contains(s.at), "woke at \(s.at), not a timeline entry") }
        // ... and at every one of them between start and stop.
        // (08:10, the take, is an entry of the recomputed timeline, but the take itself woke the loop then.)
        let expected = allowed.filter { $0 > Sim.t("2026-11-22T06:30:00+09:00") && $0 < Sim.t("2026-11-23T01:30:00+09:00") }
            .subtracting([Sim.t("2026-11-22T08:10:00+09:00")])
        #expect(Set(timerWakes.map(\.at)) == expected)
        // Besides: the take, the stop, and the server's reply to each notification (its id).
        #expect(source.replies == 4)
        #expect(stats.wakeups == timerWakes.count + 2 + source.replies)
        #expect(stats.dataChanges == 1)

        // Over the quiet hour 12:00–13:00 (no dose changes state) the loop woke once, at 13:00.
        let quiet = source.sleeps.filter { $0.at > Sim.t("2026-11-22T12:00:00+09:00") && $0.at <= Sim.t("2026-11-22T13:00:00+09:00") }
        #expect(quiet.map(\.at) == [Sim.t("2026-11-22T13:00:00+09:00")])

        // Midnight: the refresh at 00:00 computed the new day.
        let midnight = Sim.t("2026-11-23T00:00:00+09:00")
        #expect(host.refreshes.contains(midnight))
        #expect(host.days.last == LocalDate("2026-11-23"))

        // Notifications: 08:00 due (both medicines in one), 10:00 late (Magnesium only: Aspirin was taken),
        // 21:00 due Vitamin D, 23:00 late Vitamin D. Nothing else, nothing twice.
        let summary = host.shown.map { "\($0.alert.kind.rawValue) \(host.zone.local($0.at).clock) \($0.alert.doses.map(\.medication).joined(separator: "+"))" }
        #expect(summary == ["due 08:00 Aspirin+Magnesium", "late 10:00 Magnesium", "due 21:00 Vitamin D", "late 23:00 Vitamin D"])
        #expect(host.ledger.keys.count == 5)
        #expect(stats.alerts == 4)
        // After the take, the open 08:00 notification no longer covers an unresolved Aspirin.
        #expect(host.withdrawn.contains { !$0.contains(SlotKey(medicationID: 1, date: LocalDate("2026-11-22")!, time: LocalTime("08:00")!)) })
        #expect(host.statuses.first?.1 == true) // READY once, first
        #expect(host.statuses.dropFirst().allSatisfy { !$0.1 })
        #expect(host.stopped)
        print("simulated day 06:30 → 01:30 next day: \(stats.line)")
    }

    @Test("a simulated hour with no transitions wakes the loop exactly once, at the hour")
    func simulatedHour() throws {
        let host = SimHost(medications: Sim.meds)
        let (stats, source, _) = try Sim.run(host: host, from: "2026-11-22T13:00:00+09:00",
                                            script: [SimEvent(at: Sim.t("2026-11-22T14:00:00.5+09:00"), wake: .stop)])
        // The 14:00 entry, then the stop (and the server's reply to the late notification shown at 13:00).
        #expect(source.replies == 1)
        #expect(stats.wakeups == 2 + source.replies)
        #expect(source.sleeps.first?.deadline == Sim.t("2026-11-22T14:00:00+09:00"))
        #expect(host.refreshes.count == 2)
    }

    @Test("a clock step backwards or forwards re-plans from the new time")
    func clockStep() throws {
        let host = SimHost(medications: Sim.meds)
        let clockRef = SimClock(Sim.t("2026-11-22T09:00:00+09:00"))
        let source = SimSource(clock: clockRef, script: [
            // 09:30: the clock is set back to 07:00.
            SimEvent(at: Sim.t("2026-11-22T09:30:00+09:00"), wake: .clockChanged) { clockRef.now = Sim.t("2026-11-22T07:00:00+09:00") },
            // 07:20: resume from a suspend that lasted until 22:30.
            SimEvent(at: Sim.t("2026-11-22T07:20:00+09:00"), wake: .clockChanged) { clockRef.now = Sim.t("2026-11-22T22:30:00+09:00") },
            SimEvent(at: Sim.t("2026-11-22T22:40:00+09:00"), wake: .stop),
        ], server: host)
        let loop = DaemonLoop(clock: clockRef, source: source, host: host, notifying: true)
        try loop.run()
        // After the step back to 07:00 the next wake was planned for 07:00's next entry (08:00 is after 07:20, so
        // the suspend came first), not 10:00.
        let afterBack = source.others[1]
        #expect(afterBack.deadline == Sim.t("2026-11-22T07:20:00+09:00") || afterBack.deadline == Sim.t("2026-11-22T08:00:00+09:00"))
        #expect(host.refreshes.contains(Sim.t("2026-11-22T07:00:00+09:00")))
        #expect(host.refreshes.contains(Sim.t("2026-11-22T22:30:00+09:00")))
        // At 22:30 the 21:00 Vitamin D is due (window 2h): one due notification; 08:00 doses are late: one late.
        let kinds = host.shown.map { "\($0.alert.kind.rawValue) \($0.alert.doses.map(\.medication).joined(separator: "+"))" }
        #expect(kinds.contains("due Vitamin D"))
        #expect(kinds.filter { $0.hasPrefix("due Aspirin") }.count == 1) // at 09:00 start
        #expect(kinds.filter { $0.hasPrefix("late Aspirin") }.count == 1) // after the jump to 22:30
        #expect(Set(kinds).count == kinds.count)
    }

    @Test("a restarted daemon does not announce a transition again")
    func restartDedupe() throws {
        let ledger = SimLedger()
        let first = SimHost(medications: Sim.meds, ledger: ledger)
        _ = try Sim.run(host: first, from: "2026-11-22T08:05:00+09:00", script: [SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .stop)])
        #expect(first.shown.count == 1)
        let second = SimHost(medications: Sim.meds, ledger: ledger)
        _ = try Sim.run(host: second, from: "2026-11-22T08:31:00+09:00", script: [SimEvent(at: Sim.t("2026-11-22T10:30:00+09:00"), wake: .stop)])
        #expect(second.shown.map(\.alert.kind) == [.late], "only the 10:00 late notification is new")
        #expect(second.shown.first?.alert.doses.count == 2)
    }

    @Test("a dose taken twice is notified once (not again after a restart), stays until confirmed, and its action confirms it")
    func doubleDose() throws {
        let ledger = SimLedger()
        let slot = SlotKey(medicationID: 1, date: LocalDate("2026-11-22")!, time: LocalTime("08:00")!)
        let double = DoseAlert(kind: .double, scheduled: Sim.t("2026-11-22T08:00:00+09:00"),
                               doses: [DoseAlert.Dose(slot: slot, medication: "Aspirin", dose: nil)], takes: ["desktop 08:00", "laptop 08:10"])
        let first = SimHost(medications: Sim.meds, ledger: ledger)
        first.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:00:00+09:00"))
        first.doubles = [double]
        _ = try Sim.run(host: first, from: "2026-11-22T09:00:00+09:00", script: [SimEvent(at: Sim.t("2026-11-22T09:30:00+09:00"), wake: .stop)])
        #expect(first.shown.filter { $0.alert.kind == .double }.map(\.alert) == [double], "\(first.shown)")
        // Its slot is taken, yet the notification is not withdrawn while the double dose stands.
        #expect(first.withdrawnDoubles.allSatisfy { $0.contains(slot) } && first.withdrawn.allSatisfy { !$0.contains(slot) })
        // A restart (the same store): not announced again.
        let restarted = SimHost(medications: Sim.meds, ledger: ledger)
        restarted.doubles = [double]
        restarted.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:00:00+09:00"))
        let clock = SimClock(Sim.t("2026-11-22T09:40:00+09:00"))
        let source = SimSource(clock: clock, script: [
            SimEvent(at: Sim.t("2026-11-22T09:41:00+09:00"), wake: .answered(AlertAnswer(alert: double, choice: .confirm))),
            SimEvent(at: Sim.t("2026-11-22T09:45:00+09:00"), wake: .stop),
        ], server: restarted)
        try DaemonLoop(clock: clock, source: source, host: restarted, notifying: true).run()
        // Taken over in place (the same id, so its action reaches this daemon), never a new one.
        #expect(restarted.requests.filter { $0.alert.kind == .double }.allSatisfy { $0.replacing != nil }, "announced once: \(restarted.requests)")
        #expect(restarted.recorded.map(\.0) == [.confirm] && restarted.recorded.first?.1 == [slot])
        #expect(restarted.doubles.isEmpty)
        #expect(restarted.withdrawnDoubles.last.map { !$0.contains(slot) } == true, "confirmed: withdrawn")
    }

    @Test("a change of zone that moves a dose is one notice per medicine naming the gap and both choices, never again after a restart")
    func travelNotice() throws {
        let ledger = SimLedger()
        let ny = TimeZone(identifier: "America/New_York")!
        // Left Seoul at 12-07 10:00 KST; New York's clock read 12-06 20:00.
        let zone = Zone(TimeZone(identifier: "Asia/Seoul")!, changes: [ZoneChange(at: Sim.t("2026-12-07T10:00:00+09:00"), timeZone: ny)])
        // Both next doses come 14 h later than usual; only Yasmin's window (2 h) is smaller than that.
        let meds = [Sim.med(1, "Yasmin", ["22:00"]), Sim.med(2, "Vitamin D", ["12:00"], window: 15 * 3600)]
        let host = SimHost(medications: meds, ledger: ledger)
        host.zone = zone
        _ = try Sim.run(host: host, from: "2026-12-06T20:01:00-05:00", script: [SimEvent(at: Sim.t("2026-12-06T21:00:00-05:00"), wake: .stop)])
        let travel = host.shown.filter { $0.alert.kind == .travel }.map(\.alert)
        #expect(travel.map { $0.doses.map(\.medication) } == [["Yasmin"]], "\(host.shown)")
        let yasmin = try #require(travel.first)
        let text = NotificationText(yasmin, zone: zone, now: Sim.t("2026-12-06T20:01:00-05:00"), catalog: .english)
        #expect(text.summary == "Yasmin: the change of zone moved the next dose")
        #expect(text.body.contains("38 h after the last (usually 24 h)") && text.body.contains("at 08:00 here")
                && text.body.contains("--keep-zone Asia/Seoul"), "\(text.body)")
        // A restart (the same store): not announced again.
        let restarted = SimHost(medications: meds, ledger: ledger)
        restarted.zone = zone
        _ = try Sim.run(host: restarted, from: "2026-12-06T21:01:00-05:00", script: [SimEvent(at: Sim.t("2026-12-06T22:00:00-05:00"), wake: .stop)])
        #expect(restarted.shown.allSatisfy { $0.alert.kind != .travel }, "\(restarted.shown)")
    }

    @Test("Taken and Skip act on exactly the notified doses; Snooze shows them again 10 minutes later")
    func answers() throws {
        let host = SimHost(medications: Sim.meds + [Sim.med(4, "Iron", ["08:00", "14:00"], window: 21600)])
        var dueAlert: DoseAlert?
        // First run to 08:01 to get the 08:00 alert.
        _ = try Sim.run(host: host, from: "2026-11-22T07:59:00+09:00", script: [
            SimEvent(at: Sim.t("2026-11-22T08:01:00+09:00"), wake: .stop) { dueAlert = host.shown.last?.alert },
        ])
        let alert = try #require(dueAlert)
        #expect(alert.doses.map(\.medication) == ["Aspirin", "Iron", "Magnesium"])

        let clock = SimClock(Sim.t("2026-11-22T08:02:00+09:00"))
        let source = SimSource(clock: clock, script: [
            SimEvent(at: Sim.t("2026-11-22T08:02:00+09:00"), wake: .answered(AlertAnswer(alert: alert, choice: .snooze))),
            SimEvent(at: Sim.t("2026-11-22T08:20:00+09:00"), wake: .stop),
        ], server: host)
        let loop = DaemonLoop(clock: clock, source: source, host: host, notifying: true)
        try loop.run()
        // The snooze woke the loop at 08:12 exactly and showed the same doses again, as a reminder.
        #expect(source.sleeps.contains { $0.at == Sim.t("2026-11-22T08:12:00+09:00") && $0.woke == [.deadline] })
        let reminder = try #require(host.shown.last)
        #expect(reminder.at == Sim.t("2026-11-22T08:12:00+09:00"))
        #expect(reminder.alert.reminder)
        #expect(reminder.alert.slots == alert.slots)

        // Taken: exactly those three slots (not Iron's 14:00, although its window holds 08:30).
        let clock2 = SimClock(Sim.t("2026-11-22T08:30:00+09:00"))
        let source2 = SimSource(clock: clock2, script: [
            SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .answered(AlertAnswer(alert: reminder.alert, choice: .taken))),
            SimEvent(at: Sim.t("2026-11-22T08:31:00+09:00"), wake: .stop),
        ], server: host)
        try DaemonLoop(clock: clock2, source: source2, host: host, notifying: true).run()
        #expect(host.recorded.count == 1)
        #expect(host.recorded[0].0 == .taken)
        #expect(host.recorded[0].1 == alert.slots)
        let statuses = host.plan(Sim.t("2026-11-22T08:31:00+09:00")).slots.map { "\($0.medication.name)@\($0.key.time):\($0.status(at: Sim.t("2026-11-22T08:31:00+09:00")).rawValue)" }
        #expect(statuses.sorted() == ["Aspirin@08:00:taken", "Iron@08:00:taken", "Iron@14:00:upcoming", "Magnesium@08:00:taken", "Vitamin D@21:00:upcoming"])
        // Resolved doses are never announced again (the late transition at 10:00 does not come).
        let shownBefore = host.shown.count
        _ = try Sim.run(host: host, from: "2026-11-22T09:59:00+09:00", script: [SimEvent(at: Sim.t("2026-11-22T10:30:00+09:00"), wake: .stop)])
        #expect(host.shown.count == shownBefore)
    }

    @Test("alerts group by time and transition, skip resolved and announced slots")
    func owedAlerts() {
        let zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
        let day = LocalDate("2026-11-22")!
        let meds = Sim.meds + [Sim.med(5, "Zinc", ["07:00"], window: 3600)]
        let taken = DoseEvent(id: 1, medicationID: 2, kind: .taken, slot: SlotKey(medicationID: 2, date: day, time: LocalTime("08:00")!),
                              at: Sim.t("2026-11-22T08:05:00+09:00"), loggedAt: Sim.t("2026-11-22T08:05:00+09:00"))
        let plan = DayPlan(date: day, medications: meds, events: [taken], zone: zone)
        let now = Sim.t("2026-11-22T08:30:00+09:00")
        let owed = DoseAlert.owed(slots: plan.slots, now: now) { _ in false }
        #expect(owed.map { "\($0.kind.rawValue):\($0.doses.map(\.medication))" } == ["late:[\"Zinc\"]", "due:[\"Aspirin\"]"])
        let keys = owed.flatMap(\.keys)
        #expect(keys == ["late:5:2026-11-22T07:00", "due:1:2026-11-22T08:00"])
        #expect(DoseAlert.owed(slots: plan.slots, now: now) { keys.contains($0) }.isEmpty)
        // Before anything is due nothing is owed.
        #expect(DoseAlert.owed(slots: plan.slots, now: Sim.t("2026-11-22T06:59:00+09:00")) { _ in false }.isEmpty)
    }

    @Test("a slot that closes unresolved is owed one last notice (missed, do not double), within 6 hours of its cut-off")
    func missedNotice() {
        let zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
        let day = LocalDate("2026-11-22")!
        let meds = Sim.meds + [Sim.med(5, "Zinc", ["07:00"], window: 3600)]
        let taken = DoseEvent(id: 1, medicationID: 2, kind: .taken, slot: SlotKey(medicationID: 2, date: day, time: LocalTime("08:00")!),
                              at: Sim.t("2026-11-22T08:05:00+09:00"), loggedAt: Sim.t("2026-11-22T08:05:00+09:00"))
        let plan = DayPlan(date: day, medications: meds, events: [taken], zone: zone, carry: false)
        func owed(_ at: String) -> [String] {
            DoseAlert.owed(slots: plan.slots, now: Sim.t(at)) { _ in false }.flatMap(\.keys)
        }
        // Daily doses close at the next one's window: Zinc 07:00 (W 1 h) at 06:00 the next morning,
        // Aspirin 08:00 (W 2 h) at 06:00 too; Vitamin D 21:00 at 19:00 the next evening.
        #expect(owed("2026-11-23T05:59:00+09:00") == ["late:5:2026-11-22T07:00", "late:1:2026-11-22T08:00", "late:3:2026-11-22T21:00"])
        #expect(owed("2026-11-23T06:00:00+09:00") == ["missed:5:2026-11-22T07:00", "missed:1:2026-11-22T08:00", "late:3:2026-11-22T21:00"])
        // Announced once: a key already sent is not owed again.
        #expect(DoseAlert.owed(slots: plan.slots, now: Sim.t("2026-11-23T07:00:00+09:00")) { $0.hasPrefix("missed:") }.flatMap(\.keys)
                == ["late:3:2026-11-22T21:00"])
        // Six hours after the cut-off the news is old: nothing more.
        #expect(owed("2026-11-23T12:00:00+09:00") == ["late:3:2026-11-22T21:00"])
        #expect(owed("2026-11-24T01:00:00+09:00").isEmpty)
        let text = NotificationText(DoseAlert.owed(slots: plan.slots, now: Sim.t("2026-11-23T06:00:00+09:00")) { _ in false }[0],
                                    zone: zone, now: Sim.t("2026-11-23T06:00:00+09:00"), catalog: .english)
        #expect(text.summary == "Zinc: missed — do not double the next dose")
    }

    @Test("a fixed clock arms no timer; a failing refresh is retried later, never in a spin")
    func fixedClockAndRetry() throws {
        let host = SimHost(medications: Sim.meds)
        let clock = SimClock(Sim.t("2026-11-22T08:00:00+09:00"))
        clock.advances = false
        let source = SimSource(clock: clock, script: [SimEvent(at: Sim.t("2026-11-22T08:00:00+09:00"), wake: .stop)])
        try DaemonLoop(clock: clock, source: source, host: host, notifying: false).run()
        #expect(source.sleeps.map(\.deadline) == [nil])

        let failing = SimHost(medications: Sim.meds)
        failing.failRefresh = true
        let (stats, source2, _) = try Sim.run(host: failing, from: "2026-11-22T08:00:00+09:00",
                                             script: [SimEvent(at: Sim.t("2026-11-22T08:02:00+09:00"), wake: .stop)], notify: false)
        #expect(source2.sleeps.map(\.deadline).prefix(4) == [Sim.t("2026-11-22T08:00:30+09:00"), Sim.t("2026-11-22T08:01:00+09:00"),
                                                             Sim.t("2026-11-22T08:01:30+09:00"), Sim.t("2026-11-22T08:02:00+09:00")])
        #expect(stats.wakeups == 4)
        #expect(failing.warnings.count == 4)
    }

    @Test("SIGHUP reloads the config and recomputes; SIGUSR1 only reports")
    func reloadAndReport() throws {
        let host = SimHost(medications: Sim.meds)
        let (stats, source, _) = try Sim.run(host: host, from: "2026-11-22T12:00:00+09:00", script: [
            SimEvent(at: Sim.t("2026-11-22T12:10:00+09:00"), wake: .reloadConfig),
            SimEvent(at: Sim.t("2026-11-22T12:20:00+09:00"), wake: .report),
            SimEvent(at: Sim.t("2026-11-22T12:30:00+09:00"), wake: .stop),
        ])
        #expect(host.reloads == 1)
        #expect(host.refreshes.count == 2)
        #expect(stats.wakeups == 3 + source.replies)
    }

    // MARK: - Restarts, snoozes and an absent notification server

    static let day = LocalDate("2026-11-22")!
    static func slot(_ id: Int64, _ time: String = "08:00") -> SlotKey { SlotKey(medicationID: id, date: day, time: LocalTime(time)!) }
    /// The 08:00 notification of `Sim.meds` (and Iron when given): what the first daemon shows.
    static func dueAt8(iron: Bool = false) -> DoseAlert {
        var doses = [DoseAlert.Dose(slot: slot(1), medication: "Aspirin", dose: nil)]
        if iron { doses.append(DoseAlert.Dose(slot: slot(4), medication: "Iron", dose: nil)) }
        doses.append(DoseAlert.Dose(slot: slot(2), medication: "Magnesium", dose: nil))
        return DoseAlert(kind: .due, scheduled: Sim.t("2026-11-22T08:00:00+09:00"), doses: doses)
    }

    /// Runs a daemon until the scripted stop or crash (`SimEvent.crash`).
    @discardableResult
    static func runUntilEnd(_ host: SimHost, from: String, _ script: [SimEvent]) throws -> SimSource {
        let clock = SimClock(Sim.t(from))
        let source = SimSource(clock: clock, script: script, server: host)
        do {
            try DaemonLoop(clock: clock, source: source, host: host, notifying: true).run()
        } catch is SimCrash {}
        return source
    }

    @Test("a snooze survives a restart (clean or kill -9): the next daemon reminds at the snooze time, once", arguments: [false, true])
    func snoozeAcrossRestart(crash: Bool) throws {
        let ledger = SimLedger()
        let first = SimHost(medications: Sim.meds, ledger: ledger)
        let due = Self.dueAt8()
        let end = Sim.t("2026-11-22T08:05:00+09:00")
        try Self.runUntilEnd(first, from: "2026-11-22T07:59:00+09:00", [
            SimEvent(at: Sim.t("2026-11-22T08:02:00+09:00"), wake: .answered(AlertAnswer(alert: due, choice: .snooze, id: 1))),
            crash ? SimEvent.crash(at: end) : SimEvent(at: end, wake: .stop),
        ])
        #expect(first.shown.map(\.alert) == [due])
        #expect(ledger.state.snoozed == [NotifyState.Snoozed(at: Sim.t("2026-11-22T08:12:00+09:00"), alert: due)])
        #expect(ledger.state.open.isEmpty, "the answered notification is gone from the screen")

        // Restarted at 08:06: the first wake-up is the snooze, 08:12, and it reminds of the same doses.
        let second = SimHost(medications: Sim.meds, ledger: ledger)
        let source = try Self.runUntilEnd(second, from: "2026-11-22T08:06:00+09:00", [SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .stop)])
        #expect(source.sleeps.first?.deadline == Sim.t("2026-11-22T08:12:00+09:00"))
        #expect(second.shown.count == 1)
        let reminder = try #require(second.shown.first)
        #expect(reminder.at == Sim.t("2026-11-22T08:12:00+09:00"))
        #expect(reminder.alert.reminder && reminder.alert.slots == due.slots && reminder.alert.kind == .due)
        #expect(ledger.state.snoozed.isEmpty)

        // Once: a daemon started after it (or a second restart before 08:12 would not see it twice either).
        let third = SimHost(medications: Sim.meds, ledger: ledger)
        try Self.runUntilEnd(third, from: "2026-11-22T08:31:00+09:00", [SimEvent(at: Sim.t("2026-11-22T09:00:00+09:00"), wake: .stop)])
        #expect(third.requests.isEmpty)
    }

    @Test("a snooze whose reminder no server took survives a restart too; a snooze of doses taken meanwhile ends quietly")
    func snoozePendingAcrossRestart() throws {
        let ledger = SimLedger()
        let first = SimHost(medications: Sim.meds, ledger: ledger)
        let due = Self.dueAt8()
        first.serverUpFrom = Sim.t("2026-11-22T08:00:00+09:00")
        try Self.runUntilEnd(first, from: "2026-11-22T07:59:00+09:00", [
            SimEvent(at: Sim.t("2026-11-22T08:02:00+09:00"), wake: .answered(AlertAnswer(alert: due, choice: .snooze, id: 1))) {
                first.serverUpFrom = Sim.t("2026-11-22T09:00:00+09:00") // the server goes away
            },
            SimEvent.crash(at: Sim.t("2026-11-22T08:13:00+09:00")),
        ])
        #expect(first.requests.count == 2 && first.shown.count == 1, "the 08:12 reminder was asked for and refused")
        #expect(ledger.state.snoozed.count == 1, "still owed")
        // The next daemon (08:20, server back) reminds at once; Aspirin was taken meanwhile.
        let second = SimHost(medications: Sim.meds, ledger: ledger)
        second.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:15:00+09:00"))
        try Self.runUntilEnd(second, from: "2026-11-22T08:20:00+09:00", [SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .stop)])
        #expect(second.shown.map(\.alert.slots) == [[Self.slot(2)]])
        #expect(second.shown.first?.alert.reminder == true)
        #expect(ledger.state.snoozed.isEmpty)
        // Snoozed, then everything taken before the reminder: nothing shown, nothing kept.
        let third = SimHost(medications: Sim.meds, ledger: SimLedger())
        third.ledger.state.snoozed = [NotifyState.Snoozed(at: Sim.t("2026-11-22T08:12:00+09:00"), alert: due)]
        third.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:05:00+09:00"))
        third.take(2, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:05:00+09:00"))
        try Self.runUntilEnd(third, from: "2026-11-22T08:06:00+09:00", [SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .stop)])
        #expect(third.requests.isEmpty)
        #expect(third.ledger.state.snoozed.isEmpty)
    }

    @Test("a transition is recorded as sent only once the server took it; it is shown once when a server appears, for the doses still open")
    func serverAppears() throws {
        let host = SimHost(medications: Sim.meds)
        host.serverUpFrom = Sim.t("2026-11-22T08:02:30+09:00")
        let source = try Self.runUntilEnd(host, from: "2026-11-22T07:59:00+09:00", [
            // Aspirin is taken (a bar click) while no server runs: that wake-up tries again too.
            SimEvent(at: Sim.t("2026-11-22T08:01:30+09:00"), wake: .dataChanged) {
                host.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:01:30+09:00"))
            },
            SimEvent.crash(at: Sim.t("2026-11-22T10:30:00+09:00")),
        ])
        // Asked at 08:00 (both), 08:01 (retry), 08:01:30 (the take), then at 08:02:30 (a minute after the last
        // refusal) the server took it: Magnesium only.
        // (Then 10:00: Magnesium turns late.)
        #expect(host.requests.map(\.at) == ["08:00:00", "08:01:00", "08:01:30", "08:02:30", "10:00:00"].map { Sim.t("2026-11-22T\($0)+09:00") })
        #expect(host.shown.map(\.alert.kind) == [.due, .late])
        #expect(host.shown.first?.alert.slots == [Self.slot(2)])
        #expect(host.ledger.keys == ["due:2:2026-11-22T08:00": Sim.t("2026-11-22T08:02:30+09:00"),
                                     "late:2:2026-11-22T08:00": Sim.t("2026-11-22T10:00:00+09:00")], "claimed when taken, not before")
        #expect(host.ledger.state.open.first?.id == 1)
        // Nothing pending afterwards: the only timer wake-ups after 08:02:30 are timeline entries (10:00: Magnesium late).
        let entries = Sim.entryInstants(host, day: "2026-11-22")
        let after = source.sleeps.filter { $0.woke == [.deadline] && $0.at > Sim.t("2026-11-22T08:02:30+09:00") }
        #expect(!after.isEmpty && after.allSatisfy { entries.contains($0.at) }, "\(after.map(\.at))")
    }

    @Test("with nothing owed, a refused notification plans no retry: zero wake-ups between timeline entries")
    func noRetryWhenNothingOwed() throws {
        let host = SimHost(medications: Sim.meds)
        host.serverUp = false
        let source = try Self.runUntilEnd(host, from: "2026-11-22T07:59:00+09:00", [
            SimEvent(at: Sim.t("2026-11-22T08:03:10+09:00"), wake: .dataChanged) {
                host.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:03:10+09:00"))
                host.take(2, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:03:10+09:00"))
            },
            SimEvent(at: Sim.t("2026-11-22T20:00:00+09:00"), wake: .stop),
        ])
        // Retries each minute while the 08:00 doses were owed; after the take none (the next wake is an entry).
        let timer = source.sleeps.filter { $0.woke == [.deadline] }.map(\.at)
        #expect(Array(timer.prefix(4)) == ["08:00:00", "08:01:00", "08:02:00", "08:03:00"].map { Sim.t("2026-11-22T\($0)+09:00") })
        let entries = Sim.entryInstants(host, day: "2026-11-22")
        #expect(timer.dropFirst(4).allSatisfy { entries.contains($0) }, "\(timer)")
        #expect(host.ledger.keys.isEmpty, "nothing was ever shown, nothing is recorded as sent")
    }

    @Test("Taken on a notification a killed daemon left: the next daemon takes it over (same id) and logs exactly its doses")
    func takeOverAfterCrash() throws {
        let ledger = SimLedger()
        let meds = Sim.meds + [Sim.med(4, "Iron", ["08:00", "14:00"], window: 21600)]
        let first = SimHost(medications: meds, ledger: ledger)
        try Self.runUntilEnd(first, from: "2026-11-22T07:59:00+09:00", [SimEvent.crash(at: Sim.t("2026-11-22T08:05:00+09:00"))])
        let due = Self.dueAt8(iron: true)
        #expect(ledger.state.open == [NotifyState.Open(id: 1, alert: due, helper: 101)])

        // Magnesium is taken in a terminal while no daemon runs; the daemon comes back at 08:20.
        let second = SimHost(medications: meds, ledger: ledger)
        second.nextID = 7
        second.take(2, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:10:00+09:00"))
        var shownAgain: DoseAlert?
        try Self.runUntilEnd(second, from: "2026-11-22T08:20:00+09:00", [
            SimEvent(at: Sim.t("2026-11-22T08:25:00+09:00"), wake: .report) { shownAgain = second.shown.last?.alert },
            SimEvent(at: Sim.t("2026-11-22T08:25:00+09:00"), wake: .answered(AlertAnswer(
                alert: DoseAlert(kind: .due, scheduled: due.scheduled, doses: due.doses.filter { $0.slot != Self.slot(2) }), choice: .taken, id: 1))),
            SimEvent(at: Sim.t("2026-11-22T08:30:00+09:00"), wake: .stop),
        ])
        #expect(second.requests.count == 1)
        #expect(second.requests.first?.replacing == 1, "sent again in place of the old one")
        #expect(second.released.map(\.0) == [101] && second.released.map(\.1) == [false], "the old notify-send ended, its notification kept")
        #expect(shownAgain?.slots == [Self.slot(1), Self.slot(4)], "the doses it named that are still open")
        #expect(shownAgain?.reminder == false)
        #expect(second.recorded.count == 1)
        #expect(second.recorded.first?.1 == [Self.slot(1), Self.slot(4)], "not Iron's 14:00, not Magnesium again")
        #expect(ledger.state.open.isEmpty && ledger.state.snoozed.isEmpty)
        // Its transition was not announced again.
        #expect(Set(ledger.keys.keys) == ["due:1:2026-11-22T08:00", "due:2:2026-11-22T08:00", "due:4:2026-11-22T08:00"])
    }

    @Test("a notification left by a killed daemon whose doses got resolved is forgotten, not shown again")
    func takeOverResolved() throws {
        let ledger = SimLedger()
        ledger.state.open = [NotifyState.Open(id: 3, alert: Self.dueAt8(), helper: 7)]
        ledger.keys = ["due:1:2026-11-22T08:00": Sim.t("2026-11-22T08:00:00+09:00"), "due:2:2026-11-22T08:00": Sim.t("2026-11-22T08:00:00+09:00")]
        let host = SimHost(medications: Sim.meds, ledger: ledger)
        host.take(1, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:05:00+09:00"))
        host.take(2, "2026-11-22", "08:00", at: Sim.t("2026-11-22T08:05:00+09:00"))
        try Self.runUntilEnd(host, from: "2026-11-22T08:06:00+09:00", [SimEvent.crash(at: Sim.t("2026-11-22T08:30:00+09:00"))])
        #expect(host.requests.isEmpty)
        #expect(host.released.map(\.0) == [7] && host.released.map(\.1) == [true], "closed by ending its notify-send")
        #expect(ledger.state.open.isEmpty)
    }

    @Test("the stored state reads back as written")
    func stateRoundTrip() throws {
        var state = NotifyState()
        state.open = [NotifyState.Open(id: 42, alert: Self.dueAt8(iron: true), helper: 4242), NotifyState.Open(id: 43, alert: Self.dueAt8())]
        var late = Self.dueAt8()
        late.kind = .late
        late.reminder = true
        late.doses[0].dose = "100 mg"
        state.snoozed = [NotifyState.Snoozed(at: Sim.t("2026-11-22T10:12:00+09:00"), alert: late)]
        let text = try state.encoded()
        #expect(try NotifyState.decoded(text) == state)
        #expect(text.contains("\"slot\":\"2026-11-22T08:00\""))
        #expect(throws: (any Error).self) { try NotifyState.decoded(#"{"open":[{"id":1,"alert":{"kind":"due","scheduled":0,"reminder":false,"doses":[{"medicationID":1,"slot":"25:00","medication":"A"}]}}],"snoozed":[]}"#) }
    }
}
