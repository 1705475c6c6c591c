import Foundation
import Testing

/// `history`, `stats` and `report` through the binary: the calendar, errors, files (DESIGN §2, §3).
@Suite struct HistoryCommandTests {
    /// Aspirin daily 08:00 from 11-16 (a Monday); taken on time on 11-16 and 11-17, missed on 11-18,
    /// skipped on 11-19, taken late on 11-20; today 11-21 at noon, not yet taken.
    func week() throws -> Harness {
        let h = Harness(now: "2026-11-16T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--dose", "100 mg, with food")
        try h.ok("take", "Aspirin", "--at", "2026-11-16T08:05", now: "2026-11-16T09:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "2026-11-17T07:50", now: "2026-11-17T09:00:00+09:00")
        try h.ok("skip", "Aspirin", "--at", "2026-11-19T08:00", now: "2026-11-19T09:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "2026-11-20T11:30", now: "2026-11-20T12:00:00+09:00")
        return h
    }

    static let noon = "2026-11-21T12:00:00+09:00"

    @Test("the calendar in a pipe: a row per week from Monday, a letter per day, the legend")
    func calendarLetters() throws {
        let h = try week()
        let out = try h.ok("history", "--from", "2026-11-16", now: Self.noon).out
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("all  2026-11-16 – 2026-11-21"))
        #expect(lines[1].split(separator: " ") == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(lines[2].split(separator: " ") == ["Nov", "2026", "16D", "17D", "18M", "19S", "20D", "21?"])
        #expect(!out.contains("\u{1B}["), "no colour into a pipe")
        #expect(out.contains("D done: every dose taken or skipped") && out.contains("M none taken, at least one missed") && out.contains("? not complete yet (today, or a dose still open)"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        let ko = try h.ok("history", "--from", "2026-11-16", "--lang", "ko", now: Self.noon).out
        #expect(ko.hasPrefix("전체  2026-11-16") && ko.contains("2026년 11월") && ko.contains("M 복용 없음, 누락 있음"))
    }

    @Test("--json per day; stats over N days next to the N before; report rows in CSV and JSON agree")
    func figures() throws {
        let h = try week()
        let days = try #require(try h.ok("history", "--from", "2026-11-16", "--json", now: Self.noon).json as? [[String: Any]])
        #expect(days.map { $0["state"] as? String } == ["done", "done", "missed", "skipped", "done", "pending"])
        #expect(days[1]["on_time"] as? Int == 1 && days[1]["early"] as? Int == 0, "07:50 is within the 2h window")
        #expect(days[4]["late"] as? Int == 1)

        let stats = try #require(try h.ok("stats", "--days", "3", "--json", now: Self.noon).json as? [String: Any])
        #expect(stats["from"] as? String == "2026-11-19" && stats["to"] as? String == "2026-11-21")
        let overall = try #require(stats["overall"] as? [String: Any])
        // 11-19 skipped, 11-20 late (210 min), 11-21 not known yet: 1 taken of 2 known.
        #expect(overall["adherence"] as? Int == 50 && overall["late"] as? Int == 1 && overall["mean_late_minutes"] as? Int == 210)
        let previous = try #require(stats["previous"] as? [String: Any])
        // 11-16, 11-17 taken on time, 11-18 missed: 2 of 3.
        #expect(previous["adherence"] as? Int == 67 && previous["on_time"] as? Int == 100 && previous["missed"] as? Int == 1)
        let med = try #require((stats["medications"] as? [[String: Any]])?.first)
        #expect(med["name"] as? String == "Aspirin" && med["most_late_slot"] as? String == "08:00")

        // A missed dose's late_minutes is C − T (DESIGN §3 Reports): 11-18 08:00 closed at
        // max(10:00, min(11-19 08:00 − 2 h, 11-19 08:00)) = 11-19 06:00, 22 h = 1320 min after it.
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-18", "--to", "2026-11-19", now: Self.noon).out
        #expect(csv == """
            date,scheduled,medication,dose,status,taken_at,late_minutes,time_known,over_limit,decided_after_close,double_dose\r
            2026-11-18,2026-11-18T08:00:00+09:00,Aspirin,"100 mg, with food",missed,,1320,,false,false,false\r
            2026-11-19,2026-11-19T08:00:00+09:00,Aspirin,"100 mg, with food",skipped,,,,false,false,false\r

            """)
        let report = try #require(try h.ok("report", "--format", "json", "--from", "2026-11-16", now: Self.noon).json as? [String: Any])
        let slots = try #require(report["slots"] as? [[String: Any]])
        // Today's 08:00, not taken at noon, is late (not yet an outcome).
        #expect(slots.count == 6 && slots.last?["status"] as? String == "late" && slots.last?["late_minutes"] is NSNull)
        let line = try #require((report["medications"] as? [[String: Any]])?.first)
        #expect(line["taken"] as? Int == 3 && line["adherence"] as? Int == 60 && line["schedule"] as? String == "daily 08:00")
    }

    @Test("bad dates and names: one line, exit 64 or 65; --output is private and whole; an archived medicine keeps its history")
    func errorsAndFiles() throws {
        let h = try week()
        for (args, code) in [(["history", "--from", "2026-11-20", "--to", "2026-11-18"], 64),
                             (["history", "--from", "2026-13-01"], 64),
                             (["history", "--from", "2026-11-30"], 64),
                             (["stats", "--days", "0"], 64),
                             (["report", "--format", "pdf"], 64),
                             (["history", "Nope"], 65)] as [([String], Int32)] {
            let r = try h.run(args, now: Self.noon)
            #expect(r.status == code, "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.err.hasPrefix("dosebar: "), "\(args): \(r.err)")
            #expect(r.out.isEmpty)
        }
        let file = h.root + "/report.html"
        try h.ok("report", "--output", file, now: Self.noon)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        let missing = try h.run("report", "--output", h.root + "/no/such/dir/r.html", now: Self.noon)
        #expect(missing.status == 74 && missing.err.contains("does not exist"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.root).allSatisfy { !$0.hasPrefix(".") }, "no temporary file left")

        try h.ok("remove", "Aspirin", now: Self.noon)
        let archived = try #require(try h.ok("history", "asp", "--from", "2026-11-16", "--json", now: "2026-11-22T12:00:00+09:00").json as? [[String: Any]])
        #expect(archived.map { $0["state"] as? String } == ["done", "done", "missed", "skipped", "done", "none", "none"])
    }
}
