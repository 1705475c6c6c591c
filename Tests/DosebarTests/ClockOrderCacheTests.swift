import Foundation
import Testing

/// The per-day summaries behind the streak and `missed_yesterday` never disagree with `history`,
/// whichever order the clock visited the days in (issue 42: a `status` with the clock a day ahead,
/// then a take at the real time).
@Suite struct ClockOrderCacheTests {
    func messageIDs(_ snapshot: [String: Any]) -> [String] {
        ((snapshot["messages"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test("a day summarised with the clock ahead is judged again after a take at an earlier clock")
    func clockAheadThenBack() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Metformin", "--at", "08:00", "--from", "2026-11-22")
        // The clock a day ahead: 11-22 is finished there, its 08:00 dose missed, and summarised.
        try h.ok("status", now: "2026-11-23T09:00:00+09:00")
        // Back at the real time: the dose is taken on its day.
        try h.ok("take", "Metformin", now: "2026-11-22T08:05:00+09:00")

        let next = try h.today(at: "2026-11-23T09:30:00+09:00")
        #expect(!messageIDs(next).contains("missed_yesterday"), "yesterday's dose was taken: \(messageIDs(next))")
        let streak = (next["streak"] as? [String: Any]) ?? [:]
        #expect(streak["current"] as? Int == 1, "the streak counts 11-22: \(streak)")

        let history = try h.ok("history", "--from", "2026-11-22", "--to", "2026-11-22", "--json",
                               now: "2026-11-23T09:30:00+09:00").json as? [[String: Any]] ?? []
        #expect(history.first?["state"] as? String == "done")
        // And the day after, the streak still agrees with history.
        let later = try h.today(at: "2026-11-23T07:00:00+09:00")
        #expect(((later["streak"] as? [String: Any])?["current"] as? Int) == 1)
    }

    @Test("several days summarised ahead, then doses taken on each of them at their own time")
    func manyDaysAheadThenBack() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-22")
        try h.ok("today", now: "2026-11-26T09:00:00+09:00")
        for day in 22...24 { try h.ok("take", "Aspirin", now: "2026-11-\(day)T08:10:00+09:00") }
        try h.ok("today", now: "2026-11-24T12:00:00+09:00")
        let snapshot = try h.today(at: "2026-11-25T07:00:00+09:00")
        #expect(((snapshot["streak"] as? [String: Any])?["current"] as? Int) == 3, "\(snapshot["streak"] ?? "")")
        #expect(!messageIDs(snapshot).contains("missed_yesterday"))
    }
}
