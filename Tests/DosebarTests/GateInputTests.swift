import Foundation
import Testing

/// DESIGN §9's one validation gate, through the binary: hostile names (ESC, BEL, bidi overrides,
/// separators), a 10,000-character name, a note as long as one argument may be, enormous amounts
/// and instants out of range are refused with one line and the documented code — 64 where the CLI's
/// parsing catches them, 65 where the gate does — and the database and shared directory are
/// exactly as before. Imports (CSV, Dosage) carrying such values are refused the same way, naming
/// the field, with nothing written.
@Suite struct GateInputTests {
    typealias Case = BadInputTests.Case

    /// The longest single argument Linux passes to a program is 128 KiB (MAX_ARG_STRLEN): a 5 MB note
    /// cannot be given on a command line; this one is as long as argv allows, short of that.
    static let longNote = String(repeating: "n", count: 120_000)

    static let cases: [Case] = [
        Case(args: ["add", "Evil\u{1B}[2J", "--at", "08:00"], code: 64, says: ["NAME", "control", "U+001B"]),
        Case(args: ["add", "Bell\u{7}", "--at", "08:00"], code: 64, says: ["NAME", "control"]),
        Case(args: ["add", "Next\u{85}Line", "--at", "08:00"], code: 64, says: ["NAME", "control"]),
        Case(args: ["add", "abc\u{202E}gpj.exe", "--at", "08:00"], code: 64, says: ["NAME", "U+202E"]),
        Case(args: ["add", "Iso\u{2066}late", "--at", "08:00"], code: 64, says: ["NAME", "U+2066"]),
        Case(args: ["add", "Mark\u{200F}", "--at", "08:00"], code: 64, says: ["NAME", "U+200F"]),
        Case(args: ["add", "Arabic\u{061C}mark", "--at", "08:00"], code: 64, says: ["NAME", "U+061C"]),
        Case(args: ["add", "Line\u{2028}Sep", "--at", "08:00"], code: 64, says: ["NAME", "U+2028"]),
        Case(args: ["add", String(repeating: "n", count: 10_000), "--at", "08:00"], code: 64, says: ["NAME", "100"]),
        Case(args: ["add", "X", "--at", "08:00", "--note", longNote], code: 64, says: ["--note"]),
        Case(args: ["add", "X", "--at", "08:00", "--dose", "100\u{202D}mg"], code: 64, says: ["--dose", "U+202D"]),
        Case(args: ["add", "X", "--at", "08:00", "--group", "am\u{2069}"], code: 64, says: ["--group", "U+2069"]),
        Case(args: ["add", "X", "--at", "08:00", "--until", "2300-01-01"], code: 65, says: ["until", "2200-12-31"]),
        Case(args: ["add", "X", "--at", "08:00", "--from", "1900-01-01"], code: 65, says: ["1970-01-01"]),
        Case(args: ["add", "X", "--at", "08:00", "--per-dose", "99999999999999"], code: 64, says: ["--per-dose"]),
        Case(args: ["add", "X", "--at", "08:00", "--per-dose", "99999999999999999999999"], code: 64, says: ["--per-dose"]),
        Case(args: ["add", "X", "--at", "08:00", "--stock", "99999999999999"], code: 64, says: ["--stock"]),
        Case(args: ["add", "X", "--at", "08:00", "--stock", "-9223372036854775808"], code: 64, says: ["--stock"]),
        Case(args: ["edit", "Aspirin", "--rename", "Asp\u{202E}irin"], code: 64, says: ["NAME", "U+202E"]),
        Case(args: ["edit", "Aspirin", "--stock", "9223372036854775807"], code: 64, says: ["--stock"]),
        Case(args: ["refill", "Aspirin", "99999999999999"], code: 64, says: ["refill"]),
        Case(args: ["refill", "Aspirin", "9223372036854775807"], code: 64, says: ["refill"]),
        Case(args: ["refill", "Aspirin", "--set", "99999999999999"], code: 64, says: ["--set"]),
        Case(args: ["take", "Aspirin", "--at", "1e300"], code: 64, says: ["--at", "1e300"]),
        Case(args: ["take", "Aspirin", "--at", "1900-01-01T08:00"], code: 65, says: ["1900-01-01"]),
        Case(args: ["take", "Aspirin", "--at", "2026-11-23T08:00"], code: 65, says: ["--at", "future"]),
    ]

