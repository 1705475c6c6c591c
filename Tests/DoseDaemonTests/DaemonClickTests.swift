@testable import DoseDaemon
import DoseCore
import Foundation
import Testing

/// What the simulated store knows of clicks: doses recorded without a terminal, the refusal a
/// click that took nothing left, the Undos of their confirmations, and `[notify] clicks`.
struct SimClicks {
    var enabled = true
    /// The refusal a click left (``DaemonHost/takeClickRefusal(now:)`` takes it once).
    var refusal: String?
    /// Events reverted by an Undo, in the order asked.
    var undone: [Int64] = []
    var undos: [[Int64]] = []
}

extension SimHost {
    var confirmsClicks: Bool { clicks.enabled }

    func lastEventID() throws -> Int64 { events.map(\.id).max() ?? 0 }

    func clickTakes(after id: Int64) throws -> [ClickTake] {
        events.filter { $0.id > id && $0.origin == .click && $0.kind == .taken && !clicks.undone.contains($0.id) }.map { e in
            let name = medications.first { $0.id == e.medicationID }?.name ?? "?"
            return ClickTake(event: e.id, dose: DoseAlert.Dose(slot: e.slot!, medication: name, dose: nil), loggedAt: e.loggedAt)
        }
    }

    func undo(events ids: [Int64], now: Date) throws {
        clicks.undos.append(ids)
        clicks.undone += ids.filter { id in events.contains { $0.id == id } && !clicks.undone.contains(id) }
    }

    func takeClickRefusal(now: Date) -> String? {
        defer { clicks.refusal = nil }
        return clicks.refusal
    }

    /// A bar click (no terminal) takes a dose: the event carries origin `click`. Returns its id.
    @discardableResult
    func click(_ id: Int64, _ date: String, _ time: String, at: Date) -> Int64 {
        let slot = SlotKey(medicationID: id, date: LocalDate(date)!, time: LocalTime(time)!)
        let eventID = (events.map(\.id).max() ?? 0) + 1
        events.append(DoseEvent(id: eventID, medicationID: id, kind: .taken, slot: slot, at: at, loggedAt: at, origin: .click))
        return eventID
    }
}

/// DESIGN §2: the daemon with `--notify` confirms each dose recorded without a terminal, with an
/// Undo of exactly that event, once (also across restarts); a click that recorded nothing gets
/// what is next; `[notify] clicks = false` turns both off. (All of it fails on the code before
/// origins: no confirmation was ever shown.)
@Suite("Daemon loop: feedback on clicks, simulated")
struct DaemonClickTests {
    static func at(_ hhmm: String) -> Date { Sim.t("2026-11-22T\(hhmm):00+09:00") }

    static func confirmations(_ host: SimHost) -> [DoseAlert] { host.shown.map(\.alert).filter { $0.kind == .took } }

    @Test("a click's take is confirmed once with Undo; Undo reverts exactly it after more was recorded; a terminal's take is not confirmed")
    func confirmAndUndo() throws {
        let ledger = SimLedger()
        let meds = Sim.meds + [Sim.med(4, "Warfarin", ["08:00"])]
        let host = SimHost(medications: meds, ledger: ledger)
        var first: Int64 = 0
        var confirmation: DoseAlert?
        _ = try Sim.run(host: host, from: "2026-11-22T07:50:00+09:00", script: [
            SimEvent(at: Self.at("08:01"), wake: .dataChanged) { first = host.click(1, "2026-11-22", "08:00", at: Self.at("08:01")) },
            // In a terminal: recorded, not confirmed.
            SimEvent(at: Self.at("08:02"), wake: .dataChanged) { host.take(2, "2026-11-22", "08:00", at: Self.at("08:02")) },
            // A second click takes Warfarin: its own confirmation.
            SimEvent(at: Self.at("08:03"), wake: .dataChanged) { host.click(4, "2026-11-22", "08:00", at: Self.at("08:03")) },
            SimEvent(at: Self.at("08:04"), wake: .report) { confirmation = Self.confirmations(host).first },
            SimEvent(at: Self.at("08:30"), wake: .stop),
        ])
        let shown = Self.confirmations(host)
        #expect(shown.map { $0.doses.map(\.medication) } == [["Aspirin"], ["Warfarin"]], "\(shown)")
        #expect(shown.first?.events == [first])
        #expect(ledger.keys["took:\(first)"] != nil, "claimed once the server took it")
        let alert = try #require(confirmation)

        // Undo, in a second run (the same store): exactly the first event goes.
        let clock = SimClock(Self.at("08:31"))
        let source = SimSource(clock: clock, script: [
            SimEvent(at: Self.at("08:32"), wake: .answered(AlertAnswer(alert: alert, choice: .undo, id: 1))),
            SimEvent(at: Self.at("08:40"), wake: .stop),
        ], server: host)
        host.shown.removeAll()
        try DaemonLoop(clock: clock, source: source, host: host, notifying: true).run()
        #expect(host.clicks.undos == [[first]])
        #expect(host.clicks.undone == [first], "Magnesium and Warfarin stay")
        // The restart at 08:31 showed no confirmation again.
        #expect(Self.confirmations(host).isEmpty, "\(host.shown)")
        #expect(ledger.state.open.isEmpty)
    }

