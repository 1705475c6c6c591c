import DoseCore
import Foundation
import Testing

@Suite struct LocalDateTests {
    @Test func roundTripsAndWeekdays() {
        let d = Fx.date("2026-11-22")
        #expect(d.description == "2026-11-22")
        #expect(d.weekday == .sunday)
        #expect(Fx.date("1970-01-01").dayNumber == 0)
        #expect(Fx.date("2024-02-29").adding(days: 1).description == "2024-03-01")
        #expect(Fx.date("2026-01-31").adding(months: 1).description == "2026-02-28")
        #expect(Fx.date("2024-01-31").adding(months: 1).description == "2024-02-29")
        #expect(Fx.date("2026-12-15").adding(months: 2).description == "2027-02-15")
    }

    @Test(arguments: ["2026-02-30", "2026-13-01", "26-01-01", "2026-1-01", "", "2026-01-01x", "abcd-ef-gh"])
    func rejectsBadDates(_ s: String) { #expect(LocalDate(s) == nil) }

    @Test(arguments: ["25:00", "24:00", "12:60", "1200", "12:5", "-1:00", "", "ab:cd", "08:00:00"])
    func rejectsBadTimes(_ s: String) { #expect(LocalTime(s) == nil) }

    @Test func parsesTimes() {
        #expect(LocalTime("8:05")?.description == "08:05")
        #expect(LocalTime("23:59")?.minuteOfDay == 1439)
    }
}

@Suite struct ZoneTests {
    let ny = Fx.zone("America/New_York")

    @Test func springForwardMovesMissingTimeByTheGap() {
        // 2026-03-08: 02:00 EST jumps to 03:00 EDT; 02:30 does not exist and happens at 03:30 EDT.
        let t = ny.instant(Fx.date("2026-03-08"), Fx.time("02:30"))
        #expect(ISO8601.format(t, offset: ny.offset(at: t)) == "2026-03-08T03:30:00-04:00")
        let before = ny.instant(Fx.date("2026-03-08"), Fx.time("01:30"))
        #expect(ISO8601.format(before, offset: ny.offset(at: before)) == "2026-03-08T01:30:00-05:00")
    }

    @Test func fallBackPicksTheFirstOccurrence() {
        // 2026-11-01: 01:00–02:00 happens twice; 01:30 means the first (EDT).
        let t = ny.instant(Fx.date("2026-11-01"), Fx.time("01:30"))
        #expect(ISO8601.format(t, offset: ny.offset(at: t)) == "2026-11-01T01:30:00-04:00")
        let after = ny.instant(Fx.date("2026-11-01"), Fx.time("02:30"))
        #expect(ISO8601.format(after, offset: ny.offset(at: after)) == "2026-11-01T02:30:00-05:00")
    }

    @Test func hoursOfDstDays() {
        #expect(ny.hours(of: Fx.date("2026-03-08")).count == 23)
        #expect(ny.hours(of: Fx.date("2026-11-01")).count == 25)
        #expect(ny.hours(of: Fx.date("2026-11-22")).count == 24)
        #expect(Fx.zone("Asia/Seoul").hours(of: Fx.date("2026-11-22")).count == 24)
        #expect(ny.endOfDay(Fx.date("2026-03-08")).timeIntervalSince(ny.startOfDay(Fx.date("2026-03-08"))) == 23 * 3600)
        #expect(ny.endOfDay(Fx.date("2026-11-01")).timeIntervalSince(ny.startOfDay(Fx.date("2026-11-01"))) == 25 * 3600)
    }

    @Test func seoulHasNoDst() {
        let seoul = Fx.zone("Asia/Seoul")
        let t = seoul.instant(Fx.date("2026-11-22"), Fx.time("08:00"))
        #expect(ISO8601.format(t, offset: seoul.offset(at: t)) == "2026-11-22T08:00:00+09:00")
        #expect(seoul.date(of: Fx.instant("2026-11-21T15:00:00Z")) == Fx.date("2026-11-22"))
        #expect(seoul.date(of: Fx.instant("2026-11-21T14:59:59Z")) == Fx.date("2026-11-21"))
    }

    @Test func lordHoweHalfHourShift() {
        let lh = Fx.zone("Australia/Lord_Howe")
        // DST starts first Sunday of October 2026 (Oct 4): 02:00 → 02:30.
        let day = Fx.date("2026-10-04")
        let hours = lh.hours(of: day)
        #expect(hours.count == 23) // 02:00 does not exist that day
        #expect(lh.endOfDay(day).timeIntervalSince(lh.startOfDay(day)) == 23.5 * 3600)
        let t = lh.instant(day, Fx.time("02:15"))
        #expect(ISO8601.format(t, offset: lh.offset(at: t)) == "2026-10-04T02:45:00+11:00")
    }

    @Test func iso8601ParsesAndRejects() {
        #expect(ISO8601.parse("2026-11-22T08:30:00+09:00") == Fx.instant("2026-11-21T23:30:00Z"))
        #expect(ISO8601.parse("2026-11-22T08:30+0900") == Fx.instant("2026-11-21T23:30:00Z"))
        #expect(ISO8601.parse("2026-11-22T08:30:00.250Z")!.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0.25)
        #expect(ISO8601.parse("2026-11-22T08:30:00") == nil)
        #expect(ISO8601.parse("yesterday") == nil)
        #expect(ISO8601.parse("2026-11-22T25:30:00Z") == nil)
    }
}
