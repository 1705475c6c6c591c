import Foundation
import Testing

/// `import dosage` and `import csv` through the binary (DESIGN §2, §9): what the imported data means
/// in history, list and stats; old Dosage layouts; idempotence; malformed files change nothing.
@Suite struct ImportTests {
    static let fixtures: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/dosage").path
    }()

    /// Sunday 2026-11-22 at noon in Seoul (11-16 is a Monday).
    static let noon = "2026-11-22T12:00:00+09:00"

    func harness() -> Harness { Harness(tz: "Asia/Seoul", now: Self.noon) }

    func sql(_ h: Harness, _ query: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, query]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let d = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: d, as: UTF8.self)
    }

    @Test("Dosage: five frequencies, every status code, stock and low days, an archived medicine for history without a treatment")
    func dosageMeaning() throws {
        let h = harness()
        let r = try h.ok("import", "dosage", Self.fixtures + "/current", "--json")
        let summary = try #require(r.json as? [String: Any])
        // Taken: Aspirin 16, 17 (code 2, auto-confirmed: time not known), 20 (code 3: time not known), 21; Magnesium 16, 18; Ibuprofen 19; Old Pill 17; Metformin 2 on 21.
        // Skipped: Aspirin 19, Magnesium 20, Old Pill 18 (a deleted treatment keeps its skip).
        #expect(summary["taken"] as? Int == 10 && summary["skipped"] as? Int == 3 && summary["missed"] as? Int == 1)
        #expect(summary["time_unknown"] as? Int == 2 && summary["already_there"] as? Int == 0)
        let added = try #require(summary["added"] as? [[String: Any]])
        #expect(added.map { $0["name"] as? String } == ["Aspirin", "Magnesium", "Vitamin D", "Yaz", "Ibuprofen", "Metformin", "Old Pill"])
        #expect(added.last?["origin"] as? String == "rebuilt", "Old Pill: a deleted treatment with a skip")
        let noEquivalent = (summary["no_equivalent"] as? [String]) ?? []
        #expect(noEquivalent.contains { $0.hasPrefix("Aspirin: refill amount 30") })
        #expect(!noEquivalent.contains { $0.hasPrefix("Metformin:") }, "its amounts per time are kept: \(noEquivalent)")
        #expect(!noEquivalent.contains { $0.hasPrefix("Old Pill:") }, "a deleted treatment's skip is kept: \(noEquivalent)")

        // Schedules: daily; JS weekdays 1,3,5 = Mon, Wed, Fri; day 15 monthly; cycle day 3 today; when needed.
        let list = try #require(try h.ok("list", "--all", "--json").json as? [[String: Any]])
        func med(_ name: String) -> [String: Any] { list.first { $0["name"] as? String == name } ?? [:] }
        #expect(med("Aspirin")["dose"] as? String == "1 pill(s)" && med("Aspirin")["stock"] as? Int == 30)
        #expect(med("Magnesium")["per_dose"] as? Int == 2 && med("Magnesium")["stock"] as? Int == 20)
        // Metformin: 500 at 08:00, 1000 at 20:00: the dose text says each, and each time keeps its amount.
        #expect(med("Metformin")["times"] as? [String] == ["08:00", "20:00"] && med("Metformin")["dose"] as? String == "08:00 500, 20:00 1000 mg")
        #expect(med("Metformin")["per_dose"] as? Int == 500)
        #expect((med("Metformin")["per_dose_times"] as? [[String: Any]])?.map { "\($0["time"]!) \($0["per_dose"]!)" } == ["08:00 500", "20:00 1000"])
        #expect(med("Ibuprofen")["times"] as? [String] == [] && med("Ibuprofen")["stock"] as? Int == 12)
        #expect(med("Old Pill")["archived"] as? Bool == true)
        // Dosage's reminder (units) in days: Aspirin 5 ÷ 1 a day, Magnesium 7 ÷ 2 a day rounded up.
        #expect(sql(h, "SELECT name, low_days, note FROM medication WHERE name IN ('Aspirin', 'Magnesium') ORDER BY name")
                == "Aspirin|5|with food\nMagnesium|4|\n")
        let today = try h.today()
        let cycle = try #require((today["cycle"] as? [[String: Any]])?.first)
        #expect(cycle["medication"] as? String == "Yaz" && cycle["day"] as? Int == 3 && cycle["phase"] as? String == "active")
        #expect(try h.statuses() == ["Aspirin:late", "Metformin:late", "Metformin:upcoming", "Yaz:upcoming"],
                "Sunday: no Magnesium (Mon/Wed/Fri), no Vitamin D (15th)")
        // Only 12-15's own doses: Monday's 21:00 Magnesium is still open then, carried (its cut-off is
        // min(Wed 21:00 − 2 h, Mon 21:00 + 24 h) = Tue 21:00, DESIGN §3), and listed first with its day.
        let dec15 = ((try h.today(at: "2026-12-15T07:00:00+09:00")["doses"] as? [[String: Any]]) ?? [])
            .filter { $0["day"] as? String == "2026-12-15" }.map { "\($0["medication"]!):\($0["status"]!)" }
        #expect(dec15.contains("Vitamin D:upcoming") && !dec15.contains { $0.hasPrefix("Magnesium") },
                "2026-12-15 is a Tuesday: Vitamin D on its day of the month")

        let days = try #require(try h.ok("history", "--from", "2026-11-16", "--json").json as? [[String: Any]])
        func day(_ i: Int, _ key: String) -> Int? { days[i][key] as? Int }
        // Tracking (DESIGN §3): an imported medicine from its earliest imported dose or missed record, else
        // from the import (12:00 today). Yaz has no history in the file, so its 11-20 and 11-21 doses are
        // untracked, not missed: those two days are done.
        #expect(days.map { $0["state"] as? String } == ["done", "done", "partial", "skipped", "done", "done", "pending"])
        // 11-16: Aspirin 08:05 (1), Magnesium 21:00 (1). 11-18: Aspirin missed (−1), Magnesium 21:30 on time.
        #expect(day(0, "on_time") == 2 && day(2, "missed") == 1 && day(2, "on_time") == 1)
        // 11-19 skipped (0). 11-20: Aspirin code 3 (at 08:00, time unknown), Magnesium skipped, Yaz untracked.
        #expect(day(3, "skipped") == 1 && day(4, "time_unknown") == 1 && day(4, "skipped") == 1 && day(4, "missed") == 0)
        #expect(day(4, "total") == 2, "Yaz's day 1 is not counted")
        // 11-17: Aspirin code 2 (auto-confirmed: the person never answered) is a dose whose time is not known.
        #expect(day(1, "time_unknown") == 1 && day(1, "missed") == 0)
        #expect(days.enumerated().allSatisfy { [1, 4].contains($0.offset) || $0.element["time_unknown"] == nil }, "the key only when there is one")
        // 11-21: Aspirin 11:30 late, Metformin twice (tracked from its 08:00 dose); Yaz untracked.
        #expect(day(5, "late") == 1 && day(5, "taken") == 3 && day(5, "missed") == 0 && day(5, "total") == 3)

        let report = try #require(try h.ok("report", "--format", "json", "--from", "2026-11-20", "--to", "2026-11-20").json as? [String: Any])
        let slots = try #require(report["slots"] as? [[String: Any]])
        let aspirin = try #require(slots.first { $0["medication"] as? String == "Aspirin" && $0["date"] as? String == "2026-11-20" })
        #expect(aspirin["time_unknown"] as? Bool == true && aspirin["taken_at"] as? String == "2026-11-20T08:00:00+09:00")
        let asNeeded = try h.ok("report", "--format", "csv", "--from", "2026-11-16").out
        #expect(asNeeded.contains("2026-11-19,,Ibuprofen,,as_needed,2026-11-19T14:00:00+09:00,,true,false,false,false\r\n"))
        // Old Pill (deleted in Dosage: taken 11-17 09:00, skipped 11-18): its slots rebuilt from its entries.
        #expect(asNeeded.contains("2026-11-17,2026-11-17T09:00:00+09:00,Old Pill,,taken,2026-11-17T09:00:00+09:00,,true,false,false,false\r\n"))
        #expect(asNeeded.contains("2026-11-18,2026-11-18T09:00:00+09:00,Old Pill,,skipped,,,,false,false,false\r\n"), "\(asNeeded)")
        #expect(!asNeeded.contains("2026-11-19,2026-11-19T09:00:00+09:00,Old Pill"), "no slot after its last entry")

        let stats = try #require(try h.ok("stats", "--days", "7", "--json").json as? [String: Any])
        let overall = try #require(stats["overall"] as? [String: Any])
        // Known outcomes 11-16…11-21: 9 taken, 3 skipped, 1 missed (Aspirin's code −1 on 11-18; Yaz's
        // 11-20 and 11-21 are untracked; Old Pill's 11-17 take and 11-18 skip are slots).
        #expect(overall["taken"] as? Int == 9 && overall["skipped"] as? Int == 3 && overall["missed"] as? Int == 1)
    }

    @Test("Dosage: a half-tablet dose and a fractional stock are kept exactly, not rounded")
    func dosageFractions() throws {
        let h = harness()
        let folder = h.root + "/dosage-half"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["dosage-treatments.json", "dosage-history.json"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/current/" + file, toPath: folder + "/" + file)
        }
        let path = folder + "/dosage-treatments.json"
        // Aspirin: half a pill a day, 9.75 on hand.
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var treatments = try #require(root["treatments"] as? [[String: Any]])
        let i = try #require(treatments.firstIndex { $0["name"] as? String == "Aspirin" })
        treatments[i]["dosage"] = [["time": [8, 0], "dose": 0.5]]
        var inventory = try #require(treatments[i]["inventory"] as? [String: Any])
        inventory["current"] = 9.75
        treatments[i]["inventory"] = inventory
        root["treatments"] = treatments
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
        try h.ok("import", "dosage", folder)
        let out = try h.ok("list", "--json").out
        let object = FractionTests.object(in: out, "Aspirin")
        #expect(object.contains(#""per_dose":0.5,"#) && object.contains(#""stock":9.75,"#), "\(object)")
    }

    @Test("Dosage: importing twice adds nothing; the database and history stay byte-identical")
    func dosageIdempotent() throws {
        let h = harness()
        try h.ok("import", "dosage", Self.fixtures + "/current")
        let history = try h.ok("history", "--from", "2026-11-01", "--json").out
        let dump = h.dump()
        let again = try #require(try h.ok("import", "dosage", Self.fixtures + "/current", "--json").json as? [String: Any])
        #expect(again["taken"] as? Int == 0 && again["skipped"] as? Int == 0 && again["already_there"] as? Int == 13)
        #expect((again["added"] as? [Any])?.isEmpty == true && (again["reused"] as? [String])?.count == 7)
        #expect(try h.ok("history", "--from", "2026-11-01", "--json").out == history)
        #expect(h.dump() == dump)
    }

    @Test("Dosage: the older layouts (no version, meds[], history by date; version 0) and the default folder")
    func dosageOldLayouts() throws {
        for folder in ["old", "v0"] {
            let h = harness()
            try h.ok("import", "dosage", Self.fixtures + "/" + folder)
            let days = try #require(try h.ok("history", "--from", "2026-11-20", "--json").json as? [[String: Any]])
            #expect(days.map { $0["state"] as? String } == ["done", "skipped", "pending"], "\(folder)")
            #expect(days[0]["on_time"] as? Int == 1, "\(folder): 08:15 is on time")
        }
        // No DIR: Dosage's Flatpak folder under HOME (here in its dosage/ subfolder).
        let h = harness()
        let flatpak = h.root + "/.var/app/io.github.diegopvlk.Dosage/data/dosage"
        try FileManager.default.createDirectory(atPath: flatpak, withIntermediateDirectories: true)
        for f in ["dosage-treatments.json", "dosage-history.json"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/old/" + f, toPath: flatpak + "/" + f)
        }
        let out = try h.ok("import", "dosage").out
        #expect(out.contains("Added Aspirin: daily 08:00.") && out.contains("1 taken, 1 skipped"))
        #expect(FileManager.default.fileExists(atPath: h.dir + "/snapshot.json"), "the shared directory is refreshed")
    }

    @Test("Dosage: bad JSON or a wrong field type exits 65 naming file and field; a missing file 74; nothing changes")
    func dosageMalformed() throws {
        let h = harness()
        try h.ok("add", "Aspirin", "--at", "08:00")
        let before = h.dump()
        let type = try h.run("import", "dosage", Self.fixtures + "/bad-type")
        #expect(type.status == 65)
        #expect(type.err == "dosebar: dosage-treatments.json: treatment \"Magnesium\": dosage[0].time: expected [hour, minute]\n")
        let json = try h.run("import", "dosage", Self.fixtures + "/bad-json")
        #expect(json.status == 65 && json.err.hasPrefix("dosebar: dosage-treatments.json: not valid JSON"))
        let missing = try h.run("import", "dosage", Self.fixtures + "/missing-history")
        #expect(missing.status == 74 && missing.err.contains("dosage-history.json: no such file"))
        let none = try h.run("import", "dosage", h.root + "/nowhere")
        #expect(none.status == 74)
        let dry = try h.ok("import", "dosage", Self.fixtures + "/current", "--dry-run").out
        #expect(dry.hasPrefix("Dry run: nothing was written.") && dry.contains("Would keep Aspirin as it is"))
        #expect(h.dump() == before)
    }

    @Test("CSV: BOM, LF, reordered and extra columns, quotes; unknown names become as-needed medicines; twice adds nothing")
    func csvForms() throws {
        let h = harness()
        try h.ok("add", "Aspirin", "--at", "08:00", "--dose", "100 mg, with food", now: "2026-11-20T07:00:00+09:00")
        let csv = "\u{FEFF}status,medication,note,taken_at,scheduled,date\n"
            + "taken_late,aspirin,x,2026-11-20T11:00:00+09:00,2026-11-20T08:00:00+09:00,2026-11-20\n"
            + "skipped,\"ASPIRIN\",\"a, b\",,2026-11-21T08:00:00+09:00,2026-11-21\n"
            + "missed,Aspirin,,,2026-11-19T08:00:00+09:00,2026-11-19\n"
            + "as_needed,\"Ibu \"\"fast\"\"\",,2026-11-21T14:00:00+09:00,,2026-11-21\n"
        let file = h.root + "/in.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let out = try h.ok("import", "csv", file).out
        #expect(out.contains("Kept Aspirin as it is") && out.contains("Added Ibu \"fast\" (as needed)"))
        #expect(out.contains("Doses imported: 2 taken, 1 skipped; 0 already there."))
        let days = try #require(try h.ok("history", "--from", "2026-11-20", "--to", "2026-11-21", "--json").json as? [[String: Any]])
        #expect(days.map { $0["state"] as? String } == ["done", "skipped"] && days[0]["late"] as? Int == 1)
        let report = try h.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out
        #expect(report.hasSuffix("2026-11-21,,\"Ibu \"\"fast\"\"\",,as_needed,2026-11-21T14:00:00+09:00,,true,false,false,false\r\n"))
        let dump = h.dump()
        let again = try #require(try h.ok("import", "csv", file, "--json").json as? [String: Any])
        #expect(again["already_there"] as? Int == 3 && again["taken"] as? Int == 0)
        #expect(h.dump() == dump)
    }

    @Test("CSV: a wrong header, a bad date at line N, an unknown status at line N: exit 65 naming the line, nothing changed")
    func csvMalformed() throws {
        let h = harness()
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-20T07:00:00+09:00")
        let before = h.dump()
        let header = "date,scheduled,medication,dose,status,taken_at,late_minutes\r\n"
        let good = "2026-11-20,2026-11-20T08:00:00+09:00,Aspirin,,taken,2026-11-20T08:05:00+09:00,\r\n"
        let cases: [(String, String)] = [
            ("date,scheduled,medication,dose,state,taken_at\r\n" + good, "bad.csv: line 1: the header has no 'status' column"),
            (header + good + good + "2026-11-32,2026-11-21T08:00:00+09:00,Aspirin,,taken,2026-11-21T08:05:00+09:00,\r\n",
             "bad.csv: line 4: date: '2026-11-32' is not a date"),
            (header + good + "2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,\"100\r\nmg\",taken,2026-11-21T08:05:00+09:00,\r\n"
                + "2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,,eaten,2026-11-21T08:05:00+09:00,\r\n",
             "bad.csv: line 5: status: unknown status 'eaten'"),
            (header + "2026-11-21,2026-11-21T08:00,Aspirin,,taken,2026-11-21T08:05:00+09:00,\r\n",
             "bad.csv: line 2: scheduled: '2026-11-21T08:00' is not an ISO-8601 date-time with an offset"),
            (header + "2026-11-21,\"2026-11-21T08:00:00+09:00,Aspirin\r\n", "bad.csv: line 2: a quoted field is not closed"),
        ]
        for (text, message) in cases {
            let file = h.root + "/bad.csv"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let r = try h.run("import", "csv", file)
            #expect(r.status == 65, "\(message): \(r.err)")
            #expect(r.err.hasPrefix("dosebar: " + message), "\(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty)
        }
        let missing = try h.run("import", "csv", h.root + "/none.csv")
        #expect(missing.status == 74)
        #expect(h.dump() == before)
    }
}
