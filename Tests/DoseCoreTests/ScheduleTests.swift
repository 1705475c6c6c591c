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

    /// What follows a phase, at its boundaries (issue 46): 21/7 from Sunday 2026-11-01 has its active
    /// days 11-01…11-21, rest 11-22…11-28, the next cycle from 11-29 and its rest from 12-20.
    @Test func cycleTurnAtTheBoundaries() {
        let s = Schedule(recurrence: .cycle(active: 21, rest: 7), times: [Fx.time("22:00")], start: Fx.date("2026-11-01"))
        #expect(s.cycleTurn(after: Fx.date("2026-11-01")) == .next(phase: .rest, on: Fx.date("2026-11-22")))
        #expect(s.cycleTurn(after: Fx.date("2026-11-21")) == .next(phase: .rest, on: Fx.date("2026-11-22")), "the last active day")
        #expect(s.cycleTurn(after: Fx.date("2026-11-22")) == .next(phase: .active, on: Fx.date("2026-11-29")), "the first rest day")
        #expect(s.cycleTurn(after: Fx.date("2026-11-28")) == .next(phase: .active, on: Fx.date("2026-11-29")), "the last rest day")
        #expect(s.cycleTurn(after: Fx.date("2026-11-29")) == .next(phase: .rest, on: Fx.date("2026-12-20")), "day 1 of the next cycle")
        #expect(s.cycleTurn(after: Fx.date("2026-10-31")) == nil, "before the course")
        let daily = Schedule(recurrence: .daily, times: [Fx.time("08:00")], start: Fx.date("2026-11-01"))
        #expect(daily.cycleTurn(after: Fx.date("2026-11-05")) == nil)
    }

    /// 21/0 (allowed: rest 0…366): no rest, day 1 again the day after day 21.
    @Test func cycleTurnWithoutRestDays() {
        let s = Schedule(recurrence: .cycle(active: 21, rest: 0), times: [Fx.time("08:00")], start: Fx.date("2026-11-01"))
        #expect(s.cycleTurn(after: Fx.date("2026-11-21")) == .next(phase: .active, on: Fx.date("2026-11-22")))
        #expect(s.cycleTurn(after: Fx.date("2026-11-22")) == .next(phase: .active, on: Fx.date("2026-12-13")))
        #expect(s.cyclePosition(on: Fx.date("2026-11-22")) == CyclePosition(phase: .active, day: 1, length: 21))
    }

    /// A course with `until` (its last day, inclusive): the turn is the course's end when that comes first.
    @Test func cycleTurnOfACourseThatEnds() {
        func turn(until: String, on day: String) -> CycleTurn? {
            Schedule(recurrence: .cycle(active: 21, rest: 7), times: [Fx.time("22:00")], start: Fx.date("2026-11-01"),
                     until: Fx.date(until)).cycleTurn(after: Fx.date(day))
        }
        #expect(turn(until: "2026-11-21", on: "2026-11-10") == .courseEnds(on: Fx.date("2026-11-21")), "ends on the last active day")
        #expect(turn(until: "2026-11-22", on: "2026-11-21") == .next(phase: .rest, on: Fx.date("2026-11-22")), "lasts into the rest")
        #expect(turn(until: "2026-11-25", on: "2026-11-22") == .courseEnds(on: Fx.date("2026-11-25")), "ends within the rest")
        #expect(turn(until: "2026-11-29", on: "2026-11-28") == .next(phase: .active, on: Fx.date("2026-11-29")))
        #expect(turn(until: "2026-11-25", on: "2026-11-26") == nil, "after the course")
        #expect(turn(until: "2026-11-21", on: "2026-11-10")?.nextPhaseStart == nil)
        #expect(turn(until: "2026-11-22", on: "2026-11-21")?.nextPhaseStart == Fx.date("2026-11-22"))
    }

    /// Over many cycles and days, the turn agrees with ``Schedule/cyclePosition(on:)``: every day up to
    /// the turn is in the day's phase, counting on by one, and the turn's day is day 1 of the phase it names.
    @Test(arguments: [(21, 7), (3, 2), (1, 1), (5, 0), (1, 0), (366, 366)])
    func cycleTurnAgreesWithThePosition(active: Int, rest: Int) {
        let start = Fx.date("2026-01-01")
        let s = Schedule(recurrence: .cycle(active: active, rest: rest), times: [Fx.time("08:00")], start: start)
        for offset in 0..<(2 * (active + rest) + 3) {
            let day = start.adding(days: offset)
            guard let here = s.cyclePosition(on: day), case let .next(phase, first)? = s.cycleTurn(after: day) else {
                Issue.record("no position or turn on \(day)"); continue
            }
            #expect(first > day)
            for (i, d) in (0..<(first - day)).map({ day.adding(days: $0) }).enumerated() {
                #expect(s.cyclePosition(on: d) == CyclePosition(phase: here.phase, day: here.day + i, length: here.length))
            }
            #expect(s.cyclePosition(on: first)?.phase == phase && s.cyclePosition(on: first)?.day == 1, "\(active)/\(rest) on \(day)")
        }
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
