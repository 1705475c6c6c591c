import Foundation
import Testing

/// A skip recorded after its dose closed as missed (`skip --slot` the next day, DESIGN §2, issue 42):
/// the day counts as complete, as for any skip, but history and every report format say the dose
/// was skipped after it was missed; the legend says what each letter means.
@Suite struct HonestHistoryTests {
    /// Aspirin 08:00 and Metformin 20:00 from 11-20: 11-20 all taken; on 11-21 Metformin is taken and
    /// Aspirin missed (closed at 11-22 06:00), then skipped on 11-22 at 09:00; on 11-22 Metformin is
    /// skipped in time and Aspirin taken.
    func scenario() throws -> Harness {
        let h = Harness(now: "2026-11-20T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-20")
        try h.ok("add", "Metformin", "--at", "20:00", "--from", "2026-11-20")
        try h.ok("take", "Aspirin", now: "2026-11-20T08:05:00+09:00")
        try h.ok("take", "Metformin", now: "2026-11-20T20:05:00+09:00")
        try h.ok("take", "Metformin", now: "2026-11-21T20:05:00+09:00")
        try h.ok("skip", "Aspirin", "--slot", "2026-11-21 08:00", now: "2026-11-22T09:00:00+09:00")
        try h.ok("take", "Aspirin", now: "2026-11-22T08:05:00+09:00")
        try h.ok("skip", "Metformin", now: "2026-11-22T20:30:00+09:00")
        return h
    }

    static let now = "2026-11-23T10:00:00+09:00"

    @Test("history --json counts the late decision on its day; the day is done, as for any skip")
    func historyJSON() throws {
        let h = try scenario()
        let days = try #require(try h.ok("history", "--from", "2026-11-20", "--to", "2026-11-22", "--json", now: Self.now).json
            as? [[String: Any]])
        #expect(days.map { $0["state"] as? String ?? "" } == ["done", "done", "done"], "\(days)")
        #expect(days[1]["decided_after_close"] as? Int == 1, "\(days[1])")
        #expect(days[0]["decided_after_close"] == nil && days[2]["decided_after_close"] == nil, "a skip in time is not marked")
    }

    @Test("history marks the day and the legend says exactly what each letter means, in English and Korean")
    func historyText() throws {
        let h = try scenario()
        let out = try h.ok("history", "--from", "2026-11-20", "--to", "2026-11-22", now: Self.now).out
        #expect(out.contains("*21D") && out.contains(" 20D") && out.contains(" 22D"), "\(out)")
        #expect(out.contains("D done: every dose taken or skipped"), "\(out)")
        #expect(out.contains("* a dose skipped after it was missed"), "\(out)")
        #expect(!out.contains("all taken"))
        let ko = try h.ok("history", "--from", "2026-11-20", "--to", "2026-11-22", "--lang", "ko", now: Self.now).out
        #expect(ko.contains("*21D") && ko.contains("누락된 뒤에 건너뜀"), "\(ko)")
        // A range without such a skip has no mark and no extra legend line.
        let plain = try h.ok("history", "--from", "2026-11-22", "--to", "2026-11-22", now: Self.now).out
        #expect(!plain.contains("*") , "\(plain)")
    }

    @Test("report csv appends decided_after_close, json has it on each slot, html marks the day and the dose")
    func reports() throws {
        let h = try scenario()
        let csv = try h.ok("report", "--from", "2026-11-20", "--to", "2026-11-22", "--format", "csv", now: Self.now).out
        let lines = csv.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "date,scheduled,medication,dose,status,taken_at,late_minutes,time_known,over_limit,decided_after_close,double_dose")
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 6)
        let decided = try #require(lines.first?.split(separator: ",").firstIndex(of: "decided_after_close"))
        for row in rows {
            let late = row[0] == "2026-11-21" && row[2] == "Aspirin"
            #expect(row[decided] == (late ? "true" : "false"), "\(row)")
            if late { #expect(row[4] == "skipped") }
        }
        let json = try #require(try h.ok("report", "--from", "2026-11-20", "--to", "2026-11-22", "--format", "json", now: Self.now).json
            as? [String: Any])
        let slots = try #require(json["slots"] as? [[String: Any]])
        #expect(slots.filter { $0["decided_after_close"] as? Bool == true }.count == 1, "\(slots)")
        #expect(slots.allSatisfy { $0["decided_after_close"] is Bool })
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days[1]["decided_after_close"] as? Int == 1)
        let html = try h.ok("report", "--from", "2026-11-20", "--to", "2026-11-22", "--format", "html", now: Self.now).out
        #expect(html.contains("decided-late") && html.contains("skipped after it was missed"), "the day and the dose are marked")
    }

    @Test("import csv reads the report with the new column, and the older forms still")
    func importNewForm() throws {
        let h = try scenario()
        let file = h.root + "/report.csv"
        try h.ok("report", "--from", "2026-11-20", "--to", "2026-11-22", "--format", "csv", "--output", file, now: Self.now)
        let other = Harness(now: Self.now)
        defer { try? FileManager.default.removeItem(atPath: other.root) }
        let r = try other.run("import", "csv", file)
        #expect(r.status == 0, "\(r.err)")
        // (Unknown names come in as as-needed medicines: their takes are the rows to find again.)
        let again = try other.ok("report", "--from", "2026-11-20", "--to", "2026-11-22", "--format", "csv").out
        for taken in ["2026-11-20T08:05:00+09:00", "2026-11-20T20:05:00+09:00", "2026-11-21T20:05:00+09:00", "2026-11-22T08:05:00+09:00"] {
            #expect(again.contains(taken), "\(taken) imported: \(again)")
        }
        // The 9-column form of before.
        let old = h.root + "/old.csv"
        let nine = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n").map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",")
        }.joined(separator: "\r\n") + "\r\n"
        try nine.write(toFile: old, atomically: true, encoding: .utf8)
        let third = Harness(now: Self.now)
        defer { try? FileManager.default.removeItem(atPath: third.root) }
        #expect(try third.run("import", "csv", old).status == 0)
    }
}
