import Foundation
import Testing

/// The take rules of DESIGN §2 and the cut-off of §3 through the binary, as a person's week meets
/// them (issue 21): a bedtime pill after midnight, a catch-up click, back-dating, naming a dose.
/// Every expectation is worked out from the leaflet rule C = max(T + W, min(T′ − W, T + 24 h)).
@Suite struct LeafletRuleTests {
    /// `medicine:day:status` of every dose listed at `now`, carried ones first.
    static func doses(_ h: Harness, at now: String) throws -> [String] {
        let s = try h.today(at: now)
        return (s["doses"] as! [[String: Any]]).map { "\($0["medication"]!):\($0["day"]!):\($0["status"]!)" }
    }

    @Test("a 22:00 pill taken at 00:30 is last night's, taken late; tonight's stays to take; the bar's click does the same")
    func bedtimeAfterMidnight() throws {
        let h = Harness(tz: "America/New_York", now: "2026-11-19T12:00:00-05:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Yaz", "--at", "22:00", "--stock", "28")
        // 00:30 on the 20th: the 19th's 22:00 dose is open (late until 20:00 tonight) and listed first.
        #expect(try Self.doses(h, at: "2026-11-20T00:30:00-05:00") == ["Yaz:2026-11-19:late", "Yaz:2026-11-20:upcoming"])
        let s = try h.today(at: "2026-11-20T00:30:00-05:00")
        #expect(s["state"] as? String == "late")
        #expect((s["counts"] as! [String: Any])["carried"] as? Int == 1)
        #expect((s["counts"] as! [String: Any])["total"] as? Int == 1)
        #expect((s["message"] as! [String: Any])["text"] as? String == "Yaz (yesterday 22:00) is 2h 30m late")
        let took = try h.ok("take", "Yaz", now: "2026-11-20T00:30:00-05:00")
        #expect(took.out.hasPrefix("Took Yaz (yesterday's 22:00 dose) at 00:30, 2h 30m late · 27 left"), "\(took.out)")
        #expect(try Self.doses(h, at: "2026-11-20T00:31:00-05:00") == ["Yaz:2026-11-20:upcoming"])
        // The next night, the bar's click (take --next) takes last night's, not tonight's.
        let click = try h.ok("take", "--next", now: "2026-11-21T00:30:00-05:00")
        #expect(click.out.hasPrefix("Took Yaz (yesterday's 22:00 dose) at 00:30"), "\(click.out)")
        #expect(try Self.doses(h, at: "2026-11-21T21:59:00-05:00") == ["Yaz:2026-11-21:upcoming"])
        // Forgotten altogether: late until 20:00 the next evening, then missed (history, 22 h late in the CSV).
        #expect(try Self.doses(h, at: "2026-11-22T19:59:00-05:00") == ["Yaz:2026-11-21:late", "Yaz:2026-11-22:upcoming"])
        #expect(try Self.doses(h, at: "2026-11-22T20:00:00-05:00") == ["Yaz:2026-11-22:upcoming"])
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21", now: "2026-11-22T20:00:00-05:00")
        #expect(csv.out.contains("2026-11-21,2026-11-21T22:00:00-05:00,Yaz,,missed,,1320,"), "\(csv.out)")
    }