    @Test(arguments: cases)
    func refusedWithOneLineAndNothingChanged(_ c: Case) throws {
        let h = try BadInputTests.world()
        let before = WorldSnapshot(h)
        let r = try h.run(c.args, now: BadInputTests.badNow)
        #expect(r.status == c.code, "\(c.args.first ?? ""): exit \(r.status), stderr: \(r.err.prefix(300))")
        #expect(r.out.isEmpty, "printed on stdout: \(r.out.prefix(300))")
        let lines = r.err.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(lines.count) lines on stderr: \(r.err.prefix(300))")
        let first = lines.first.map(String.init) ?? ""
        for word in c.says { #expect(first.contains(word), "the error line does not say \(word.debugDescription): \(first.prefix(300))") }
        #expect(first.count < 400, "the error line repeats the hostile value: \(first.prefix(300))")
        let after = WorldSnapshot(h)
        #expect(after == before, "changed something:\n\(after.changes(since: before))")
    }

    /// The gate refuses nothing the command line accepted before: every edge of its ranges still adds.
    @Test func theCommandLinesEdgesStillPass() throws {
        let h = try BadInputTests.world()
        let at = BadInputTests.badNow
        try h.ok("add", String(repeating: "가", count: 100), "--at", "08:00", "--note", String(repeating: "n", count: 1_000),
                 "--dose", String(repeating: "d", count: 100), "--group", String(repeating: "g", count: 100), now: at)
        try h.ok("add", "Cycle", "--at", "08:00", "--cycle", "366/366", "--window", "12h", now: at)
        try h.ok("add", "Every", "--at", "08:00", "--every", "366d", "--window", "0", "--until", "2200-12-31", now: at)
        try h.ok("add", "Weeks", "--at", "08:00", "--every", "366w", "--from", "2036-11-01", now: at)
        try h.ok("add", "Months", "--at", (0..<48).map { String(format: "%02d:%02d", $0 / 2, $0 % 2 * 30) }.joined(separator: ","),
                 "--every", "366m", now: at)
        try h.ok("add", "Prn", "--as-needed", "--max-per-day", "100", "--min-interval", "7d", now: at)
        // Added at 07:30, before the 08:00 slot taken below (a medicine is tracked from the instant it
        // is added, DESIGN §3).
        try h.ok("add", "Bulk", "--at", "08:00", "--stock", "0", "--per-dose", "1000", "--low-days", "365",
                 now: "2026-11-22T07:30:00+09:00")
        try h.ok("refill", "Bulk", "1000000", now: at)
        try h.ok("refill", "Bulk", "--set", "1000000", now: at)
        try h.ok("take", "Bulk", now: at)
        try h.ok("undo", "Bulk", now: at)
    }

    // MARK: - Imports

    static let header = "date,scheduled,medication,dose,status,taken_at,late_minutes\r\n"

    /// A CSV whose as-needed medicine (unknown names are added) carries `name`, or whose dose is at `takenAt`.
    static func csv(name: String = "Ibu", takenAt: String = "2026-11-21T14:00:00+09:00") -> String {
        header + "2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,,taken,2026-11-21T08:05:00+09:00,\r\n"
            + "2026-11-21,,\"\(name)\",,as_needed,\(takenAt),\r\n"
    }

    @Test("import csv: a name with a bidi override or a line separator is refused (65) naming the field; nothing written")
    func csvWithHostileValues() throws {
        let h = try BadInputTests.world()
        let before = WorldSnapshot(h)
        let cases: [(String, [String])] = [
            (Self.csv(name: "Ibu\u{202E}kcilc"), ["name", "U+202E"]),
            (Self.csv(name: "Ibu\u{2029}"), ["name", "U+2029"]),
            (Self.csv(name: "Ibu\u{200E}"), ["name", "U+200E"]),
        ]
        for (text, words) in cases {
            let file = h.root + "/hostile.csv"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let r = try h.run(["import", "csv", file], now: BadInputTests.badNow)
            #expect(r.status == 65, "\(words): exit \(r.status): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty, "\(r.err)\(r.out)")
            for w in words { #expect(r.err.contains(w), "\(r.err)") }
        }
        #expect(WorldSnapshot(h) == before, "\(WorldSnapshot(h).changes(since: before))")
    }

    /// A Dosage export of one daily treatment, `change` applied to it, and an empty history.
    static func dosage(_ h: Harness, _ change: (inout [String: Any]) -> Void) throws -> String {
        var t: [String: Any] = [
            "name": "Calcium", "unit": "pill(s)", "notes": "", "frequency": "daily", "days": [0, 1, 2, 3, 4, 5, 6],
            "cycle": [7, 7, 1], "dosage": [["time": [8, 0], "dose": 1]],
            "inventory": ["enabled": true, "current": 30, "reminder": 5, "refill": 0],
            "duration": ["enabled": false, "start": 0, "end": 0],
        ]
        change(&t)
        let folder = h.root + "/dosage-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let treatments = try JSONSerialization.data(withJSONObject: ["version": 2, "treatments": [t]])
        try treatments.write(to: URL(fileURLWithPath: folder + "/dosage-treatments.json"))
        try Data("{\"history\": []}".utf8).write(to: URL(fileURLWithPath: folder + "/dosage-history.json"))
        return folder
    }

    @Test("import dosage: bidi names, control characters or 5 MB in notes, a course from 1900 are refused (65) naming the field; nothing written")
    func dosageWithHostileValues() throws {
        let h = try BadInputTests.world()
        let before = WorldSnapshot(h)
        let cases: [(String, (inout [String: Any]) -> Void, [String])] = [
            ("bidi name", { $0["name"] = "Cal\u{202E}cium" }, ["name", "U+202E"]),
            ("ESC in notes", { $0["notes"] = "take \u{1B}[31m red" }, ["note", "U+001B"]),
            ("NUL in notes", { $0["notes"] = "take\u{0}hidden" }, ["note", "U+0000"]),
            ("5 MB notes", { $0["notes"] = String(repeating: "n", count: 5_000_000) }, ["note", "2000"]),
            ("course from 1900", { $0["duration"] = ["enabled": true, "start": -2_208_988_800_000.0, "end": 1_795_000_000_000.0] },
             ["effective", "1970"]),
        ]
        for (what, change, words) in cases {
            let folder = try Self.dosage(h, change)
            let r = try h.run(["import", "dosage", folder], now: BadInputTests.badNow)
            #expect(r.status == 65, "\(what): exit \(r.status): \(r.err.prefix(300))")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty, "\(what): \(r.err.prefix(300))\(r.out.prefix(300))")
            for w in words { #expect(r.err.contains(w), "\(what): \(r.err.prefix(300))") }
            #expect(r.err.count < 400, "\(what): the error repeats the hostile value")
        }
        #expect(WorldSnapshot(h) == before, "\(WorldSnapshot(h).changes(since: before))")
    }

    @Test("import dosage: a stock or reminder of 1e300 units does not crash; it is kept at the maximum")
    func dosageHugeAmountsAreClamped() throws {
        let h = try BadInputTests.world()
        let folder = try Self.dosage(h) { $0["inventory"] = ["enabled": true, "current": 1e300, "reminder": 1e300, "refill": 1e300] }
        let r = try h.run(["import", "dosage", folder], now: BadInputTests.badNow)
        #expect(r.status == 0, "exit \(r.status): \(r.err.prefix(300))")
        let list = try #require(try h.ok("list", "--json", now: BadInputTests.badNow).json as? [[String: Any]])
        let calcium = try #require(list.first { $0["name"] as? String == "Calcium" })
        #expect(calcium["stock"] as? Int == 1_000_000, "\(calcium)")
    }
}

/// Rows an older dosebar's sync already wrote out of range (every 0 days, a cycle of 0/0, stock and
/// per-dose 2^63 - 1, an escape sequence in a name, an event at 1e300): every command still runs,
/// a take is still logged, and `doctor` names what to fix.
@Suite struct StoredOutOfRangeTests {
    static func sql(_ h: Harness, _ query: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, "PRAGMA ignore_check_constraints = ON; " + query]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "sqlite3 failed: \(query)")
    }

    @Test func everyCommandSurvivesAndATakeIsLogged() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00")
        try h.ok("add", "Cycle", "--at", "08:00", "--cycle", "21/7")
        try h.ok("add", "Iron", "--at", "08:00", "--stock", "30")
        try h.ok("add", "Ibu", "--as-needed")
        try Self.sql(h, """
            UPDATE schedule_version SET kind = 'every_days', param_a = 0 WHERE medication_id = (SELECT id FROM medication WHERE name = 'Aspirin');
            UPDATE schedule_version SET param_a = 0, param_b = 0 WHERE medication_id = (SELECT id FROM medication WHERE name = 'Cycle');
            UPDATE medication SET stock = 9223372036854775807, per_dose = 9223372036854775807 WHERE name = 'Iron';
            UPDATE medication SET name = 'Ibu' || char(27) || '[2J' WHERE name = 'Ibu';
            INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known)
                SELECT id, 'taken', 20778, NULL, 1e300, -1e300, NULL, -9223372036854775808, 1 FROM medication WHERE name LIKE 'Ibu%';
            """)
        let at = "2026-11-22T08:30:00+09:00"
        for args in [["today"], ["today", "--json"], ["status", "--format", "waybar"], ["list"], ["history", "--from", "2026-11-01"],
                     ["stats"], ["report", "--format", "csv"], ["report", "--format", "html"], ["export"]] {
            let r = try h.run(args, now: at)
            #expect(r.status == 0, "\(args): exit \(r.status): \(r.err.prefix(300))")
        }
        let take = try h.run(["take", "Iron"], now: at)
        #expect(take.status == 0 && take.out.contains("Iron"), "take: exit \(take.status): \(take.err.prefix(300))")
        #expect(try h.run(["refill", "Iron", "5"], now: at).status == 0)
        #expect(try h.run(["undo", "Iron"], now: at).status == 0)
        let doctor = try h.run(["doctor"], now: at)
        #expect(doctor.out.contains("Aspirin: every"), "\(doctor.out)")
        #expect(doctor.out.contains("Cycle: cycle active days"), "\(doctor.out)")
        #expect(doctor.out.contains("Iron: per dose"), "\(doctor.out)")
        #expect(doctor.out.contains("Ibu\u{FFFD}[2J: name: contains a control character (U+001B)"), "\(doctor.out)")
    }
}

