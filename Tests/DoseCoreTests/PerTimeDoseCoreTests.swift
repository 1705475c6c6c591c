@testable import DoseCore
import Testing

/// A different amount per dose time (`--at 20:00,22:30 --per-dose 0.5,1`, issue 46): pairing what
/// was typed, the canonical stored form, a slot's amount and a day's sum.
@Suite struct PerTimeDoseCoreTests {
    let t2000 = LocalTime(hour: 20, minute: 0)!, t2230 = LocalTime(hour: 22, minute: 30)!, t0800 = LocalTime(hour: 8, minute: 0)!

    @Test("amounts pair with the times as typed, not as sorted; the medicine's per_dose is the earliest time's")
    func pairsAsTyped() throws {
        let paired = try PerTimeDose.pair([Amount(units: 1), Amount(hundredths: 50)], with: [t2230, t2000])
        #expect(paired.perDose == Amount(hundredths: 50))
        #expect(paired.perTime == [TimedAmount(time: t2000, amount: Amount(hundredths: 50)), TimedAmount(time: t2230, amount: Amount(units: 1))])
    }

    @Test("one amount is every time's; equal amounts are no list; a repeated time with its one amount counts once")
    func collapses() throws {
        #expect(try PerTimeDose.pair([Amount(units: 2)], with: [t2000, t2230]) == (Amount(units: 2), nil))
        #expect(try PerTimeDose.pair([Amount(units: 1), Amount(units: 1)], with: [t2000, t2230]) == (Amount(units: 1), nil))
        let repeated = try PerTimeDose.pair([Amount(units: 1), Amount(units: 2), Amount(units: 1)], with: [t0800, t2000, t0800])
        #expect(repeated.perTime?.map(\.time) == [t0800, t2000])
    }

    @Test("a list of another length than the times, or one time with two amounts, is refused")
    func refuses() {
        #expect(throws: PerTimeDose.Refusal.count(amounts: 3, times: 2)) {
            try PerTimeDose.pair([1, 2, 3], with: [t2000, t2230])
        }
        #expect(throws: PerTimeDose.Refusal.count(amounts: 2, times: 0)) { try PerTimeDose.pair([1, 2], with: []) }
        #expect(throws: PerTimeDose.Refusal.conflict(t2000)) { try PerTimeDose.pair([1, 2], with: [t2000, t2000]) }
    }

    @Test("a slot's amount is its time's; no slot (as needed) or a time not listed: the one amount; a day: the sum")
    func slotAmountAndDaySum() throws {
        let list = [TimedAmount(time: t2000, amount: Amount(hundredths: 50)), TimedAmount(time: t2230, amount: Amount(units: 1))]
        let d = Dosing(text: nil, perDose: Amount(hundredths: 50), perTime: list)
        #expect(d.amount(at: t2000) == Amount(hundredths: 50))
        #expect(d.amount(at: t2230) == Amount(units: 1))
        #expect(d.amount(at: nil) == Amount(hundredths: 50))
        #expect(d.amount(at: t0800) == Amount(hundredths: 50))
        #expect(d.sum(over: [t2000, t2230]) == Amount(hundredths: 150))
        #expect(Dosing(text: nil, perDose: Amount(hundredths: 50)).sum(over: [t2000, t2230]) == Amount(units: 1))
    }

    @Test("days left come from the day's sum of amounts, and a version keeps its own amounts (the past keeps theirs)")
    func daysLeftAndVersions() throws {
        let start = LocalDate(year: 2026, month: 12, day: 1)!, change = LocalDate(year: 2026, month: 12, day: 10)!
        let s = Schedule(recurrence: .daily, times: [t2000, t2230], start: start)
        let list = [TimedAmount(time: t2000, amount: Amount(hundredths: 50)), TimedAmount(time: t2230, amount: Amount(units: 1))]
        let m = Medication(id: 1, name: "Melatonin", stock: Amount(units: 9), perDose: Amount(hundredths: 50), versions: [
            ScheduleVersion(effective: start, schedule: s, dosing: Dosing(text: nil, perDose: Amount(hundredths: 50), perTime: list)),
            ScheduleVersion(effective: change, schedule: s, dosing: Dosing(text: nil, perDose: Amount(units: 1))),
        ])
        // 9 ÷ 1.5 a day = 6 days; from the 10th, 9 ÷ 2 = 4 days.
        #expect(SnapshotBuilder.stock(of: m, on: start)?.daysLeft == 6)
        #expect(SnapshotBuilder.stock(of: m, on: change)?.daysLeft == 4)
        #expect(m.on(start).perDose(at: t2230) == Amount(units: 1))
        #expect(m.on(change.adding(days: -1)).perDose(at: t2000) == Amount(hundredths: 50))
        #expect(m.on(change).perDose(at: t2000) == Amount(units: 1) && m.on(change).perDoseTimes == nil)
    }

    @Test("the stored form is read back only when canonical", arguments: [
        ("20:00=0.5,22:30=1", true),
        ("22:30=1,20:00=0.5", false),   // unsorted
        ("20:00=0.5,20:00=1", false),   // a time twice
        ("20:00=0.50,22:30=1", false),  // not the plain decimal
        ("20:00=1,22:30=1", false),     // one amount for all: no list
        ("20:00=0.5", false),           // one time
        ("20:00=0,22:30=1", false),     // below the range
        ("20:00=0.5, 22:30=1", false),  // a space
        ("20:00=0.5,22:30=", false),
        ("8:00=0.5,22:30=1", false),    // not HH:MM
    ])
    func canonical(_ text: String, _ valid: Bool) {
        #expect((PerTimeDose.parse(text) != nil) == valid, "\(text)")
        if valid, let list = PerTimeDose.parse(text) { #expect(PerTimeDose.text(list) == text) }
    }

    @Test("a version's amounts must name exactly its schedule's times")
    func fieldRules() {
        let s = Schedule(recurrence: .daily, times: [t2000, t2230], start: LocalDate(year: 2026, month: 12, day: 1)!)
        let good = [TimedAmount(time: t2000, amount: Amount(hundredths: 50)), TimedAmount(time: t2230, amount: Amount(units: 1))]
        let other = [TimedAmount(time: t0800, amount: Amount(hundredths: 50)), TimedAmount(time: t2230, amount: Amount(units: 1))]
        func version(_ list: [TimedAmount]) -> ScheduleVersion {
            ScheduleVersion(effective: s.start, schedule: s, dosing: Dosing(text: nil, perDose: list[0].amount, perTime: list))
        }
        #expect(throws: Never.self) { try FieldRules.scheduleVersion(version(good)) }
        #expect(throws: FieldRules.Violation.self) { try FieldRules.scheduleVersion(version(other)) }
        #expect(throws: FieldRules.Violation.self) {
            try FieldRules.scheduleVersion(version([good[0], TimedAmount(time: t2230, amount: Amount(units: 5_000))]))
        }
    }
}
