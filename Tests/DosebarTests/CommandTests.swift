import Foundation
import Testing

/// End-to-end scenarios of DESIGN §2–§3 against the built binary.
@Suite struct CommandTests {
    @Test func addListAndTakeADay() throws {
        let h = Harness()
        try h.ok("add", "Aspirin", "--at", "08:00", "--dose", "100 mg", "--stock", "30")
        try h.ok("add", "Magnesium", "--at", "21:00", "--days", "mon,wed,fri,sun", "--group", "evening")
        try h.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "2")
        let list = try h.ok("list", "--json").json as? [[String: Any]]
        #expect(list?.count == 3)
        // DESIGN §2's keys, issue 24's: the schedule as data, its words, what is still to come, and
        // issue 46's: how its reminders come, a cycle's day, the amount of each time (null: one amount).
        #expect(Set(list?.first?.keys.map { $0 } ?? []) == ["id", "name", "dose", "group", "schedule", "times", "stock", "per_dose", "archived",
                                                            "tracked_from", "schedule_text", "note", "low_days", "ended", "pending",
                                                            "urgent", "repeat_minutes", "cycle_phase", "cycle_day", "cycle_length", "cycle_next",
                                                            "per_dose_times"])
        #expect(list?.first?["per_dose_times"] is NSNull)
        #expect(list?[0]["times"] as? [String] == ["08:00"])
        #expect(list?[1]["group"] as? String == "evening")

        #expect(try h.statuses() == ["Aspirin:upcoming", "Magnesium:upcoming"])
        #expect(try h.statuses(at: "2026-11-22T08:30:00+09:00") == ["Aspirin:due", "Magnesium:upcoming"])
        #expect(try h.statuses(at: "2026-11-22T10:30:00+09:00") == ["Aspirin:late", "Magnesium:upcoming"])
        try h.ok("take", "asp", now: "2026-11-22T10:31:00+09:00")
        let s = try h.today(at: "2026-11-22T11:00:00+09:00")
        let doses = s["doses"] as! [[String: Any]]
        #expect(doses[0]["status"] as? String == "taken_late")
        #expect(doses[0]["taken_at"] as? String == "2026-11-22T10:31:00+09:00")
        #expect(doses[0]["scheduled"] as? String == "2026-11-22T08:00:00+09:00")
        #expect(s["day"] as? String == "2026-11-22")
        #expect(s["timezone"] as? String == "Asia/Seoul")
        let counts = s["counts"] as! [String: Int]
        #expect(counts == ["total": 2, "taken": 1, "skipped": 0, "due": 0, "late": 0, "missed": 0, "upcoming": 1, "carried": 0])
        let stock = (s["stock"] as! [[String: Any]])[0]
        #expect(stock["remaining"] as? Int == 29)

        // as-needed: extra doses up to the daily maximum.
        try h.ok("take", "Ibuprofen", now: "2026-11-22T11:00:00+09:00")
        try h.ok("take", "Ibuprofen", now: "2026-11-22T12:00:00+09:00")
        let third = try h.run("take", "Ibuprofen", now: "2026-11-22T13:00:00+09:00")
        #expect(third.status == 65)
        let asNeeded = (try h.today(at: "2026-11-22T13:00:00+09:00")["as_needed"] as! [[String: Any]])[0]
        #expect(asNeeded["taken_today"] as? Int == 2)
    }

    @Test func takeWithoutNameTakesEverythingDueAndNextTakesTheNext() throws {
        let h = Harness()
        try h.ok("add", "A", "--at", "08:00")
        try h.ok("add", "B", "--at", "08:00")
        try h.ok("add", "C", "--at", "12:00")
        let nothing = try h.run("take", now: "2026-11-22T07:00:00+09:00")
        #expect(nothing.status == 65)
        #expect(nothing.err.contains("next"))
        try h.ok("take", "--next", now: "2026-11-22T07:00:00+09:00")
        #expect(try h.statuses(at: "2026-11-22T07:01:00+09:00") == ["A:taken", "B:taken", "C:upcoming"])
        try h.ok("take", now: "2026-11-22T12:30:00+09:00")
        #expect(try h.statuses(at: "2026-11-22T12:31:00+09:00") == ["A:taken", "B:taken", "C:taken"])
    }

    @Test func takeNamePicksWithinTheWindowOrFails() throws {
        let h = Harness()
        try h.ok("add", "Aspirin", "--at", "08:00,20:00")
        // 06:30 is within the 2h window before 08:00: takes the 08:00 dose.
        try h.ok("take", "Aspirin", now: "2026-11-22T06:30:00+09:00")
        let early = try h.run("take", "Aspirin", now: "2026-11-22T07:00:00+09:00")
        #expect(early.status == 65)
        #expect(early.err.contains("20:00"))
        #expect(try h.statuses(at: "2026-11-22T07:00:00+09:00") == ["Aspirin:taken", "Aspirin:upcoming"])
    }

    @Test func backDatingUndoAndStock() throws {
        let h = Harness(now: "2026-11-22T12:00:00+09:00")
        // Added before the days it looks back on (tracked from 11-20 07:00), so 11-21's doses are tracked.
        try h.ok("add", "Aspirin", "--at", "08:00,20:00", "--stock", "10", "--per-dose", "2", "--from", "2026-11-20",
                 now: "2026-11-20T07:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "2026-11-21T20:10")
        try h.ok("take", "Aspirin", "--at", "08:05")
        #expect(try h.statuses() == ["Aspirin:taken", "Aspirin:upcoming"])
        // At 11-21 23:00 the 08:00 dose closed at max(10:00, min(20:00 − 2 h, 08:00 + 24 h)) = 18:00.
        #expect(try h.statuses(at: "2026-11-21T23:00:00+09:00") == ["Aspirin:missed", "Aspirin:taken"])
        func remaining() throws -> Int { ((try h.today()["stock"] as! [[String: Any]])[0]["remaining"] as! Int) }
        #expect(try remaining() == 6)
        try h.ok("undo")
        #expect(try remaining() == 8)
        #expect(try h.statuses() == ["Aspirin:late", "Aspirin:upcoming"])   // 08:00 open until 18:00
        try h.ok("undo", "Aspirin")
        #expect(try remaining() == 10)
        // 11-21 20:00 untaken: late from 22:00 until max(22:00, min(11-22 08:00 − 2 h, …)) = 11-22 06:00.
        #expect(try h.statuses(at: "2026-11-21T23:00:00+09:00") == ["Aspirin:missed", "Aspirin:late"])
        #expect(try h.today()["messages"].map { "\($0)" }?.contains("missed_yesterday") == true)
        #expect(try h.run("undo").status == 65)
        let future = try h.run("take", "Aspirin", "--at", "2026-11-22T20:00")
        #expect(future.status == 65)
        #expect(future.err.contains("future"))
        try h.ok("refill", "Aspirin", "5")
        #expect(try remaining() == 15)
        try h.ok("refill", "Aspirin", "--set", "3")
        #expect(try remaining() == 3)
    }

    @Test func skipIsResolvedAndNeutral() throws {
        let h = Harness(now: "2026-11-22T09:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")   // tracked before 08:00
        try h.ok("skip", "Aspirin")
        let s = try h.today()
        #expect(s["state"] as? String == "done")
        #expect((s["streak"] as! [String: Any])["today"] as? String == "none")
    }

    @Test func editTakesEffectFromADateAndNeverRewritesThePast() throws {
        let h = Harness(now: "2026-11-20T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-18")
        try h.ok("take", "Aspirin", now: "2026-11-20T08:05:00+09:00")
        try h.ok("edit", "Aspirin", "--at", "09:00", "--effective", "2026-11-21", now: "2026-11-20T08:10:00+09:00")
        let past = try h.today(at: "2026-11-20T23:00:00+09:00")
        let d = (past["doses"] as! [[String: Any]])[0]
        #expect(d["scheduled"] as? String == "2026-11-20T08:00:00+09:00")
        #expect(d["status"] as? String == "taken")
        let future = (try h.today(at: "2026-11-22T07:00:00+09:00")["doses"] as! [[String: Any]])[0]
        #expect(future["scheduled"] as? String == "2026-11-22T09:00:00+09:00")
        // Back in the past the old schedule still holds, and so does its streak.
        let streak = try h.today(at: "2026-11-22T07:00:00+09:00")["streak"] as! [String: Any]
        // 11-21 was missed: its 09:00 closed at max(11:00, min(11-22 09:00 − 2 h, 11-22 09:00)) = 11-22 07:00.
        #expect(streak["current"] as? Int == 0)
        try h.ok("edit", "Aspirin", "--rename", "Aspirin C", "--dose", "500 mg", now: "2026-11-22T07:00:00+09:00")
        let list = try h.ok("list", "--json", now: "2026-11-22T07:00:00+09:00").json as! [[String: Any]]
        #expect(list[0]["name"] as? String == "Aspirin C")
        #expect(list[0]["dose"] as? String == "500 mg")
        #expect(try h.run("edit", "Aspirin C").status == 64)
    }

    @Test func removeArchivesAndKeepsHistory() throws {
        let h = Harness(now: "2026-11-21T09:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-20")
        try h.ok("take", "Aspirin", "--at", "08:10")
        try h.ok("remove", "Aspirin", now: "2026-11-22T07:00:00+09:00")
        #expect(try h.statuses(at: "2026-11-22T07:00:00+09:00").isEmpty)
        #expect(try h.today(at: "2026-11-22T07:00:00+09:00")["state"] as? String == "empty")
        #expect(try h.statuses(at: "2026-11-21T23:00:00+09:00") == ["Aspirin:taken"])
        let all = try h.ok("list", "--all", "--json", now: "2026-11-22T07:00:00+09:00").json as! [[String: Any]]
        #expect(all.count == 1 && all[0]["archived"] as? Bool == true)
        #expect((try h.ok("list", "--json", now: "2026-11-22T07:00:00+09:00").json as! [Any]).isEmpty)
        // The name is free again.
        try h.ok("add", "Aspirin", "--at", "09:00", now: "2026-11-22T07:00:00+09:00")
    }

    @Test func namesMatchCaseInsensitivelyThenByUniquePrefix() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added before the 08:00 doses, so they are tracked (DESIGN §3 Tracking start).
        try h.ok("add", "Vitamin D", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Vitamin C", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "vit", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        let ambiguous = try h.run("take", "vita")
        #expect(ambiguous.status == 65)
        #expect(ambiguous.err.contains("Vitamin D") && ambiguous.err.contains("Vitamin C"))
        try h.ok("take", "VIT")            // whole name wins over prefixes
        try h.ok("take", "vitamin d")
        #expect(try h.statuses().sorted() == ["Vitamin C:due", "Vitamin D:taken", "vit:taken"])
        #expect(try h.run("take", "Nope").status == 65)
    }

    @Test func schedulesOfEveryKind() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")   // a Sunday
        try h.ok("add", "Daily", "--at", "08:00", "--from", "2026-11-01")
        try h.ok("add", "Weekdays", "--at", "08:00", "--days", "mon,tue")
        try h.ok("add", "Every3", "--at", "08:00", "--every", "3d", "--from", "2026-11-19")
        try h.ok("add", "Weekly", "--at", "08:00", "--every", "1w", "--from", "2026-11-15")
        try h.ok("add", "Monthly", "--at", "08:00", "--every", "1m", "--from", "2026-10-31")
        try h.ok("add", "Pill", "--at", "22:00", "--cycle", "21/7", "--from", "2026-11-01")
        try h.ok("add", "Course", "--at", "08:00", "--from", "2026-11-01", "--until", "2026-11-21")
        let names = try h.statuses().map { String($0.split(separator: ":")[0]) }
        #expect(names == ["Daily", "Every3", "Weekly"])
        let s = try h.today()
        #expect(s["state"] as? String == "upcoming")
        let cycle = (s["cycle"] as! [[String: Any]])[0]
        #expect(cycle["phase"] as? String == "rest" && cycle["day"] as? Int == 1 && cycle["length"] as? Int == 7)
        // Monthly from Oct 31 clamps to Nov 30.
        #expect(try h.statuses(at: "2026-11-30T07:00:00+09:00").contains("Monthly:upcoming"))
        #expect(try h.statuses(at: "2026-11-23T07:00:00+09:00").contains("Weekdays:upcoming"))
    }

    @Test func dstDaysInNewYork() throws {
        let h = Harness(tz: "America/New_York", now: "2026-03-07T12:00:00-05:00")
        try h.ok("add", "Night", "--at", "02:30,23:30")
        let spring = (try h.today(at: "2026-03-08T12:00:00-04:00")["doses"] as! [[String: Any]])
        #expect(spring.map { $0["scheduled"] as! String } == ["2026-03-08T03:30:00-04:00", "2026-03-08T23:30:00-04:00"])
        try h.ok("take", "Night", "--at", "2026-03-08T03:40", now: "2026-03-08T12:00:00-04:00")
        #expect(try h.statuses(at: "2026-03-08T12:00:00-04:00") == ["Night:taken", "Night:upcoming"])
        let fall = (try h.today(at: "2026-11-01T12:00:00-05:00")["doses"] as! [[String: Any]])
        #expect(fall.map { $0["scheduled"] as! String } == ["2026-11-01T02:30:00-05:00", "2026-11-01T23:30:00-05:00"])
        try h.ok("add", "Early", "--at", "01:30", now: "2026-10-31T12:00:00-04:00")
        // 00:30 EDT: Night's 10-31 23:30 dose is still due (T + W = 01:30 EDT) and listed first, carried.
        let first = (try h.today(at: "2026-11-01T00:30:00-04:00")["doses"] as! [[String: Any]])
        #expect(first.map { "\($0["medication"]!) \($0["day"]!) \($0["status"]!)" }
                == ["Night 2026-10-31 due", "Early 2026-11-01 upcoming", "Night 2026-11-01 upcoming", "Night 2026-11-01 upcoming"])
        // The repeated 01:30 is its first occurrence (EDT).
        #expect(first.first { $0["medication"] as? String == "Early" }?["scheduled"] as? String == "2026-11-01T01:30:00-04:00")
    }

    @Test func seoulMidnightBoundary() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-22T22:00:00+09:00")
        try h.ok("add", "Late", "--at", "23:00", "--from", "2026-11-22")
        #expect(try h.statuses(at: "2026-11-22T23:30:00+09:00") == ["Late:due"])
        #expect(try h.statuses(at: "2026-11-22T23:59:59+09:00") == ["Late:due"])
        // Midnight starts a new day, but the 22nd's 23:00 dose stays open (DESIGN §3): due until
        // T + W = 01:00, late until C = max(T + W, min(T′ − W, T + 24 h)) = max(11-23 01:00,
        // min(11-23 23:00 − 2 h, 11-23 23:00)) = 11-23 21:00, then missed. It is carried, listed first.
        let next = try h.today(at: "2026-11-23T00:00:00+09:00")
        #expect(next["day"] as? String == "2026-11-23")
        #expect(try h.statuses(at: "2026-11-23T00:00:00+09:00") == ["Late:due", "Late:upcoming"])
        #expect((next["counts"] as? [String: Any])?["carried"] as? Int == 1)
        #expect((next["counts"] as? [String: Any])?["total"] as? Int == 1, "counts are over today's slots only")
        func ids(_ at: String) throws -> [String] {
            ((try h.today(at: at)["messages"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try !ids("2026-11-23T00:00:00+09:00").contains("missed_yesterday"), "not missed at midnight")
        #expect(try h.statuses(at: "2026-11-23T01:00:00+09:00") == ["Late:late", "Late:upcoming"])
        // 20:59: 21 h 59 min after 23:00 = 1319 minutes late, still open.
        let last = try h.today(at: "2026-11-23T20:59:00+09:00")
        let carried = (last["doses"] as? [[String: Any]])?.first
        #expect(carried?["day"] as? String == "2026-11-22" && carried?["status"] as? String == "late")
        #expect(carried?["late_minutes"] as? Int == 1319)
        #expect(try !ids("2026-11-23T20:59:00+09:00").contains("missed_yesterday"))
        // 21:00: closed unresolved: it leaves the snapshot (history now) and missed_yesterday appears.
        #expect(try h.statuses(at: "2026-11-23T21:00:00+09:00") == ["Late:upcoming"])
        #expect(try ids("2026-11-23T21:00:00+09:00").contains("missed_yesterday"))
    }

    @Test func koreanMessages() throws {
        let h = Harness(now: "2026-11-22T12:30:00+09:00")
        try h.ok("add", "아스피린", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")   // tracked; 4h 30m late at 12:30
        let ko = try h.run(["today", "--json", "--lang", "ko"])
        let msg = ((ko.json as! [String: Any])["message"] as! [String: Any])
        #expect(msg["id"] as? String == "late_4h")
        #expect((msg["text"] as! String).contains("늦었습니다"))
        let viaLang = try h.run(["today", "--json"], extraEnv: ["LANG": "ko_KR.UTF-8"])
        #expect(((viaLang.json as! [String: Any])["message"] as! [String: Any])["text"] as? String == msg["text"] as? String)
    }
}

@Suite struct UndoTests {
    @Test func undoRevertsEveryDoseOneTakeLogged() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added at 07:00, before the 08:00 doses they take (DESIGN §3 Tracking start).
        try h.ok("add", "A", "--at", "08:00", "--stock", "10", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "B", "--at", "08:00", "--stock", "10", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "C", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        try h.ok("take", "C", now: "2026-11-22T08:20:00+09:00")
        try h.ok("take")
        #expect(try h.statuses() == ["A:taken", "B:taken", "C:taken"])
        let r = try h.ok("undo")
        #expect(r.out.contains("1 more"))
        #expect(try h.statuses() == ["A:due", "B:due", "C:taken"])
        let stock = (try h.today()["stock"] as! [[String: Any]]).map { $0["remaining"] as! Int }
        #expect(stock == [10, 10])
        try h.ok("undo")
        #expect(try h.statuses() == ["A:due", "B:due", "C:due"])
    }
}
