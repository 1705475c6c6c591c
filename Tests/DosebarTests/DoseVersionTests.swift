import Foundation
import Testing

/// `edit --dose/--per-dose --effective DATE` (DESIGN §2 `edit`, issue 42): the dose changes from that
/// day on; every earlier day keeps its dose text and amount in `today`, history, every report
/// format and the stock of its takes; `list` shows the change to come.
@Suite struct DoseVersionTests {
    static func at(_ day: Int, _ time: String) -> String { String(format: "2026-12-%02dT", day) + time + ":00+09:00" }

    /// Metformin 08:00 from 12-01, 500 mg (1 unit) with 100 on hand; 1000 mg (2 units) from 12-06,
    /// set on 12-03; taken every day to 12-07, the 12-05 dose back-dated on 12-07.
    func metformin() throws -> Harness {
        let h = Harness(now: Self.at(1, "07:00"))
        try h.ok("add", "Metformin", "--at", "08:00", "--dose", "500 mg", "--stock", "100", "--from", "2026-12-01")
        for day in 1...3 { try h.ok("take", "Metformin", now: Self.at(day, "08:05")) }
        let edit = try h.ok("edit", "Metformin", "--dose", "1000 mg", "--per-dose", "2", "--effective", "2026-12-06",
                            now: Self.at(3, "09:00"))
        #expect(edit.out.contains("1000 mg") && edit.out.contains("2026-12-06"), "\(edit.out)")
        for day in [4, 6, 7] { try h.ok("take", "Metformin", now: Self.at(day, "08:05")) }
        try h.ok("take", "Metformin", "--at", "2026-12-05T08:30", now: Self.at(7, "10:00"))
        return h
    }

