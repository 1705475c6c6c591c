import Foundation
import Testing

/// A different amount per dose time through the real binary (issue 46): `add --at 22:30,20:00
/// --per-dose 1,0.5`, each take's stock, `days_left`, `edit --effective`, refusals and sync.
@Suite struct PerTimeDoseTests {
    static let morning = "2026-11-22T07:00:00+09:00"

    /// `list --json`'s object of `name`.
    static func listed(_ h: Harness, _ name: String, now: String? = nil) throws -> [String: Any] {
        let rows = try #require(try h.ok("list", "--json", now: now).json as? [[String: Any]])
        return try #require(rows.first { $0["name"] as? String == name })
    }

    /// `per_dose_times` as `["20:00 0.5", …]`; nil when null.
    static func perTime(_ row: [String: Any]) -> [String]? {
        (row["per_dose_times"] as? [[String: Any]])?.map { "\($0["time"] ?? "") \($0["per_dose"] ?? "")" }
    }

    /// The `today --json` stock block of `name`.
    static func stock(_ h: Harness, _ name: String, at now: String) throws -> [String: Any] {
        let blocks = (try h.today(at: now)["stock"] as? [[String: Any]]) ?? []
        return try #require(blocks.first { $0["medication"] as? String == name })
    }

    /// A home with Melatonin: 0.5 at 20:00 and 1 at 22:30, typed in the other order, 10 on hand.
    static func melatonin() throws -> Harness {
        let h = Harness(now: morning)
        try h.ok("add", "Melatonin", "--at", "22:30,20:00", "--per-dose", "1,0.5", "--stock", "10")
        return h
    }

    @Test("amounts pair with --at as typed; each take subtracts its own time's amount; undo gives it back")
    func takesPerTime() throws {
        let h = try Self.melatonin()
        let row = try Self.listed(h, "Melatonin")
        #expect(Self.perTime(row) == ["20:00 0.5", "22:30 1"] && row["per_dose"] as? Double == 0.5
                && row["times"] as? [String] == ["20:00", "22:30"], "\(row)")
        #expect(try h.ok("list").out.contains("0.5 at 20:00, 1 at 22:30 per dose"))

