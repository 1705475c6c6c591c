@testable import DoseDaemon
import DoseCore
import Foundation
import Testing

/// DESIGN §5 (issue 46): a reminder nobody answers comes again every `--repeat` (per medicine;
/// `[notify] repeat` as the default, off by default) until the dose is taken, skipped, snoozed or
/// closed, in place of its own last notification (never a second one on screen); a snooze moves
/// the next one; across a restart nothing is shown twice for one repeat. `--urgent` medicines are
/// critical from the first reminder. (All of it fails on the code before: no request ever came
/// again before the late transition, and no alert carried urgency.)
@Suite("Daemon loop: repeated and urgent reminders, simulated")
struct DaemonRepeatTests {
    static func at(_ hhmm: String) -> Date { Sim.t("2026-11-22T\(hhmm):00+09:00") }

    /// Warfarin at 08:00, repeating every `every` minutes (nil: the default), and Vitamin D at 21:00.
    static func meds(every: Int?, urgent: Bool = false) -> [Medication] {
        var warfarin = Sim.med(1, "Warfarin", ["08:00"])
        warfarin.repeatMinutes = every
        warfarin.urgent = urgent
        return [warfarin, Sim.med(3, "Vitamin D", ["21:00"])]
    }

    /// The requests about Warfarin's 08:00 slot (reminders, not feedback), in order.
    static func warfarin(_ host: SimHost) -> [(at: Date, alert: DoseAlert, replacing: UInt32?)] {
        host.requests.filter { $0.alert.doses.contains { $0.medication == "Warfarin" } && !$0.alert.kind.isFeedback }
    }

