import Foundation
import Testing

/// `today --json`'s `week` through the binary (DESIGN §3 History, §4): a week of takes, skips and
/// misses recorded with real commands, read at fixed instants (DOSEBAR_NOW, TZ) across a DST day
/// and across midnight.
@Suite struct TodayWeekTests {
    /// `[day: state]` pairs of `today --json`'s week, oldest first.
    func week(_ h: Harness, at now: String) throws -> [String] {
        let days = (try h.today(at: now)["week"] as? [[String: String]]) ?? []
        return days.map { "\($0["day"] ?? "?") \($0["state"] ?? "?")" }
    }

    /// New York, the week ending on the spring-forward Sunday 2026-03-08, then the Monday after.
    @Test func aWeekAcrossTheSpringForwardDayAndMidnight() throws {
        let h = Harness(tz: "America/New_York", now: "2026-03-02T07:00:00-05:00")
        try h.ok("add", "Night", "--at", "08:00,21:00", "--from", "2026-03-02")
        try h.ok("take", "Night", "--at", "08:05", now: "2026-03-02T22:00:00-05:00")
        try h.ok("take", "Night", "--at", "21:05", now: "2026-03-02T22:00:00-05:00")        // 2nd: done
        try h.ok("take", "Night", "--at", "08:05", now: "2026-03-03T22:00:00-05:00")        // 3rd: 21:00 missed
        // 4th: nothing taken.
        try h.ok("skip", "Night", "--at", "08:05", now: "2026-03-05T22:00:00-05:00")
        try h.ok("skip", "Night", "--at", "21:05", now: "2026-03-05T22:00:00-05:00")        // 5th: all skipped
        try h.ok("take", "Night", "--at", "08:05", now: "2026-03-06T22:00:00-05:00")
        try h.ok("skip", "Night", "--at", "21:05", now: "2026-03-06T22:00:00-05:00")        // 6th: taken + skipped
        try h.ok("take", "Night", "--at", "08:05", now: "2026-03-07T22:00:00-05:00")
        try h.ok("take", "Night", "--at", "21:05", now: "2026-03-07T22:00:00-05:00")        // 7th: done

        try h.ok("take", "Night", "--at", "08:05", now: "2026-03-08T12:00:00-04:00")
        let past = ["2026-03-02 done", "2026-03-03 partial", "2026-03-04 missed", "2026-03-05 skipped",
                    "2026-03-06 done", "2026-03-07 done"]
        #expect(try week(h, at: "2026-03-08T12:00:00-04:00") == past + ["2026-03-08 pending"])
        #expect(try week(h, at: "2026-03-08T00:30:00-05:00") == past + ["2026-03-08 pending"], "before the change")

        try h.ok("take", "Night", "--at", "21:05", now: "2026-03-08T21:10:00-04:00")
        #expect(try week(h, at: "2026-03-08T23:59:00-04:00") == past + ["2026-03-08 done"])
        // Past midnight the strip moves on a day; the 8th keeps its final state.
        #expect(try week(h, at: "2026-03-09T00:00:00-04:00") == Array(past.dropFirst()) + ["2026-03-08 done", "2026-03-09 pending"])
    }

    /// Seoul (no DST), a 2/1 cycle: the rest days show as rest, today too; the fall-back Sunday of
    /// New York is an ordinary day here.
    @Test func restDaysOfACycleInSeoul() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-10-26T07:00:00+09:00")
        try h.ok("add", "Pill", "--at", "09:00", "--cycle", "2/1", "--from", "2026-10-26")
        for day in ["2026-10-26", "2026-10-27", "2026-10-29", "2026-10-30"] {
            try h.ok("take", "Pill", "--at", "09:05", now: day + "T10:00:00+09:00")
        }
        // Active 26, 27, rest 28, active 29, 30, rest 31, active 1 and 2 Nov, rest 3 Nov.
        #expect(try week(h, at: "2026-11-01T08:00:00+09:00")
                == ["2026-10-26 done", "2026-10-27 done", "2026-10-28 rest", "2026-10-29 done", "2026-10-30 done",
                    "2026-10-31 rest", "2026-11-01 pending"])
        // 11-01's 09:00 closed at min(11-02 09:00 − 2 h, …) = 11-02 07:00: missed. 11-02's 09:00 has no
        // next slot before 11-04 09:00, so it closes at max(11:00, min(11-04 07:00, 11-02 09:00 + 24 h))
        // = 11-03 09:00 (DESIGN §3): at 08:00 on the rest day it is still open, 11-02 pending.
        let before = ["2026-10-28 rest", "2026-10-29 done", "2026-10-30 done", "2026-10-31 rest", "2026-11-01 missed"]
        #expect(try week(h, at: "2026-11-03T08:00:00+09:00") == before + ["2026-11-02 pending", "2026-11-03 rest"])
        #expect(try week(h, at: "2026-11-03T09:00:00+09:00") == before + ["2026-11-02 missed", "2026-11-03 rest"])
    }
}