    @Test("edit --dose --effective in the future is accepted, and list shows the change to come with its day")
    func listPending() throws {
        let h = Harness(now: Self.at(1, "07:00"))
        try h.ok("add", "Metformin", "--at", "08:00,20:00", "--dose", "500 mg", "--stock", "60", "--from", "2026-12-01")
        let edit = try h.run("edit", "Metformin", "--dose", "1000 mg", "--per-dose", "2", "--effective", "2026-12-06",
                             now: Self.at(3, "09:00"))
        #expect(edit.status == 0, "\(edit.err)")
        let list = try #require(try h.ok("list", "--json", now: Self.at(3, "09:00")).json as? [[String: Any]])
        let m = try #require(list.first)
        #expect(m["dose"] as? String == "500 mg", "today's dose: \(m)")
        #expect(m["per_dose"] as? Double == 1)
        let pending = try #require(m["pending"] as? [[String: Any]])
        #expect(pending.count == 1, "\(pending)")
        #expect(pending.first?["effective"] as? String == "2026-12-06")
        #expect(pending.first?["dose"] as? String == "1000 mg")
        #expect(pending.first?["per_dose"] as? Double == 2)
        let text = try h.ok("list", now: Self.at(3, "09:00")).out
        #expect(text.contains("500 mg") && text.contains("from 2026-12-06") && text.contains("dose 1000 mg")
                && text.contains("2 per dose"), "\(text)")
        // On the day, the new dose is today's and nothing is pending.
        let later = try #require(try h.ok("list", "--json", now: Self.at(6, "09:00")).json as? [[String: Any]])
        #expect(later.first?["dose"] as? String == "1000 mg")
        #expect((later.first?["pending"] as? [Any])?.isEmpty == true)
        // Without a dose or schedule change --effective is still refused.
        #expect(try h.run("edit", "Metformin", "--note", "x", "--effective", "2026-12-06").status == 64)
    }

    @Test("every report format keeps the dose of each day: csv, json and html before and after the change")
    func reports() throws {
        let h = try metformin()
        let now = Self.at(7, "12:00")
        let csv = try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-07", "--format", "csv", now: now).out
        let rows = csv.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 7, "\(csv)")
        for row in rows {
            let expected = row[0] < "2026-12-06" ? "500 mg" : "1000 mg"
            #expect(row[3] == expected, "\(row)")
        }
        let json = try #require(try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-07", "--format", "json", now: now).json
            as? [String: Any])
        let slots = try #require(json["slots"] as? [[String: Any]])
        #expect(slots.map { $0["dose"] as? String ?? "" } == Array(repeating: "500 mg", count: 5) + ["1000 mg", "1000 mg"], "\(slots)")
        #expect((json["medications"] as? [[String: Any]])?.first?["dose"] as? String == "1000 mg")
        let html = try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-07", "--format", "html", now: now).out
        #expect(html.contains("500 mg until") && html.contains("1000 mg from"), "both doses with their days")
        // A report of the days before the change alone never shows the new dose.
        let before = try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-05", "--format", "html", now: now).out
        #expect(before.contains("500 mg") && !before.contains("1000 mg"))
        let json5 = try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-05", "--format", "json", now: now).out
        #expect(!json5.contains("1000 mg"))
    }

    @Test("a back-dated take of a day before the change subtracts the old amount, a take after it the new one")
    func stock() throws {
        let h = try metformin()
        // 100 − 5 × 1 (12-01 … 12-05, the last back-dated on 12-07) − 2 × 2 (12-06, 12-07).
        let list = try #require(try h.ok("list", "--json", now: Self.at(7, "12:00")).json as? [[String: Any]])
        #expect(list.first?["stock"] as? Double == 91, "\(list)")
        // Undo gives back exactly what the back-dated take used.
        try h.ok("undo", "Metformin", now: Self.at(7, "12:00"))
        let after = try #require(try h.ok("list", "--json", now: Self.at(7, "12:01")).json as? [[String: Any]])
        #expect(after.first?["stock"] as? Double == 92)
    }

    @Test("a carried slot of yesterday shows yesterday's dose in today, today's slot the new one")
    func carriedSlot() throws {
        let h = Harness(now: Self.at(1, "07:00"))
        try h.ok("add", "Levothyroxine", "--at", "22:00", "--dose", "50 mcg", "--from", "2026-12-01")
        try h.ok("edit", "Levothyroxine", "--dose", "75 mcg", "--effective", "2026-12-05", now: Self.at(3, "09:00"))
        let snapshot = try h.today(at: Self.at(5, "00:30"))
        let doses = (snapshot["doses"] as? [[String: Any]]) ?? []
        let carried = doses.first { $0["day"] as? String == "2026-12-04" }
        let today = doses.first { $0["day"] as? String == "2026-12-05" }
        #expect(carried?["dose"] as? String == "50 mcg", "\(doses)")
        #expect(today?["dose"] as? String == "75 mcg", "\(doses)")
        let text = try h.ok("today", now: Self.at(5, "00:30")).out
        #expect(text.contains("50 mcg") && text.contains("75 mcg"), "\(text)")
    }

    @Test("an edit of the dose on the day leaves the days before with theirs (the report of last week)")
    func editOnTheDay() throws {
        let h = Harness(now: Self.at(1, "07:00"))
        try h.ok("add", "Metformin", "--at", "08:00", "--dose", "500 mg", "--from", "2026-12-01")
        for day in 1...3 { try h.ok("take", "Metformin", now: Self.at(day, "08:05")) }
        try h.ok("edit", "Metformin", "--dose", "1000 mg", now: Self.at(4, "07:00"))
        try h.ok("take", "Metformin", now: Self.at(4, "08:05"))
        let csv = try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-04", "--format", "csv", now: Self.at(4, "09:00")).out
        let doses = csv.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[3] }
        #expect(doses == ["500 mg", "500 mg", "500 mg", "1000 mg"], "\(csv)")
    }

    @Test("two devices that synced agree on every day's dose, and a device's later schedule edit keeps the dose")
    func syncRoundTrip() throws {
        let a = Harness(now: Self.at(1, "07:00")), b = Harness(now: Self.at(1, "07:00"))
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Metformin", "--at", "08:00", "--dose", "500 mg", "--stock", "100", "--from", "2026-12-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        for day in 1...3 { try a.ok("take", "Metformin", now: Self.at(day, "08:05")) }
        try a.ok("edit", "Metformin", "--dose", "1000 mg", "--per-dose", "2", "--effective", "2026-12-06", now: Self.at(3, "09:00"))
        try a.ok("sync", "now", now: Self.at(3, "09:01"))
        try b.ok("sync", "now", now: Self.at(3, "09:02"))
        // B moves the time from 12-08 on: the version it writes keeps the dose in force then.
        try b.ok("edit", "Metformin", "--at", "09:00", "--effective", "2026-12-08", now: Self.at(3, "09:03"))
        try b.ok("take", "Metformin", "--at", "2026-12-06T08:10", now: Self.at(6, "09:00"))
        try b.ok("sync", "now", now: Self.at(6, "09:01"))
        try a.ok("sync", "now", now: Self.at(6, "09:02"))
        let now = Self.at(8, "10:00")
        for format in ["csv", "json"] {
            // A dose's origin is where this device got it from (`click` here, `device` there): the one
            // field that is rightly not the same on both.
            func local(_ text: String) -> String {
                text.replacingOccurrences(of: #","origin":("[a-z]+"|null)"#, with: "", options: .regularExpression)
            }
            let ra = local(try a.ok("report", "--from", "2026-12-01", "--to", "2026-12-08", "--format", format, now: now).out)
            let rb = local(try b.ok("report", "--from", "2026-12-01", "--to", "2026-12-08", "--format", format, now: now).out)
            #expect(ra == rb, "\(format) on both devices")
            #expect(ra.contains("500 mg") && ra.contains("1000 mg"))
        }
        let csv = try a.ok("report", "--from", "2026-12-01", "--to", "2026-12-08", "--format", "csv", now: now).out
        let rows = csv.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first { $0[0] == "2026-12-08" }?[3] == "1000 mg", "the 09:00 version keeps the new dose: \(csv)")
        #expect(rows.first { $0[0] == "2026-12-03" }?[3] == "500 mg")
        #expect(SyncCommandTests.canonical(try a.run(["list", "--json"], now: now))
                == SyncCommandTests.canonical(try b.run(["list", "--json"], now: now)))
        // 100 − 3 × 1 − 1 × 2 (12-06, taken on B).
        let stock = (try a.ok("list", "--json", now: now).json as? [[String: Any]])?.first?["stock"] as? Double
        #expect(stock == 95, "\(String(describing: stock))")
    }
}
