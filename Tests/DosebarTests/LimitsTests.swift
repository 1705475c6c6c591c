import Foundation
import Testing

/// As-needed limits (DESIGN §2): beyond `--max-per-day`/`--min-interval` a dose is refused (65)
/// naming the limit and when the next is allowed; `--force` records it, marked `over_limit` in the
/// report (CSV, JSON, HTML), through `import csv` and through sync.
@Suite struct LimitsTests {
    static func oneLine(_ r: Harness.Result) -> Bool { r.err.split(separator: "\n").count == 1 }

    @Test("a 4th dose over --max-per-day 3 is refused naming the limit and tomorrow; --force records it marked over_limit")
    func maxPerDay() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "3", "--dose", "200 mg", "--from", "2026-11-01")
        for t in ["08:00", "11:00", "14:00"] { try h.ok("take", "Ibuprofen", "--at", t, now: "2026-11-22T14:00:00+09:00") }
        let refused = try h.run("take", "Ibuprofen", now: "2026-11-22T16:00:00+09:00")
        #expect(refused.status == 65 && Self.oneLine(refused), "\(refused.err)")
        #expect(refused.err.contains("Ibuprofen: 3 doses today already (limit 3 a day); the next is allowed tomorrow at 00:00")
                && refused.err.contains("'dosebar take Ibuprofen --force' records it anyway"), "\(refused.err)")
        // Back-dated before the day's three, it is the day's 4th all the same.
        let backDated = try h.run("take", "Ibuprofen", "--at", "07:00", now: "2026-11-22T16:00:00+09:00")
        #expect(backDated.status == 65 && backDated.err.contains("(limit 3 a day)"), "\(backDated.err)")
        #expect(try h.today(at: "2026-11-22T16:00:00+09:00")["as_needed"].flatMap { ($0 as? [[String: Any]])?.first?["taken_today"] as? Int } == 3)

        try h.ok("take", "Ibuprofen", "--force", now: "2026-11-22T16:00:00+09:00")
        let item = try #require((try h.today(at: "2026-11-22T16:05:00+09:00")["as_needed"] as? [[String: Any]])?.first)
        #expect(item["taken_today"] as? Int == 4)
        #expect((item["text"] as? String)?.contains("4/3") == true, "\(item)")

        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-22T16:05:00+09:00").out
        #expect(csv.hasPrefix("date,scheduled,medication,dose,status,taken_at,late_minutes,time_known,over_limit,decided_after_close,double_dose\r\n"))
        #expect(csv.contains("2026-11-22,,Ibuprofen,200 mg,as_needed,2026-11-22T14:00:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        #expect(csv.contains("2026-11-22,,Ibuprofen,200 mg,as_needed,2026-11-22T16:00:00+09:00,,true,true,false,false\r\n"), "\(csv)")

        let report = try #require(try h.ok("report", "--format", "json", "--from", "2026-11-22", "--to", "2026-11-22",
                                           now: "2026-11-22T16:05:00+09:00").json as? [String: Any])
        let slots = try #require(report["slots"] as? [[String: Any]])
        #expect(slots.map { $0["over_limit"] as? Bool } == [false, false, false, true], "\(slots)")

        let history = try #require(try h.ok("history", "--from", "2026-11-21", "--to", "2026-11-22", "--json",
                                            now: "2026-11-22T16:05:00+09:00").json as? [[String: Any]])
        #expect(history.map { $0["over_limit"] as? Int } == [nil, 1], "\(history)")

        let html = try h.ok("report", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-22T16:05:00+09:00").out
        #expect(html.contains("4 (1 over limit)"), "a word, not a colour")
        let ko = try h.ok("report", "--lang", "ko", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-22T16:05:00+09:00").out
        #expect(ko.contains("4 (1회 한도 초과)"))

        // Undo takes the forced dose back like any other.
        try h.ok("undo", "Ibuprofen", now: "2026-11-22T16:06:00+09:00")
        let after = try h.ok("report", "--format", "csv", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-22T16:07:00+09:00").out
        #expect(!after.contains(",true,true,false,false\r\n"))
    }

    @Test("a dose inside --min-interval is refused naming the last dose, the gap and the time it is allowed; Korean too")
    func minInterval() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Ibuprofen", "--as-needed", "--min-interval", "6h", "--from", "2026-11-01")
        try h.ok("take", "Ibuprofen", now: "2026-11-22T09:30:00+09:00")
        let refused = try h.run("take", "Ibuprofen", now: "2026-11-22T12:00:00+09:00")
        #expect(refused.status == 65 && Self.oneLine(refused), "\(refused.err)")
        #expect(refused.err.contains("Ibuprofen: last dose at 09:30, at least 6h apart: the next is allowed at 15:30")
                && refused.err.contains("--force"), "\(refused.err)")
        let ko = try h.run("take", "Ibuprofen", "--lang", "ko", now: "2026-11-22T12:00:00+09:00")
        #expect(ko.status == 65 && ko.err.contains("최소 6시간 간격") && ko.err.contains("15:30"), "\(ko.err)")
        // A gap reaching past midnight says the day.
        try h.ok("take", "Ibuprofen", "--force", now: "2026-11-22T21:00:00+09:00")
        let late = try h.run("take", "Ibuprofen", now: "2026-11-22T22:00:00+09:00")
        #expect(late.status == 65 && late.err.contains("the next is allowed tomorrow at 03:00"), "\(late.err)")
        // 15:30 is allowed again, without --force.
        try h.ok("take", "Ibuprofen", now: "2026-11-23T03:00:00+09:00")
    }

    @Test("report CSV → import csv keeps over_limit; the 7-column form still imports")
    func csvRoundTrip() throws {
        let a = Harness(), b = Harness(), c = Harness()
        defer { for h in [a, b, c] { try? FileManager.default.removeItem(atPath: h.root) } }
        try a.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "1", "--from", "2026-11-01")
        try a.ok("take", "Ibuprofen", "--at", "08:00", now: "2026-11-21T20:00:00+09:00")
        try a.ok("take", "Ibuprofen", "--force", now: "2026-11-21T20:00:00+09:00")
        let csv = try a.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out
        #expect(csv.contains(",true,true,false,false\r\n") && csv.contains(",true,false,false,false\r\n"), "\(csv)")
        let file = b.root + "/in.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        try b.ok("import", "csv", file)
        let back = try b.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out
        #expect(back == csv, "\(back)")
        // A finished day's outcome is kept in the database; read back from there it keeps the mark.
        #expect(try b.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out == csv)
        #expect(try a.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out == csv)

        // The older 7-column form: no over_limit, nothing forced.
        let old = "date,scheduled,medication,dose,status,taken_at,late_minutes\r\n"
            + "2026-11-21,,Ibuprofen,,as_needed,2026-11-21T08:00:00+09:00,\r\n"
        let oldFile = c.root + "/old.csv"
        try old.write(toFile: oldFile, atomically: true, encoding: .utf8)
        try c.ok("import", "csv", oldFile)
        let oldBack = try c.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out
        #expect(oldBack.hasSuffix("2026-11-21,,Ibuprofen,,as_needed,2026-11-21T08:00:00+09:00,,true,false,false,false\r\n"), "\(oldBack)")
        // A flag that is not a boolean is refused with its line.
        let bad = old.replacingOccurrences(of: "late_minutes\r\n", with: "late_minutes,over_limit\r\n")
            .replacingOccurrences(of: "08:00:00+09:00,\r\n", with: "08:00:00+09:00,,yes\r\n")
        try bad.write(toFile: oldFile, atomically: true, encoding: .utf8)
        let refused = try c.run("import", "csv", oldFile)
        #expect(refused.status == 65 && refused.err.contains("line 2: over_limit: 'yes'"), "\(refused.err)")
    }

    @Test("with sync, a forced dose on A is over_limit on B too")
    func syncPair() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "1", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        try a.ok("take", "Ibuprofen", now: "2026-11-22T09:00:00+09:00")
        try a.ok("take", "Ibuprofen", "--force", now: "2026-11-22T10:00:00+09:00")
        let line = try String(contentsOfFile: shared + "/dosebar/" + (try a.syncDevice()) + ".jsonl", encoding: .utf8)
        #expect(line.contains("\"over_limit\":true"), "\(line)")
        try b.ok("sync", "now", now: "2026-11-22T10:05:00+09:00")
        let report = try #require(try b.ok("report", "--format", "json", "--from", "2026-11-22", "--to", "2026-11-22",
                                           now: "2026-11-22T10:05:00+09:00").json as? [String: Any])
        let slots = try #require(report["slots"] as? [[String: Any]])
        #expect(slots.map { $0["over_limit"] as? Bool } == [false, true], "\(slots)")
    }
}