    @Test("never twice: a restart (clean or kill -9) does not confirm again; a click from before the first daemon is not news", arguments: [false, true])
    func restarts(crash: Bool) throws {
        let ledger = SimLedger()
        let first = SimHost(medications: Sim.meds, ledger: ledger)
        // A click before any daemon ran.
        first.click(1, "2026-11-22", "08:00", at: Self.at("08:01"))
        let end = crash ? SimEvent.crash(at: Self.at("08:20")) : SimEvent(at: Self.at("08:20"), wake: .stop)
        do {
            _ = try Sim.run(host: first, from: "2026-11-22T08:02:00+09:00", script: [
                SimEvent(at: Self.at("08:05"), wake: .dataChanged) { first.click(2, "2026-11-22", "08:00", at: Self.at("08:05")) },
                end,
            ])
        } catch is SimCrash {}
        #expect(Self.confirmations(first).map { $0.doses.map(\.medication) } == [["Magnesium"]])
        let second = SimHost(medications: Sim.meds, ledger: ledger)
        second.events = first.events
        second.nextID = 5
        _ = try Sim.run(host: second, from: "2026-11-22T08:21:00+09:00", script: [SimEvent(at: Self.at("08:40"), wake: .stop)])
        let again = second.requests.filter { $0.alert.kind == .took }
        if crash {
            // Its notification is taken over in place (its Undo must reach this process), not shown as new.
            let open = ledger.state.open.first { $0.alert.kind == .took }
            #expect(again.count == 1 && again.first?.replacing != nil, "\(second.requests)")
            #expect(open == nil || open?.id == again.first?.replacing)
        } else {
            #expect(again.isEmpty, "\(second.requests)")
        }
    }

    @Test("a confirmation no server took is shown when one appears, while the take is fresh")
    func serverLater() throws {
        let host = SimHost(medications: Sim.meds)
        host.serverUpFrom = Self.at("08:04")
        _ = try Sim.run(host: host, from: "2026-11-22T07:58:00+09:00", script: [
            SimEvent(at: Self.at("08:01"), wake: .dataChanged) { host.click(1, "2026-11-22", "08:00", at: Self.at("08:01")) },
            SimEvent(at: Self.at("08:30"), wake: .stop),
        ])
        #expect(Self.confirmations(host).count == 1)
        #expect(host.shown.first { $0.alert.kind == .took }.map { $0.at >= Self.at("08:04") } == true)
    }

    @Test("a click that recorded nothing gets a notification saying what it was told")
    func refusal() throws {
        let host = SimHost(medications: Sim.meds)
        let text = "nothing to take now; next: Vitamin D at 21:00 (take \"Vitamin D\" --slot 21:00 to take it early)"
        _ = try Sim.run(host: host, from: "2026-11-22T12:00:00+09:00", script: [
            SimEvent(at: Self.at("12:01"), wake: .clickRefused) { host.clicks.refusal = text },
            SimEvent(at: Self.at("12:02"), wake: .clickRefused),
            SimEvent(at: Self.at("12:30"), wake: .stop),
        ])
        let nothing = host.shown.map(\.alert).filter { $0.kind == .nothing }
        #expect(nothing.count == 1 && nothing.first?.note == text, "\(host.shown)")
        #expect(host.clicks.refusal == nil, "read once")
    }

    @Test("[notify] clicks = false: no confirmation, no refusal notice; without --notify neither")
    func turnedOff() throws {
        for (enabled, notify) in [(false, true), (true, false)] {
            let host = SimHost(medications: Sim.meds)
            host.clicks.enabled = enabled
            _ = try Sim.run(host: host, from: "2026-11-22T07:58:00+09:00", script: [
                SimEvent(at: Self.at("08:01"), wake: .dataChanged) { host.click(1, "2026-11-22", "08:00", at: Self.at("08:01")) },
                SimEvent(at: Self.at("08:02"), wake: .clickRefused) { host.clicks.refusal = "nothing to take" },
                SimEvent(at: Self.at("08:30"), wake: .stop),
            ], notify: notify)
            #expect(!host.requests.contains { $0.alert.kind.isFeedback }, "\(host.requests)")
            #expect(host.clicks.refusal == nil, "consumed all the same")
        }
    }
}