/// Sync passes the same gate: hostile lines in another device's file (every 0 days, a 0/0 cycle,
/// per-dose 2^63 - 1, ESC and a bidi override in names, a take at 1e300 or with units -2^63) never
/// crash `sync now` nor any command after it, and none of those values reaches the database.
/// (What `sync now` says about them — skipped with a warning — is the sync applier's.)
@Suite struct SyncGateTests {
    static func device(_ h: Harness) throws -> String { try h.syncDevice() }

    static func query(_ h: Harness, _ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func hostileLinesNeverReachTheDatabase() throws {
        let a = Harness(), b = Harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", "--from", "2026-11-01")
        try a.ok("sync", "init", dirA)
        try b.ok("sync", "init", dirB)
        let deviceA = try Self.device(a)
        let source = try String(contentsOfFile: dirA + "/dosebar/" + deviceA + ".jsonl", encoding: .utf8)
        var lines = source.split(separator: "\n").map(String.init)
        let add = try #require(lines.first { $0.contains("\"kind\":\"add\"") })
        let template = try #require(try JSONSerialization.jsonObject(with: Data(add.utf8)) as? [String: Any])
        let medicine = try #require(template["medicine"] as? String)
        var counter = 90_000
        func line(_ fields: [String: Any], newMedicine: Bool = false) throws -> String {
            var op: [String: Any] = ["device": deviceA, "id": UUID().uuidString.lowercased(),
                                     "medicine": newMedicine ? UUID().uuidString.lowercased() : medicine,
                                     "stamp": "1795000000000-\(counter)-\(deviceA)"]
            counter += 1
            op.merge(fields) { $1 }
            return String(decoding: try JSONSerialization.data(withJSONObject: op, options: [.sortedKeys]), as: UTF8.self)
        }
        let schedule: [String: Any] = ["kind": "daily", "start": "2026-11-01", "times": ["08:00"], "window": 7200]
        lines += [
            try line(["kind": "schedule", "effective": "2026-11-20", "schedule": schedule.merging(["kind": "every_days", "a": 0]) { $1 }]),
            try line(["kind": "schedule", "effective": "2026-11-21", "schedule": schedule.merging(["kind": "cycle", "a": 0, "b": 0]) { $1 }]),
            // Amounts per time: naming another time than the schedule's, unsorted, without a per_dose, not a list.
            try line(["kind": "schedule", "effective": "2026-11-19", "schedule": schedule, "per_dose": 0.5,
                      "per_dose_times": ["08:00=0.5", "09:00=1"]]),
            try line(["kind": "schedule", "effective": "2026-11-17", "per_dose": 0.5,
                      "schedule": schedule.merging(["times": ["08:00", "20:00"]]) { $1 }, "per_dose_times": ["20:00=1", "08:00=0.5"]]),
            try line(["kind": "schedule", "effective": "2026-11-16",
                      "schedule": schedule.merging(["times": ["08:00", "20:00"]]) { $1 }, "per_dose_times": ["08:00=0.5", "20:00=1"]]),
            try line(["kind": "schedule", "effective": "2026-11-15", "per_dose": 0.5,
                      "schedule": schedule.merging(["times": ["08:00", "20:00"]]) { $1 }, "per_dose_times": "08:00=0.5,20:00=1"]),
            try line(["kind": "add", "name": "Esc\u{1B}[2J", "per_dose": 1, "low_days": 7], newMedicine: true),
            try line(["kind": "add", "name": "Huge", "per_dose": Int.max, "low_days": 7], newMedicine: true),
            try line(["kind": "edit", "changed": ["name"], "name": "Asp\u{202E}irin"]),
            try line(["kind": "take", "day": "2026-11-22", "slot": "08:00", "at": 1e300, "units": 1]),
            try line(["kind": "take", "day": "2026-11-22", "slot": "08:00", "at": 1_795_300_000.0, "units": Int.min]),
            // over_limit: only a take of an as-needed dose, only a boolean.
            // (Each valid but for over_limit: 2026-11-18 17:20 in Seoul, before the line's stamp.)
            try line(["kind": "take", "day": "2026-11-18", "slot": "08:00", "at": 1_794_990_000.0, "units": 1, "over_limit": true]),
            try line(["kind": "skip", "day": "2026-11-18", "slot": "08:00", "at": 1_794_990_000.0, "over_limit": true]),
            try line(["kind": "take", "day": "2026-11-18", "at": 1_794_990_000.0, "units": 1, "over_limit": "yes"]),
        ]
        let target = dirB + "/dosebar/" + deviceA + ".jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: target, atomically: true, encoding: .utf8)
        let now = "2026-11-22T09:00:00+09:00"
        let sync = try b.run(["sync", "now"], now: now)
        #expect(sync.status == 0 || sync.status == 65, "sync now: exit \(sync.status): \(sync.err.prefix(400))")
        for args in [["today"], ["status", "--format", "waybar"], ["list"], ["history"], ["export"], ["sync", "now"]] {
            let r = try b.run(args, now: now)
            #expect(r.status == 0 || (args == ["sync", "now"] && r.status == 65), "\(args): exit \(r.status): \(r.err.prefix(400))")
        }
        // The list of skipped lines (`sync_skipped`, for `sync status`) names why, values included: not data.
        let dump = b.dump().split(separator: "\n").filter { !$0.hasPrefix("INSERT INTO sync_skipped") }.joined(separator: "\n")
        let versions = try Self.query(b, "SELECT kind, param_a, param_b FROM schedule_version ORDER BY effective")
        #expect(!versions.contains("every_days") && !versions.contains("cycle"), "an every-0 or 0/0 schedule was stored: \(versions)")
        #expect(try Self.query(b, "SELECT count(*) FROM schedule_version WHERE per_dose_times IS NOT NULL OR effective BETWEEN 20772 AND 20776")
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "0", "amounts per time that do not fit were stored")
        #expect(!dump.contains("\u{1B}") && !dump.contains("\u{202E}"), "a control character was stored")
        #expect(!dump.contains("9223372036854775807") && !dump.contains("-9223372036854775808"), "an amount of 2^63 was stored")
        #expect(!dump.contains("e+300"), "an instant of 1e300 was stored")
        #expect(try Self.query(b, "SELECT count(*) FROM event WHERE over_limit != 0").trimmingCharacters(in: .whitespacesAndNewlines) == "0",
                "over_limit stored from a line that may not carry it")
    }
}
