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
}

/// An event source that jumps the clock to the deadline, or to the next scripted event when that
/// comes first.
final class SimSource: DaemonEventSource {
    let clock: SimClock
    var script: [SimEvent]
    /// Every deadline the loop slept until, and what woke it.
    var sleeps: [(deadline: Date?, woke: [DaemonWake], at: Date)] = []

    init(clock: SimClock, script: [SimEvent]) {
        self.clock = clock
        self.script = script // in the order given: after a clock step, instants go backwards
    }

    func wait(until deadline: Date?) throws -> [DaemonWake] {
        if let next = script.first, deadline == nil || next.at <= deadline! {
            script.removeFirst()
            clock.now = max(clock.now, next.at)
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

/// Keys claimed by "sent" notifications: what the store's notified table keeps across restarts.
final class SimLedger {
    var keys: [String: Date] = [:]
}

/// The store, shared directory and notification server of a simulated user.
final class SimHost: DaemonHost {
    let zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
    var medications: [Medication]
    var events: [DoseEvent] = []
    let ledger: SimLedger
    var lastText: String?
    var refreshes: [Date] = []
    var days: [LocalDate] = []
    var nudges = 0
    var shown: [(at: Date, alert: DoseAlert)] = []
    var withdrawn: [Set<SlotKey>] = []
    var recorded: [(AlertAnswer.Choice, [SlotKey], Date)] = []
    var statuses: [(String, Bool)] = []
    var warnings: [String] = []
    var failRefresh = false
    var stopped = false
    var reloads = 0

    init(medications: [Medication], ledger: SimLedger = SimLedger()) {
        self.medications = medications
        self.ledger = ledger
    }

    func plan(_ now: Date) -> DayPlan {
        let date = zone.date(of: now)
        return DayPlan(date: date, medications: medications, events: events.filter { $0.slot?.date == date }, zone: zone)
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
        return DaemonDay(timeline: timeline, slots: plan.slots, changed: changed)
    }

    func reloadConfig() throws { reloads += 1 }
    func nudgeBars(changed: [String]) { nudges += 1 }
    func claimAlertKeys(_ keys: [String], now: Date) throws -> Set<String> {
        var claimed = Set<String>()
        for k in keys where ledger.keys[k] == nil { ledger.keys[k] = now; claimed.insert(k) }
        return claimed
    }
    func alertKeyWasClaimed(_ key: String) throws -> Bool { ledger.keys[key] != nil }
    func show(_ alert: DoseAlert, now: Date) { shown.append((now, alert)) }
    func withdrawAlerts(unresolved: Set<SlotKey>) { withdrawn.append(unresolved) }
    func record(_ choice: AlertAnswer.Choice, slots: [SlotKey], now: Date) throws {
        recorded.append((choice, slots, now))
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
        let source = SimSource(clock: clock, script: script)
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
        #expect(stats.wakeups == timerWakes.count + 2)
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
        #expect(stats.wakeups == 2) // the 14:00 entry, then the stop
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
        ])
        let loop = DaemonLoop(clock: clockRef, source: source, host: host, notifying: true)
        try loop.run()
        // After the step back to 07:00 the next wake was planned for 07:00's next entry (08:00 is after 07:20, so
        // the suspend came first), not 10:00.
        let afterBack = source.sleeps[1]
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
        ])
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
        ])
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
        // Before anything is due, and after the day ended (missed), nothing is owed.
        #expect(DoseAlert.owed(slots: plan.slots, now: Sim.t("2026-11-22T06:59:00+09:00")) { _ in false }.isEmpty)
        #expect(DoseAlert.owed(slots: plan.slots, now: Sim.t("2026-11-23T00:00:00+09:00")) { _ in false }.isEmpty)
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
        let (stats, _, _) = try Sim.run(host: host, from: "2026-11-22T12:00:00+09:00", script: [
            SimEvent(at: Sim.t("2026-11-22T12:10:00+09:00"), wake: .reloadConfig),
            SimEvent(at: Sim.t("2026-11-22T12:20:00+09:00"), wake: .report),
            SimEvent(at: Sim.t("2026-11-22T12:30:00+09:00"), wake: .stop),
        ])
        #expect(host.reloads == 1)
        #expect(host.refreshes.count == 2)
        #expect(stats.wakeups == 3)
    }
}
