@testable import DoseDaemon
import DoseCore
import Foundation
import Testing

/// The words of the daemon's notifications (DoseDaemon).
@Suite("Daemon notification text")
struct DaemonNotificationTextTests {
    let zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
    let day = LocalDate("2026-11-22")!

    func alert(_ kind: DoseAlert.Kind, _ names: [(String, String?)], reminder: Bool = false) -> DoseAlert {
        DoseAlert(kind: kind, scheduled: Sim.t("2026-11-22T08:00:00+09:00"),
                  doses: names.enumerated().map { i, n in
                      DoseAlert.Dose(slot: SlotKey(medicationID: Int64(i + 1), date: day, time: LocalTime("08:00")!), medication: n.0, dose: n.1)
                  }, reminder: reminder)
    }

    @Test("English: due names every medicine with its dose; late says how late")
    func english() {
        let due = NotificationText(alert(.due, [("Aspirin", "100 mg"), ("Magnesium", nil)]), zone: zone,
                                   now: Sim.t("2026-11-22T08:00:00+09:00"), catalog: .english)
        #expect(due.summary == "Time for Aspirin, Magnesium")
        #expect(due.body == "08:00 · Aspirin 100 mg, Magnesium")
        #expect(AlertAnswer.Choice.offered(for: .due).map(due.label) == ["Taken", "Snooze 10 min", "Skip"])
        let late = NotificationText(alert(.late, [("Aspirin", nil)], reminder: true), zone: zone,
                                    now: Sim.t("2026-11-22T10:05:00+09:00"), catalog: .english)
        #expect(late.summary == "Reminder: Aspirin is late")
        #expect(late.body == "Due at 08:00, 2h 5m ago · Aspirin")
    }

    @Test("a dose taken twice: the double_dose words, one action that confirms both, in both languages")
    func double() {
        var a = alert(.double, [("Warfarin", "5 mg")])
        a.takes = ["desktop 08:00", "laptop 08:10"]
        let en = NotificationText(a, zone: zone, now: Sim.t("2026-11-22T09:00:00+09:00"), catalog: .english)
        #expect(en.summary == "Warfarin 08:00 taken twice: desktop 08:00, laptop 08:10")
        #expect(en.body.contains("dosebar undo Warfarin"))
        #expect(AlertAnswer.Choice.offered(for: .double).map(en.label) == ["Both taken"])
        let ko = NotificationText(a, zone: zone, now: Sim.t("2026-11-22T09:00:00+09:00"), catalog: .korean)
        #expect(ko.summary == "Warfarin 08:00 두 번 복용됨: desktop 08:00, laptop 08:10")
        #expect(AlertAnswer.Choice.offered(for: .double).map(ko.label) == ["둘 다 복용함"])
    }

    @Test("Korean")
    func korean() {
        let due = NotificationText(alert(.due, [("아스피린", "100mg")]), zone: zone, now: Sim.t("2026-11-22T08:00:00+09:00"), catalog: .korean)
        #expect(due.summary == "복용 시간: 아스피린")
        #expect(AlertAnswer.Choice.offered(for: .due).map(due.label) == ["복용함", "10분 뒤 다시", "건너뛰기"])
        let late = NotificationText(alert(.late, [("아스피린", nil)]), zone: zone, now: Sim.t("2026-11-22T10:00:00+09:00"), catalog: .korean)
        #expect(late.summary == "복용이 늦었어요: 아스피린")
        #expect(late.body == "08:00 예정, 2시간 지남 · 아스피린")
    }

    @Test("a click's confirmation names each dose with its time and offers Undo; a click that took nothing says what it was told")
    func clicks() {
        var took = alert(.took, [("Metformin", "500 mg"), ("Aspirin", nil)])
        took.events = [7, 8]
        let en = NotificationText(took, zone: zone, now: Sim.t("2026-11-22T08:01:00+09:00"), catalog: .english)
        #expect(en.summary == "Took Metformin 500 mg (08:00), Aspirin (08:00)")
        #expect(en.label(.undo) == "Undo")
        let ko = NotificationText(took, zone: zone, now: Sim.t("2026-11-22T08:01:00+09:00"), catalog: .korean)
        #expect(ko.summary == "복용 기록: Metformin 500 mg (08:00), Aspirin (08:00)")
        #expect(ko.label(.undo) == "되돌리기")
        let nothing = DoseAlert(kind: .nothing, scheduled: Sim.t("2026-11-22T08:01:00+09:00"), doses: [],
                                note: "nothing to take now; next: Warfarin at 18:00")
        let n = NotificationText(nothing, zone: zone, now: Sim.t("2026-11-22T08:01:00+09:00"), catalog: .english)
        #expect(n.summary == "Nothing taken" && n.body == "nothing to take now; next: Warfarin at 18:00")
        #expect(took.keys == ["took:7", "took:8"] && nothing.keys.isEmpty && took.slots.isEmpty)
    }

    @Test("names reach the body as text, not markup")
    func markup() {
        let t = NotificationText(alert(.due, [("Fish <oil> & D", nil)]), zone: zone, now: Sim.t("2026-11-22T08:00:00+09:00"), catalog: .english)
        #expect(t.body == "08:00 · Fish &lt;oil&gt; &amp; D")
    }
}
