import DoseCore
import Foundation
import Testing

/// The status table of DESIGN §3, one row at a time (Asia/Seoul, 08:00 slot, W = 2h).
@Suite struct StatusTests {
    let aspirin = Fx.med(1, "Aspirin")

    func status(_ now: String, events: [DoseEvent] = []) -> SlotStatus {
        Fx.plan("2026-11-22", [aspirin], events).slots[0].status(at: Fx.instant(now))
    }

    @Test func unresolvedSlotMovesUpcomingDueLateMissed() {
        #expect(status("2026-11-22T07:59:59+09:00") == .upcoming)
        #expect(status("2026-11-22T08:00:00+09:00") == .due)
        #expect(status("2026-11-22T09:59:59+09:00") == .due)
        #expect(status("2026-11-22T10:00:00+09:00") == .late)
        #expect(status("2026-11-22T23:59:59+09:00") == .late)
        // The cut-off (DESIGN §3): C = max(T + W, min(T′ − W, T + 24 h)), T′ = tomorrow's 08:00:
        // max(10:00, min(06:00 on the 23rd, 08:00 on the 23rd)) = 06:00 on the 23rd. Late past midnight until then.
        #expect(status("2026-11-23T00:00:00+09:00") == .late)
        #expect(status("2026-11-23T05:59:59+09:00") == .late)
        #expect(status("2026-11-23T06:00:00+09:00") == .missed)
    }

    @Test func takenGradesByWindow() {
        let now = "2026-11-22T23:00:00+09:00"
        #expect(status(now, events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T06:00:00+09:00")]) == .taken)
        #expect(status(now, events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T05:59:59+09:00")]) == .takenEarly)
        #expect(status(now, events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T10:00:00+09:00")]) == .taken)
        #expect(status(now, events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T10:00:01+09:00")]) == .takenLate)
        #expect(status(now, events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:30:00+09:00", kind: .skipped)]) == .skipped)
    }

    @Test("the late grades begin at 2 h and 4 h, and the slot's transitions are at those instants")
    func lateGrades() {
        #expect(LateGrade(minutes: 0) == .late && LateGrade(minutes: 119) == .late)
        #expect(LateGrade(minutes: 120) == .twoHours && LateGrade(minutes: 239) == .twoHours)
        #expect(LateGrade(minutes: 240) == .fourHours && LateGrade(minutes: 100_000) == .fourHours)
        let slot = Fx.plan("2026-11-22", [aspirin], []).slots[0]
        #expect(slot.transitions.contains(Fx.instant("2026-11-22T10:00:00+09:00")), "2 h")
        #expect(slot.transitions.contains(Fx.instant("2026-11-22T12:00:00+09:00")), "4 h")
    }

    @Test("spans T ≤ t < C; opens within its window T − W ≤ t < T")
    func openAndOpening() {
        let slot = Fx.plan("2026-11-22", [aspirin], []).slots[0]
        #expect(!slot.spans(Fx.instant("2026-11-22T07:59:59+09:00")) && slot.spans(Fx.instant("2026-11-22T08:00:00+09:00")))
        #expect(slot.spans(Fx.instant("2026-11-23T05:59:59+09:00")) && !slot.spans(Fx.instant("2026-11-23T06:00:00+09:00")))
        #expect(!slot.opensWithinWindow(after: Fx.instant("2026-11-22T05:59:59+09:00")))
        #expect(slot.opensWithinWindow(after: Fx.instant("2026-11-22T06:00:00+09:00")))
        #expect(slot.opensWithinWindow(after: Fx.instant("2026-11-22T07:59:59+09:00")))
        #expect(!slot.opensWithinWindow(after: Fx.instant("2026-11-22T08:00:00+09:00")))
    }

    @Test func anEventCountsOnlyFromItsInstant() {
        let e = Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:30:00+09:00")
        #expect(status("2026-11-22T08:29:00+09:00", events: [e]) == .due)
        #expect(status("2026-11-22T08:30:00+09:00", events: [e]) == .taken)
    }

