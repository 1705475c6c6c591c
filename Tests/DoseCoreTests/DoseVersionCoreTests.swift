import DoseCore
import Foundation
import Testing

/// Dose versions (`ScheduleVersion.dosing`) and a skip decided after its dose closed, in DoseCore:
/// the dose of each day, and the `decided_after_close` flag through the ledger and its cache.
@Suite struct DoseVersionCoreTests {
    /// 08:00 daily from 11-01, 500 mg; 1000 mg (2 units) from 11-05; a version from before doses were
    /// versioned (no dosing) reads the medicine's.
    func metformin(legacyFirst: Bool = false) -> Medication {
        var m = Fx.med(1, "Metformin", at: ["08:00"], from: "2026-11-01")
        m.dose = "500 mg"
        let s = m.versions[0].schedule
        m.versions = [ScheduleVersion(effective: Fx.date("2026-11-01"), schedule: s,
                                      dosing: legacyFirst ? nil : Dosing(text: "500 mg", perDose: 1)),
                      ScheduleVersion(effective: Fx.date("2026-11-05"), schedule: s, dosing: Dosing(text: "1000 mg", perDose: 2))]
        return m
    }

    @Test("each day has the dose of its version; a version without one has the medicine's")
    func dosingOnADay() {
        for legacy in [false, true] {
            let m = metformin(legacyFirst: legacy)
            #expect(m.dosing(on: Fx.date("2026-11-04")) == Dosing(text: "500 mg", perDose: 1))
            #expect(m.dosing(on: Fx.date("2026-11-05")) == Dosing(text: "1000 mg", perDose: 2))
            #expect(m.on(Fx.date("2026-11-04")).perDose == 1 && m.on(Fx.date("2026-11-09")).dose == "1000 mg")
            #expect(m.dosings(in: Fx.date("2026-11-02")...Fx.date("2026-11-08")).map { "\($0.days.lowerBound)…\($0.days.upperBound) \($0.dosing.text!)" }
                    == ["2026-11-02…2026-11-04 500 mg", "2026-11-05…2026-11-08 1000 mg"])
        }
        // No version with a dose: the medicine as it is.
        let plain = Fx.med(2, "Aspirin", from: "2026-11-01")
        #expect(plain.on(Fx.date("2026-11-04")) == plain)
    }

    @Test("the plan's slots carry the dose of their day, a carried one yesterday's")
    func planAndLedger() {
        var m = metformin()
        m.versions = m.versions.map { var v = $0; v.schedule.times = [Fx.time("22:00")]; return v }
        let plan = Fx.plan("2026-11-05", [m])
        #expect(plan.slots.map(\.medication.dose) == ["1000 mg"])
        #expect(plan.carried.map(\.medication.dose) == ["500 mg"], "11-04 22:00 still open after midnight")
        let ledger = HistoryLedger(days: Fx.date("2026-11-03")...Fx.date("2026-11-06"), medications: [m], events: [], zone: Fx.zone("Asia/Seoul"),
                                   now: Fx.instant("2026-11-07T12:00:00+09:00"))
        #expect(ledger.slots.map { $0.dose ?? "" } == ["500 mg", "500 mg", "1000 mg", "1000 mg"])
    }

    @Test("a skip recorded after the cut-off is marked, one before it is not; the day is done either way; the cache keeps the mark")
    func decidedAfterClose() throws {
        let a = Fx.med(1, "Aspirin", at: ["08:00"], from: "2026-11-01")
        let b = Fx.med(2, "Zinc", at: ["20:00"], from: "2026-11-01")
        // 11-02 08:00 closes at 11-03 06:00 (the next dose's window): skipped at 11-03 09:00.
        let events = [Fx.taken(1, "2026-11-02", "08:00", at: "2026-11-03T09:00:00+09:00", kind: .skipped),
                      Fx.taken(2, "2026-11-02", "20:00", at: "2026-11-02T20:05:00+09:00"),
                      Fx.taken(1, "2026-11-03", "08:00", at: "2026-11-03T09:30:00+09:00", kind: .skipped),
                      Fx.taken(2, "2026-11-03", "20:00", at: "2026-11-03T20:05:00+09:00")]
        let l = HistoryLedger(days: Fx.date("2026-11-02")...Fx.date("2026-11-03"), medications: [a, b], events: events,
                              zone: Fx.zone("Asia/Seoul"), now: Fx.instant("2026-11-04T12:00:00+09:00"))
        #expect(l.slots.map(\.decidedAfterClose) == [true, false, false, false])
        #expect(l.dayRecords().map(\.state) == [.done, .done])
        #expect(l.dayRecords().map(\.decidedAfterClose) == [1, 0])
        // Through the cache's bytes and back.
        let outcome = try #require(l.fresh.first)
        #expect(outcome.slots.first?.decidedAfterClose == true)
        #expect(DayOutcome(bytes: outcome.bytes) == outcome)
        let cached = HistoryLedger(days: Fx.date("2026-11-02")...Fx.date("2026-11-03"), medications: [a, b], events: [],
                                   zone: Fx.zone("Asia/Seoul"), now: Fx.instant("2026-11-04T12:00:00+09:00"),
                                   known: Dictionary(uniqueKeysWithValues: l.fresh.map { ($0.date, DayOutcome(bytes: $0.bytes)!) }))
        #expect(cached.slots.map(\.decidedAfterClose) == [true, false, false, false])
    }
}