        let first = try h.ok("take", "Melatonin", now: "2026-11-22T20:05:00+09:00").out
        #expect(first.contains("(20:00 dose)") && first.contains("9.5 left"), "\(first)")
        #expect(try Self.listed(h, "Melatonin")["stock"] as? Double == 9.5)
        let second = try h.ok("take", "Melatonin", now: "2026-11-22T22:35:00+09:00").out
        #expect(second.contains("(22:30 dose)") && second.contains("8.5 left"), "\(second)")
        #expect(try Self.listed(h, "Melatonin")["stock"] as? Double == 8.5)
        try h.ok("undo", "Melatonin", now: "2026-11-22T22:36:00+09:00")
        #expect(try Self.listed(h, "Melatonin")["stock"] as? Double == 9.5, "the 22:30 dose's 1 back")
    }

    @Test("days_left is the stock over the day's sum of amounts (10 ÷ 1.5 = 6 days, not 10 ÷ 1 or ÷ 2)")
    func daysLeft() throws {
        let h = try Self.melatonin()
        let s = try Self.stock(h, "Melatonin", at: Self.morning)
        #expect(s["remaining"] as? Int == 10 && s["days_left"] as? Int == 6, "\(s)")
        try h.ok("take", "Melatonin", now: "2026-11-22T20:05:00+09:00")
        try h.ok("take", "Melatonin", now: "2026-11-22T22:35:00+09:00")
        // 8.5 ÷ 1.5 = 5.67: 5 whole days.
        let after = try Self.stock(h, "Melatonin", at: "2026-11-22T22:40:00+09:00")
        #expect(after["remaining"] as? Double == 8.5 && after["days_left"] as? Int == 5, "\(after)")
    }

    @Test("edit --per-dose 1,1 --effective: from that day one amount; the days before keep theirs")
    func editKeepsThePast() throws {
        let h = try Self.melatonin()
        try h.ok("edit", "Melatonin", "--per-dose", "1,1", "--effective", "2026-11-24")
        let row = try Self.listed(h, "Melatonin")
        #expect(Self.perTime(row) == ["20:00 0.5", "22:30 1"], "today keeps its amounts: \(row)")
        let pending = try #require((row["pending"] as? [[String: Any]])?.first)
        #expect(pending["effective"] as? String == "2026-11-24" && pending["per_dose"] as? Int == 1
                && pending["per_dose_times"] is NSNull, "\(pending)")
        // The day before the change: 0.5 at 20:00; on the day: 1 at 20:00.
        try h.ok("take", "Melatonin", "--slot", "2026-11-23 20:00", now: "2026-11-23T20:05:00+09:00")
        #expect(try Self.listed(h, "Melatonin", now: "2026-11-23T20:06:00+09:00")["stock"] as? Double == 9.5)
        try h.ok("take", "Melatonin", "--slot", "2026-11-24 20:00", now: "2026-11-24T20:05:00+09:00")
        #expect(try Self.listed(h, "Melatonin", now: "2026-11-24T20:06:00+09:00")["stock"] as? Double == 8.5)
        let after = try Self.listed(h, "Melatonin", now: "2026-11-24T20:06:00+09:00")
        #expect(after["per_dose_times"] is NSNull && after["per_dose"] as? Int == 1, "\(after)")
        // One amount for all again: new times need no new --per-dose.
        try h.ok("edit", "Melatonin", "--at", "21:00,23:00", "--effective", "2026-11-24", now: "2026-11-24T20:07:00+09:00")
    }

    @Test("amounts per time from a day go on to later versions of the same times only; one of other times keeps its dose")
    func laterVersionOfOtherTimes() throws {
        let h = Harness(now: Self.morning)
        try h.ok("add", "Melatonin", "--at", "20:00,22:30", "--stock", "10")
        try h.ok("edit", "Melatonin", "--at", "21:00", "--effective", "2026-11-26")
        try h.ok("edit", "Melatonin", "--per-dose", "0.5,1", "--effective", "2026-11-24")
        let pending = (try Self.listed(h, "Melatonin")["pending"] as? [[String: Any]]) ?? []
        #expect(pending.map { $0["effective"] as? String } == ["2026-11-24", "2026-11-26"], "\(pending)")
        #expect(pending.first.map(Self.perTime) == ["20:00 0.5", "22:30 1"], "\(pending)")
        #expect(pending.last?["per_dose_times"] is NSNull && pending.last?["per_dose"] as? Int == 1, "\(pending)")
    }

    @Test("the HTML report names each time's amount")
    func htmlReport() throws {
        let h = try Self.melatonin()
        let html = try h.ok("report", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-23T09:00:00+09:00").out
        #expect(html.contains("0.5 at 20:00, 1 at 22:30 per dose"), "\(html)")
    }

    @Test("a per-dose list that does not fit, a bad amount or a malformed list: one line, exit 64, nothing changed", arguments: [
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "1,2,3"],
        ["add", "Iron", "--at", "08:00", "--per-dose", "1,2"],
        ["add", "Iron", "--as-needed", "--per-dose", "1,2"],
        ["add", "Iron", "--at", "08:00,08:00", "--per-dose", "1,2"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "0.5,-1"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "0.5,5000"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "0.5,0.125"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "0.5,,1"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "0.5,"],
        ["add", "Iron", "--at", "08:00,20:00", "--per-dose", "a,b"],
        ["edit", "Melatonin", "--per-dose", "1,2,3"],
        ["edit", "Melatonin", "--per-dose", "1,-2"],
        ["edit", "Melatonin", "--at", "21:00,23:00"],
        ["edit", "Melatonin", "--at", "20:00", "--per-dose", "1,2"],
    ])
    func refused(_ args: [String]) throws {
        let h = try Self.melatonin()
        let before = h.dump()
        let r = try h.run(args)
        #expect(r.status == 64, "\(args): \(r.status) \(r.err)")
        #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty, "\(r.err)")
        #expect(h.dump() == before, "nothing written")
        if args.contains("--at") && args.first == "edit" && !args.contains("--per-dose") {
            #expect(r.err.contains("--per-dose"), "names what to give: \(r.err)")
        }
    }

    @Test("sync carries the amounts per time: the other device lists them and its takes use them")
    func syncRoundTrip() throws {
        let a = try Self.melatonin(), b = Harness(now: Self.morning)
        let shared = a.root + "/Sync"
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        let line = try String(contentsOfFile: shared + "/dosebar/" + (try a.syncDevice()) + ".jsonl", encoding: .utf8)
        #expect(line.contains("\"per_dose_times\":[\"20:00=0.5\",\"22:30=1\"]"), "\(line)")
        let row = try Self.listed(b, "Melatonin")
        #expect(Self.perTime(row) == ["20:00 0.5", "22:30 1"] && row["stock"] as? Int == 10, "\(row)")
        try b.ok("take", "Melatonin", now: "2026-11-22T22:35:00+09:00")
        #expect(try Self.listed(b, "Melatonin")["stock"] as? Double == 9)
        try a.ok("sync", "now", now: "2026-11-22T22:36:00+09:00")
        #expect(try Self.listed(a, "Melatonin")["stock"] as? Double == 9, "A counts B's 22:30 take as 1")
        // An edit on A from a later day reaches B as it is.
        try a.ok("edit", "Melatonin", "--per-dose", "2,0.25", "--effective", "2026-11-25", now: "2026-11-22T22:37:00+09:00")
        try b.ok("sync", "now", now: "2026-11-22T22:38:00+09:00")
        let pending = try #require((try Self.listed(b, "Melatonin", now: "2026-11-22T22:38:00+09:00")["pending"] as? [[String: Any]])?.first)
        #expect(Self.perTime(pending) == ["20:00 2", "22:30 0.25"], "\(pending)")
    }
}
