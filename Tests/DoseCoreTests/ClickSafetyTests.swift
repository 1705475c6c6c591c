import DoseCore
import Foundation
import Testing

/// A click never takes a dose before its window; a slot is taken once whatever the clock says (issue 42).
@Suite("click safety")
struct ClickSafetyTests {
    static let met = Fx.med(1, "Metformin", at: ["08:00", "20:00"], from: "2026-11-20")
    static let war = Fx.med(2, "Warfarin", at: ["18:00"], from: "2026-11-20")
    /// Yesterday settled, so nothing is carried.
    static let yesterday = [Fx.taken(1, "2026-11-21", "08:00", at: "2026-11-21T08:00:00+09:00"),
                            Fx.taken(1, "2026-11-21", "20:00", at: "2026-11-21T20:00:00+09:00"),
                            Fx.taken(2, "2026-11-21", "18:00", at: "2026-11-21T18:00:00+09:00")]

    @Test("take --next takes a slot from T − W on, not a second before")
    func windowEdge() {
        // Warfarin 18:00, W = 2 h: its window opens at 16:00:00.
        let plan = Fx.plan("2026-11-22", [Self.met, Self.war],
                           Self.yesterday + [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:01:00+09:00")])
        let edge = Fx.instant("2026-11-22T16:00:00+09:00")
        #expect(DoseResolver.dueSlots(plan: plan, now: edge, next: true).map { "\($0.medication.name) \($0.key.time)" } == ["Warfarin 18:00"])
        #expect(DoseResolver.dueSlots(plan: plan, now: edge.addingTimeInterval(-1), next: true).isEmpty)
        // Without --next, an upcoming slot is never taken, window or not.
        #expect(DoseResolver.dueSlots(plan: plan, now: edge, next: false).isEmpty)
    }

    @Test("a click with nothing open names the next dose and how to take it early on purpose")
    func nothingDueNamesTheNext() throws {
        let plan = Fx.plan("2026-11-22", [Self.met, Self.war],
                           Self.yesterday + [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:01:00+09:00")])
        let now = Fx.instant("2026-11-22T08:01:00+09:00")
        for next in [true, false] {
            #expect(throws: DosebarError.badData(
                "nothing is due now; next: Warfarin at 18:00 — to take it early on purpose: 'dosebar take Warfarin --slot 18:00'")) {
                try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [Self.met, Self.war], at: nil, now: now, next: next)
            }
        }
        // With everything of the day resolved, the next dose is tomorrow's (no --slot hint: a day to come cannot be named).
        let done = Fx.plan("2026-11-22", [Self.war], Self.yesterday + [Fx.taken(2, "2026-11-22", "18:00", at: "2026-11-22T18:00:00+09:00")])
        let tomorrow = Fx.plan("2026-11-23", [Self.war], carry: false)
        #expect(throws: DosebarError.badData("nothing is due now; next: Warfarin tomorrow at 18:00")) {
            try DoseResolver.targets(names: [], taking: true, plan: done, following: { tomorrow }, medications: [Self.war], at: nil,
                                     now: Fx.instant("2026-11-22T19:00:00+09:00"), next: true)
        }
        let ko = Catalog.korean
        #expect(throws: DosebarError.badData(
            "지금 복용할 약이 없습니다. 다음: 18:00 Warfarin — 일부러 미리 복용하려면: 'dosebar take Warfarin --slot 18:00'")) {
            try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [Self.met, Self.war], at: nil, now: now, next: true,
                                     catalog: ko)
        }
    }

    @Test("a slot taken at 10:05 is not open at 08:05 (a clock stepped back): named take, skip and clicks refuse")
    func clockBack() throws {
        let war = Fx.med(2, "Warfarin", at: ["08:00"], from: "2026-11-20")
        let events = [Fx.taken(2, "2026-11-21", "08:00", at: "2026-11-21T08:00:00+09:00"),
                      Fx.taken(2, "2026-11-22", "08:00", at: "2026-11-22T10:05:00+09:00")]
        let plan = Fx.plan("2026-11-22", [war], events)
        let back = Fx.instant("2026-11-22T08:05:00+09:00")
        let refusal = DosebarError.badData("Warfarin: the 08:00 dose was taken at 10:05 — 'dosebar undo Warfarin' first to record it again")
        #expect(throws: refusal) { try DoseResolver.target(for: war, plan: plan, now: back, allowExtra: true) }
        #expect(throws: DosebarError.self) { try DoseResolver.skipTarget(for: war, plan: plan, now: back) }
        for next in [true, false] {
            #expect(DoseResolver.dueSlots(plan: plan, now: back, next: next).isEmpty)
            #expect(throws: DosebarError.self) {
                try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [war], at: nil, now: back, next: next)
            }
        }
        // Within the window before a slot taken "later": the early take is refused too, not recorded twice.
        let evening = Fx.med(3, "Evening", at: ["20:00"], from: "2026-11-20")
        let late = Fx.plan("2026-11-22", [evening], [Fx.taken(3, "2026-11-21", "20:00", at: "2026-11-21T20:00:00+09:00"),
                                                     Fx.taken(3, "2026-11-22", "20:00", at: "2026-11-22T19:55:00+09:00")])
        #expect(throws: DosebarError.badData("Evening: the 20:00 dose was taken at 19:55 — 'dosebar undo Evening' first to record it again")) {
            try DoseResolver.target(for: evening, plan: late, now: Fx.instant("2026-11-22T19:45:00+09:00"), allowExtra: true)
        }
        #expect(DoseResolver.dueSlots(plan: late, now: Fx.instant("2026-11-22T19:45:00+09:00"), next: true).isEmpty)
    }
}
