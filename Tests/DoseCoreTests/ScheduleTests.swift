import DoseCore
import Testing

@Suite struct ScheduleTests {
    func days(_ r: Recurrence, from: String, _ range: ClosedRange<Int>, until: String? = nil) -> [String] {
        let s = Schedule(recurrence: r, times: [Fx.time("08:00")], start: Fx.date(from), until: until.map(Fx.date))
        return range.map { Fx.date(from).adding(days: $0) }.filter { s.occurs(on: $0) }.map(\.description)
    }

    @Test func daily() {
        #expect(days(.daily, from: "2026-11-20", -2...2) == ["2026-11-20", "2026-11-21", "2026-11-22"])
    }

    @Test func weekdays() {
        // 2026-11-23 is a Monday.
        #expect(days(.weekdays([.monday, .friday]), from: "2026-11-23", 0...6) == ["2026-11-23", "2026-11-27"])
    }

    @Test func everyNDaysAndWeeks() {
        #expect(days(.everyDays(3), from: "2026-11-01", 0...9) == ["2026-11-01", "2026-11-04", "2026-11-07", "2026-11-10"])
        #expect(days(.everyWeeks(2), from: "2026-11-01", 0...29) == ["2026-11-01", "2026-11-15", "2026-11-29"])
    }

    @Test func everyMonthClampsToMonthEnd() {
        let got = days(.everyMonths(1), from: "2026-01-31", 0...130)
        #expect(got == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
        #expect(days(.everyMonths(2), from: "2026-01-15", 0...100) == ["2026-01-15", "2026-03-15"])
    }

    @Test func cycleWithRestDays() {
        let s = Schedule(recurrence: .cycle(active: 21, rest: 7), times: [Fx.time("22:00")], start: Fx.date("2026-11-01"))
        #expect(s.cyclePosition(on: Fx.date("2026-11-01")) == CyclePosition(phase: .active, day: 1, length: 21))
        #expect(s.cyclePosition(on: Fx.date("2026-11-21")) == CyclePosition(phase: .active, day: 21, length: 21))
        #expect(s.cyclePosition(on: Fx.date("2026-11-22")) == CyclePosition(phase: .rest, day: 1, length: 7))
        #expect(s.cyclePosition(on: Fx.date("2026-11-28")) == CyclePosition(phase: .rest, day: 7, length: 7))
        #expect(s.cyclePosition(on: Fx.date("2026-11-29")) == CyclePosition(phase: .active, day: 1, length: 21))
        #expect(s.occurs(on: Fx.date("2026-11-21")))
        #expect(!s.occurs(on: Fx.date("2026-11-22")))
        #expect(s.cyclePosition(on: Fx.date("2026-10-31")) == nil)
    }

    @Test func untilIsInclusive() {
        #expect(days(.daily, from: "2026-11-20", 0...5, until: "2026-11-22") == ["2026-11-20", "2026-11-21", "2026-11-22"])
    }

    @Test func asNeededHasNoSlots() {
        #expect(days(.asNeeded(maxPerDay: 3, minInterval: 3600), from: "2026-11-20", 0...3).isEmpty)
    }

    @Test func versionsApplyFromTheirEffectiveDate() {
        var m = Fx.med(1, "A", at: ["08:00"], from: "2026-11-01")
        m.versions.append(ScheduleVersion(effective: Fx.date("2026-11-20"), schedule: Schedule(
            recurrence: .daily, times: [Fx.time("09:00")], start: Fx.date("2026-11-01"))))
        #expect(m.schedule(on: Fx.date("2026-11-19"))?.times == [Fx.time("08:00")])
        #expect(m.schedule(on: Fx.date("2026-11-20"))?.times == [Fx.time("09:00")])
        #expect(m.schedule(on: Fx.date("2026-10-31")) == nil)
        m.archivedOn = Fx.date("2026-11-22")
        #expect(m.schedule(on: Fx.date("2026-11-21")) != nil)
        #expect(m.schedule(on: Fx.date("2026-11-22")) == nil)
    }
}

@Suite struct InputParserTests {
    @Test func durations() throws {
        #expect(try InputParser.duration("2h") == 7200)
        #expect(try InputParser.duration("90m") == 5400)
        #expect(try InputParser.duration("1h30m") == 5400)
        // A bare number names no unit: refused with the fix, but 0 (the same in every unit).
        #expect(throws: DosebarError.usage("--window: '45' needs a unit: 45m for minutes, 45h for hours")) {
            try InputParser.duration("45")
        }
        #expect(try InputParser.duration("0") == 0)
    }

    @Test(arguments: ["", "h", "2x", "-5", "1h30", "99999999999999999999h", "8d", "ten"])
    func badDurations(_ s: String) {
        #expect(throws: DosebarError.self) { try InputParser.duration(s) }
    }

    @Test(arguments: ["0d", "0w", "-1d", "3x", "d", "400d"])
    func badEvery(_ s: String) {
        #expect(throws: DosebarError.self) { try InputParser.every(s) }
    }

    @Test(arguments: ["0/7", "21", "21/-1", "a/b", "21/7/1", "/7"])
    func badCycles(_ s: String) {
        #expect(throws: DosebarError.self) { try InputParser.cycle(s) }
    }

    @Test func goodInputs() throws {
        #expect(try InputParser.every("3d") == .everyDays(3))
        #expect(try InputParser.cycle("21/7") == .cycle(active: 21, rest: 7))
        #expect(try InputParser.times("21:00,08:00,08:00") == [Fx.time("08:00"), Fx.time("21:00")])
        #expect(try InputParser.weekdays("mon,Wed,friday") == [.monday, .wednesday, .friday])
        #expect(throws: DosebarError.self) { try InputParser.times("25:00") }
        #expect(throws: DosebarError.self) { try InputParser.weekdays("mon,funday") }
    }
}