    /// The leaflet rule replaces "missed at midnight": a 23:00 dose (W = 2 h) stays open past midnight,
    /// C = max(T + 2 h, min(T′ − 2 h, T + 24 h)) with T′ = 23:00 on the 23rd: min(21:00, 23:00) = 21:00 on the 23rd.
    @Test func lateEveningSlotStaysOpenPastMidnightUntilTheNextDoseNears() {
        let m = Fx.med(2, "Magnesium", at: ["23:00"])
        let slot = Fx.plan("2026-11-22", [m]).slots[0]
        #expect(slot.cutoff == Fx.instant("2026-11-23T21:00:00+09:00"))
        #expect(slot.status(at: Fx.instant("2026-11-22T23:30:00+09:00")) == .due)
        #expect(slot.status(at: Fx.instant("2026-11-23T00:00:00+09:00")) == .due, "T + 1 h: still in its window")
        #expect(slot.status(at: Fx.instant("2026-11-23T01:00:00+09:00")) == .late)
        #expect(slot.status(at: Fx.instant("2026-11-23T20:59:59+09:00")) == .late)
        #expect(slot.status(at: Fx.instant("2026-11-23T21:00:00+09:00")) == .missed)
        // With a 30-minute window the 23:00 dose is late from 23:30 and closes at 22:30 on the 23rd (T′ − W).
        let tight = Fx.plan("2026-11-22", [Fx.med(2, "Magnesium", at: ["23:00"], window: 1800)]).slots[0]
        #expect(tight.status(at: Fx.instant("2026-11-23T00:00:00+09:00")) == .late)
        #expect(tight.cutoff == Fx.instant("2026-11-23T22:30:00+09:00"))
    }

    @Test func dstSpringForwardSlotAndEndOfDay() {
        let m = Fx.med(3, "Night", at: ["02:30", "23:30"])
        let plan = Fx.plan("2026-03-08", [m], tz: "America/New_York")
        #expect(plan.slots.count == 2)
        #expect(ISO8601.format(plan.slots[0].instant, offset: -4 * 3600) == "2026-03-08T03:30:00-04:00")
        #expect(plan.slots[0].status(at: Fx.instant("2026-03-08T03:29:00-04:00")) == .upcoming)
        #expect(plan.slots[0].status(at: Fx.instant("2026-03-08T03:30:00-04:00")) == .due)
        // 02:30 → 03:30 EDT (07:30Z); its next slot is 23:30 EDT (03:30Z on the 9th): C = max(09:30Z,
        // min(01:30Z on the 9th, 07:30Z on the 9th)) = 01:30Z on the 9th = 21:30 EDT on the 8th.
        #expect(plan.slots[0].cutoff == Fx.instant("2026-03-08T21:30:00-04:00"))
        // 23:30 EDT (03:30Z on the 9th); next: 02:30 on the 9th, which exists (06:30Z): min(T′ − 2 h = 04:30Z,
        // T + 24 h) = 04:30Z is before T + W = 05:30Z, so C = T + W = 01:30 EDT on the 9th.
        #expect(plan.slots[1].cutoff == Fx.instant("2026-03-09T01:30:00-04:00"))
        #expect(plan.slots[1].status(at: Fx.instant("2026-03-09T00:00:00-04:00")) == .due)
        #expect(plan.slots[1].status(at: Fx.instant("2026-03-09T01:29:59-04:00")) == .due)
        #expect(plan.slots[1].status(at: Fx.instant("2026-03-09T01:30:00-04:00")) == .missed)
    }

    @Test func dstFallBackSlotIsFirstOccurrence() {
        let m = Fx.med(4, "Early", at: ["01:30"])
        let plan = Fx.plan("2026-11-01", [m], tz: "America/New_York")
        #expect(plan.slots[0].status(at: Fx.instant("2026-11-01T01:29:00-04:00")) == .upcoming)
        #expect(plan.slots[0].status(at: Fx.instant("2026-11-01T01:30:00-04:00")) == .due)
        // The second 01:30 (EST) is an hour later: still due (window 2h), late at 03:30 EDT-equivalent.
        #expect(plan.slots[0].status(at: Fx.instant("2026-11-01T01:30:00-05:00")) == .due)
        #expect(plan.slots[0].status(at: Fx.instant("2026-11-01T02:30:00-05:00")) == .late)
    }

    @Test func archivedAndFutureMedicinesHaveNoSlots() {
        let archived = Fx.med(5, "Old", archivedOn: "2026-11-22")
        let future = Fx.med(6, "New", from: "2026-11-23")
        #expect(Fx.plan("2026-11-22", [archived, future]).slots.isEmpty)
        #expect(Fx.plan("2026-11-21", [archived, future]).slots.count == 1)
    }
}

@Suite struct UndoneEventTests {
    @Test func anUndoCancelsItsTargetInARawLog() {
        let m = Fx.med(1, "Aspirin")
        let take = Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:10:00+09:00")
        let undo = DoseEvent(id: take.id + 1, medicationID: 1, kind: .undone, slot: nil, at: Fx.instant("2026-11-22T08:20:00+09:00"),
                             loggedAt: Fx.instant("2026-11-22T08:20:00+09:00"), target: take.id)
        let now = Fx.instant("2026-11-22T09:00:00+09:00")
        #expect(Fx.plan("2026-11-22", [m], [take]).slots[0].status(at: now) == .taken)
        #expect(Fx.plan("2026-11-22", [m], [take, undo]).slots[0].status(at: now) == .due)
    }
}