    @Test("yesterday pending keeps the streak at midnight; taken after midnight it extends it")
    func streakAcrossMidnight() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-19T12:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Yaz", "--at", "22:00")
        try h.ok("take", "Yaz", now: "2026-11-19T22:05:00+09:00")
        try h.ok("take", "Yaz", now: "2026-11-20T22:05:00+09:00")
        func streak(_ at: String) throws -> [String: Any] { try h.today(at: at)["streak"] as! [String: Any] }
        // 00:30 on the 22nd: the 21st's dose is open; the 21st is pending, the streak is the 19th–20th's.
        #expect(try streak("2026-11-22T00:30:00+09:00")["current"] as? Int == 2)
        let week = try h.today(at: "2026-11-22T00:30:00+09:00")["week"] as! [[String: Any]]
        #expect(week[5]["day"] as? String == "2026-11-21" && week[5]["state"] as? String == "pending")
        try h.ok("take", "Yaz", now: "2026-11-22T00:40:00+09:00")
        #expect(try streak("2026-11-22T00:41:00+09:00")["current"] as? Int == 3)
        // Never taken: the 22nd's dose closes at 20:00 on the 23rd, and breaks the streak then.
        #expect(try streak("2026-11-23T19:59:00+09:00")["current"] as? Int == 3)
        #expect(try streak("2026-11-23T20:00:00+09:00")["current"] as? Int == 0)
    }

    @Test("a catch-up click takes one dose of a medicine: the forgotten 14:00 closed at 12:00 (stock −1)")
    func oneDosePerClick() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-20T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Amoxicillin", "--at", "08:00,14:00,20:00", "--stock", "20")
        try h.ok("take", "Amoxicillin", now: "2026-11-20T08:05:00+09:00")
        // 14:00's cut-off: max(16:00, min(20:00 − 2 h, 14:00 + 24 h)) = 18:00.
        #expect(try Self.doses(h, at: "2026-11-20T17:59:00+09:00").contains("Amoxicillin:2026-11-20:late"))
        let click = try h.ok("take", "--next", now: "2026-11-20T20:10:00+09:00")
        #expect(click.out == "Took Amoxicillin (20:00 dose) at 20:10 · 18 left (6 days) · low: refill soon\n", "\(click.out)")
        #expect(try Self.doses(h, at: "2026-11-20T20:11:00+09:00")
                == ["Amoxicillin:2026-11-20:taken", "Amoxicillin:2026-11-20:missed", "Amoxicillin:2026-11-20:taken"])
    }

    @Test("--at picks what take NAME would have picked then, and refuses a dose already taken; --slot names one")
    func backDating() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-20T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Metformin", "--at", "08:00,20:00", "--stock", "10")
        try h.ok("take", "Metformin", now: "2026-11-20T07:50:00+09:00")
        let refused = try h.run("take", "Metformin", "--at", "08:05", now: "2026-11-20T12:40:00+09:00")
        #expect(refused.status == 65)
        #expect(refused.err == "dosebar: Metformin: the 08:00 dose was taken at 07:50 — 'dosebar undo Metformin' first to record it again\n",
                "\(refused.err)")
        #expect(try Self.doses(h, at: "2026-11-20T12:40:00+09:00") == ["Metformin:2026-11-20:taken", "Metformin:2026-11-20:upcoming"])
        // At 12:00 the 08:00 dose was still the open one (it closes at 18:00): a skip then is refused too.
        let late = try h.run("skip", "Metformin", "--at", "2026-11-20T12:00", now: "2026-11-20T12:40:00+09:00")
        #expect(late.status == 65 && late.err.contains("the 08:00 dose was taken at 07:50"), "\(late.err)")
        // A weekly dose: on a day between, nothing was open; the refusal says how to name one.
        try h.ok("add", "Weekly", "--at", "09:00", "--every", "1w", now: "2026-11-20T07:00:00+09:00")
        let none = try h.run("take", "Weekly", "--at", "2026-11-24T12:00", now: "2026-11-25T12:00:00+09:00")
        #expect(none.status == 65 && none.err.contains("no dose was open at 2026-11-24 12:00; --slot"), "\(none.err)")
        // --slot of a time it does not have lists its times.
        let wrong = try h.run("take", "Metformin", "--slot", "21:00", now: "2026-11-20T12:40:00+09:00")
        #expect(wrong.status == 65 && wrong.err.contains("(its doses that day: 08:00, 20:00)"), "\(wrong.err)")
        #expect(try h.run("take", "--slot", "20:00", now: "2026-11-20T12:40:00+09:00").status == 64)
        // A dose of a day to come is not taken ahead by name.
        let ahead = try h.run("take", "Metformin", "--slot", "tomorrow 08:00", now: "2026-11-20T12:40:00+09:00")
        #expect(ahead.status == 65 && ahead.err.contains("2026-11-21 08:00: that dose is on a day to come"), "\(ahead.err)")
        #expect(try h.run("take", "Metformin", "--slot", "8 pm", now: "2026-11-20T12:40:00+09:00").status == 64)
        // Last night's dose named with its day, taken at a given time.
        let named = try h.ok("take", "Metformin", "--slot", "2026-11-20 20:00", "--at", "2026-11-20T20:30",
                             now: "2026-11-21T09:00:00+09:00")
        #expect(named.out.hasPrefix("Took Metformin (yesterday's 20:00 dose) at 2026-11-20 20:30"), "\(named.out)")
        let skipped = try h.ok("skip", "Metformin", "--slot", "08:00", now: "2026-11-21T09:00:00+09:00")
        #expect(skipped.out == "Skipped Metformin (08:00 dose)\n", "\(skipped.out)")
    }

    @Test("days before a medicine was added are not missed; a back-dated dose before it counts")
    func trackingStart() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-20T10:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Yaz", "--at", "22:00", "--cycle", "21/7", "--from", "2026-11-01")
        try h.ok("add", "Aspirin", "--at", "08:00")
        // Day 20 of 21; the 08:00 dose today was before Aspirin was added: not listed, not missed.
        #expect(try Self.doses(h, at: "2026-11-20T10:00:00+09:00") == ["Yaz:2026-11-20:upcoming"])
        let cycle = (try h.today()["cycle"] as! [[String: Any]])[0]
        #expect(cycle["day"] as? Int == 20 && cycle["phase"] as? String == "active")
        let days = try h.ok("history", "--json", "--from", "2026-11-01", now: "2026-11-20T10:00:00+09:00").json as! [[String: Any]]
        #expect(days.filter { ($0["day"] as! String) < "2026-11-20" }.allSatisfy { $0["state"] as? String == "none" }, "\(days)")
        let stats = try h.ok("stats", "--json", now: "2026-11-20T10:00:00+09:00").json as! [String: Any]
        #expect((stats["overall"] as! [String: Any])["adherence"] is NSNull)
        // Asked to take the 08:00 dose from before it was added, dosebar asks rather than guesses.
        let ask = try h.run("take", "Aspirin", now: "2026-11-20T10:00:00+09:00")
        #expect(ask.status == 65 && ask.err.contains("dosebar take Aspirin --slot 08:00"), "\(ask.err)")
        let askSkip = try h.run("skip", "Aspirin", now: "2026-11-20T10:00:00+09:00")
        #expect(askSkip.status == 65 && askSkip.err.contains("dosebar skip Aspirin --slot 08:00"), "\(askSkip.err)")
        // A click back-dated to 08:10 finds nothing open then (the 08:00 dose is not tracked) and says when.
        let click = try h.run("take", "--at", "08:10", now: "2026-11-20T10:00:00+09:00")
        #expect(click.status == 65 && click.err.contains("no dose was open at 08:10"), "\(click.err)")
        try h.ok("take", "Yaz", "--at", "2026-11-19T22:10", now: "2026-11-20T10:00:00+09:00")
        let after = try h.ok("history", "--json", "--from", "2026-11-19", "--to", "2026-11-19", now: "2026-11-20T10:00:00+09:00")
        #expect(((after.json as! [[String: Any]])[0]["state"] as? String) == "done", "\(after.out)")
    }
}