    @Test("unanswered: shown again every 10 minutes in its own place until taken; the loop wakes exactly then")
    func repeatsUntilTaken() throws {
        let host = SimHost(medications: Self.meds(every: 10))
        let (_, source, _) = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [
            SimEvent(at: Self.at("08:25"), wake: .dataChanged) { host.take(1, "2026-11-22", "08:00", at: Self.at("08:25")) },
            SimEvent(at: Self.at("09:30"), wake: .stop),
        ])
        let shown = Self.warfarin(host)
        #expect(shown.map(\.at) == [Self.at("08:00"), Self.at("08:10"), Self.at("08:20")], "\(shown.map(\.at))")
        let first = try #require(host.shown.first { $0.alert.kind == .due }?.alert)
        #expect(first.repeatMinutes == 10)
        // Every repeat replaces the first notification's id: one on screen, never stacked.
        #expect(shown.dropFirst().allSatisfy { $0.replacing == 1 && $0.alert.reminder }, "\(shown)")
        #expect(source.sleeps.contains { $0.at == Self.at("08:10") && $0.woke == [.deadline] })
        // Taken at 08:25: nothing after it, and no wake-up at 08:30 for a repeat.
        #expect(!source.sleeps.contains { $0.at == Self.at("08:30") })
        #expect(ledgerRepeats(host).isEmpty)
    }

    /// Warfarin's 08:00 reminder as the loop first shows it (what an answer or a close names).
    static let firstAlert = DoseAlert(kind: .due, scheduled: at("08:00"),
                                      doses: [.init(slot: SlotKey(medicationID: 1, date: LocalDate("2026-11-22")!, time: LocalTime("08:00")!),
                                                    medication: "Warfarin", dose: nil)], repeatMinutes: 10)

    @Test("closed by the person, or skipped: no repeat after it", arguments: [false, true])
    func closedOrSkipped(skip: Bool) throws {
        let host = SimHost(medications: Self.meds(every: 10))
        let answer: DaemonWake = skip ? .answered(AlertAnswer(alert: Self.firstAlert, choice: .skip, id: 1)) : .closed(Self.firstAlert, id: 1)
        _ = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [
            SimEvent(at: Self.at("08:06"), wake: answer),
            SimEvent(at: Self.at("09:30"), wake: .stop),
        ])
        #expect(Self.warfarin(host).map(\.at) == [Self.at("08:00")], "\(Self.warfarin(host).map(\.at))")
        #expect(host.shown.first?.alert == Self.firstAlert, "the alert this test answers is the one shown")
        #expect(ledgerRepeats(host).isEmpty)
    }

    @Test("a snooze moves the next one: the reminder at the snooze's end, then every 10 minutes from it")
    func snoozeMoves() throws {
        let host = SimHost(medications: Self.meds(every: 10))
        _ = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [
            SimEvent(at: Self.at("08:04"), wake: .answered(AlertAnswer(alert: Self.firstAlert, choice: .snooze, id: 1))),
            SimEvent(at: Self.at("08:30"), wake: .stop),
        ])
        // Not at 08:10 (the snooze answered it): 08:14 (the snooze's end), then 08:24.
        #expect(Self.warfarin(host).map(\.at) == [Self.at("08:00"), Self.at("08:14"), Self.at("08:24")],
                "\(Self.warfarin(host).map(\.at))")
        // The one after the snooze is a new notification (the first was answered); its repeat takes its place.
        #expect(Self.warfarin(host).map(\.replacing) == [nil, nil, 2])
    }

    @Test("across a restart (clean or kill -9) nothing is shown twice for one repeat", arguments: [false, true])
    func restart(crash: Bool) throws {
        let ledger = SimLedger()
        let first = SimHost(medications: Self.meds(every: 10), ledger: ledger)
        let end = crash ? SimEvent.crash(at: Self.at("08:12")) : SimEvent(at: Self.at("08:12"), wake: .stop)
        do {
            _ = try Sim.run(host: first, from: "2026-11-22T07:55:00+09:00", script: [end])
        } catch is SimCrash {}
        #expect(Self.warfarin(first).map(\.at) == [Self.at("08:00"), Self.at("08:10")])
        let second = SimHost(medications: Self.meds(every: 10), ledger: ledger)
        second.nextID = 2
        _ = try Sim.run(host: second, from: "2026-11-22T08:13:00+09:00", script: [SimEvent(at: Self.at("08:31"), wake: .stop)])
        let again = Self.warfarin(second)
        if crash {
            // Its notification is taken over in place (its actions must reach this process), and that
            // counts as the repeat: the next comes 10 minutes later, not also at 08:20.
            #expect(again.map(\.at) == [Self.at("08:13"), Self.at("08:23")], "\(again.map(\.at))")
            #expect(again.allSatisfy { $0.replacing == 1 })
        } else {
            // A clean stop closed it; the next repeat was kept: shown at 08:20 as it would have been,
            // then every 10 minutes from it (its transition is not announced again at 08:13).
            #expect(again.map(\.at) == [Self.at("08:20"), Self.at("08:30")], "\(again.map(\.at))")
        }
    }

    @Test("[notify] repeat is the default; a medicine's own --repeat wins, and --repeat off never repeats",
          arguments: [(nil as Int?, 15 as Int?, [0, 15, 30]), (5, 15, [0, 5, 10, 15, 20, 25, 30]), (0, 15, [0]), (nil, nil, [0])])
    func defaults(own: Int?, configured: Int?, minutes: [Int]) throws {
        let host = SimHost(medications: Self.meds(every: own))
        host.repeatDefault = configured
        _ = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [SimEvent(at: Self.at("08:31"), wake: .stop)])
        let expected = minutes.map { Self.at("08:00").addingTimeInterval(TimeInterval($0) * 60) }
        #expect(Self.warfarin(host).map(\.at) == expected, "\(Self.warfarin(host).map(\.at))")
    }

    @Test("a repeat that finds the dose late shows it as late, and stands for the late transition")
    func turnsLate() throws {
        let host = SimHost(medications: Self.meds(every: 60))
        _ = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [SimEvent(at: Self.at("10:30"), wake: .stop)])
        let shown = Self.warfarin(host)
        let lateAt = try #require(shown.first { $0.alert.kind == .late }?.at)
        // One request per instant: the late transition was not also sent on its own beside a repeat.
        #expect(Set(shown.map(\.at)).count == shown.count, "\(shown.map { ($0.at, $0.alert.kind) })")
        #expect(shown.filter { $0.at >= lateAt }.allSatisfy { $0.alert.kind == .late })
    }

    @Test("--urgent: the first reminder is already urgent; a missed notice carries no repeat")
    func urgent() throws {
        let host = SimHost(medications: Self.meds(every: nil, urgent: true))
        _ = try Sim.run(host: host, from: "2026-11-22T07:55:00+09:00", script: [SimEvent(at: Self.at("08:05"), wake: .stop)])
        let due = try #require(Self.warfarin(host).first)
        #expect(due.alert.kind == .due && due.alert.urgent == true)
        let plain = SimHost(medications: Self.meds(every: nil))
        _ = try Sim.run(host: plain, from: "2026-11-22T07:55:00+09:00", script: [SimEvent(at: Self.at("08:05"), wake: .stop)])
        #expect(Self.warfarin(plain).first?.alert.urgent == nil)
    }

    @Test("the stored state keeps when the next repeat is due, and an older daemon's state (without it) still reads")
    func storedState() throws {
        var state = NotifyState()
        let alert = DoseAlert(kind: .due, scheduled: Self.at("08:00"),
                              doses: [.init(slot: SlotKey(medicationID: 1, date: LocalDate("2026-11-22")!, time: LocalTime("08:00")!),
                                            medication: "Warfarin", dose: nil)], urgent: true, repeatMinutes: 10)
        state.open = [NotifyState.Open(id: 7, alert: alert, helper: 99, repeatAt: Self.at("08:10"))]
        #expect(try NotifyState.decoded(try state.encoded()) == state)
        let older = #"{"open":[{"id":7,"alert":{"kind":"due","scheduled":1795302000,"doses":[{"medicationID":1,"slot":"2026-11-22T08:00","medication":"Warfarin"}],"reminder":false}}],"snoozed":[]}"#
        let read = try NotifyState.decoded(older)
        #expect(read.open.first?.repeatAt == nil && read.open.first?.alert.repeatMinutes == nil)
    }

    /// The repeats still planned in the stored state.
    private func ledgerRepeats(_ host: SimHost) -> [Date] { host.ledger.state.open.compactMap(\.repeatAt) }
}
