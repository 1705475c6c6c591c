import Foundation
import Glibc
import Testing

/// One spelling for each option across commands (DESIGN §2, issue 24): `--json` wherever data is
/// printed, value names in any letter case, `--days weekdays|weekends`, the same range options and
/// medicine filter on history, stats and report, `--color`.
@Suite("option spellings", .serialized)
struct OptionSpellingTests {
    /// Aspirin (08:00) and Magnesium (21:00) from 10 November; Aspirin taken on the 12th and 13th,
    /// Magnesium never: a past with days of both kinds. The clock stands at 22 November 08:30.
    func harness() throws -> Harness {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-10T07:00:00+09:00")
        try h.ok("add", "Magnesium", "--at", "21:00", now: "2026-11-10T07:00:00+09:00")
        try h.ok("take", "Aspirin", now: "2026-11-12T08:05:00+09:00")
        try h.ok("take", "Aspirin", now: "2026-11-13T08:10:00+09:00")
        return h
    }

    /// A refusal: exit 64, one line on stderr naming `word`, nothing on stdout.
    func refused(_ h: Harness, _ args: [String], naming word: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try h.run(args)
        #expect(r.status == 64 && r.out.isEmpty, "\(args): \(r.status) \(r.out)", sourceLocation: sourceLocation)
        #expect(r.err.hasPrefix("dosebar: ") && r.err.split(separator: "\n").count == 1 && r.err.contains(word),
                "\(args): \(r.err.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("--json is --format json on status, watch and report; --json with another --format is refused")
    func jsonFlag() throws {
        let h = try harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let status = try h.ok("status", "--json"), statusFormat = try h.ok("status", "--format", "json")
        #expect(status.json != nil && status.out == statusFormat.out)
        #expect(try h.ok("status", "--json", "--format", "json").out == status.out)
        let report = try h.ok("report", "--json"), reportFormat = try h.ok("report", "--format", "json")
        #expect(report.json != nil && report.out == reportFormat.out)
        // To a file: the format is JSON whatever --output is called, and .html is a contradiction.
        try h.ok("report", "--json", "--output", h.root + "/r.json")
        #expect(try String(contentsOfFile: h.root + "/r.json", encoding: .utf8) == report.out)
        #expect(try h.run("report", "--json", "--output", h.root + "/r.html").status == 64)
        try h.ok("export")
        let w = try LiveProcess(["watch", "--json"], env: h.env, root: h.root, captureStdout: true)
        let line = w.readLine()
        w.signal(SIGTERM)
        _ = w.waitExit()
        #expect(line == (try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8)).trimmingCharacters(in: .newlines))
        for args in [["status", "--json", "--format", "waybar"], ["watch", "--format", "text", "--json"],
                     ["report", "--json", "--format", "csv"]] {
            try refused(h, args, naming: "--json")
        }
    }

    @Test("value names in any letter case, as --lang KO: --format WAYBAR, --format JSON, --color NEVER")
    func letterCase() throws {
        let h = try harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        #expect(try h.ok("status", "--format", "WAYBAR").out == (try h.ok("status", "--format", "waybar")).out)
        #expect(try h.ok("report", "--format", "Csv").out == (try h.ok("report", "--format", "csv")).out)
        #expect(try h.ok("history", "--color", "NEVER").out == (try h.ok("history")).out)
        try h.ok("export")
        let w = try LiveProcess(["watch", "--format", "JSON"], env: h.env, root: h.root, captureStdout: true)
        let line = w.readLine()
        w.signal(SIGTERM)
        _ = w.waitExit()
        #expect(line == (try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8)).trimmingCharacters(in: .newlines))
        try refused(h, ["status", "--format", "wayba"], naming: "wayba")
    }

    @Test("--days weekdays and weekends on add and edit mean mon–fri and sat,sun")
    func weekdaysWeekends() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Work", "--at", "08:00", "--days", "weekdays")
        try h.ok("add", "Listed", "--at", "08:00", "--days", "mon,tue,wed,thu,fri")
        try h.ok("add", "Rest", "--at", "08:00", "--days", "Weekends")
        try h.ok("add", "Pair", "--at", "08:00", "--days", "sat,sun")
        try h.ok("add", "Later", "--at", "08:00")
        try h.ok("edit", "Later", "--days", "WEEKDAYS")
        let list = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        let schedule = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, "\($0["schedule_text"]!)") })
        #expect(schedule["Work"] == schedule["Listed"] && schedule["Later"] == schedule["Listed"], "\(schedule)")
        #expect(schedule["Rest"] == schedule["Pair"] && schedule["Rest"] != schedule["Work"], "\(schedule)")
        try refused(h, ["add", "Odd", "--at", "08:00", "--days", "weekday"], naming: "weekday")
    }

    /// The days of `history --json`.
    func days(_ r: Harness.Result) -> [String] { ((r.json as? [[String: Any]]) ?? []).compactMap { $0["day"] as? String } }

    @Test("history, stats and report take --from, --to, --days and a medicine name alike")
    func ranges() throws {
        let h = try harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let three = ["2026-11-12", "2026-11-13", "2026-11-14"]
        #expect(days(try h.ok("history", "--from", "2026-11-12", "--days", "3", "--json")) == three)
        #expect(days(try h.ok("history", "--to", "2026-11-14", "--days", "3", "--json")) == three)
        #expect(days(try h.ok("history", "--from", "2026-11-12", "--to", "2026-11-14", "--json")) == three)
        #expect(days(try h.ok("history", "--days", "2", "--json")) == ["2026-11-21", "2026-11-22"])
        for range in [["--from", "2026-11-12", "--days", "3"], ["--to", "2026-11-14", "--days", "3"], ["--from", "2026-11-12", "--to", "2026-11-14"]] {
            let stats = try #require(try h.ok(["stats", "--json"] + range).json as? [String: Any])
            #expect(stats["from"] as? String == three.first && stats["to"] as? String == three.last && stats["days"] as? Int == 3, "\(range): \(stats)")
            let report = try #require(try h.ok(["report", "--format", "json"] + range).json as? [String: Any])
            #expect(report["from"] as? String == three.first && report["to"] as? String == three.last, "\(range): \(report)")
        }
        // The medicine filter: report Aspirin has Aspirin alone, with the doses history counts for it.
        let all = try #require(try h.ok("report", "--from", "2026-11-10", "--json").json as? [String: Any])
        #expect((all["medications"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Aspirin", "Magnesium"])
        let one = try #require(try h.ok("report", "asp", "--from", "2026-11-10", "--json").json as? [String: Any])
        let lines = try #require(one["medications"] as? [[String: Any]])
        #expect(lines.compactMap { $0["name"] as? String } == ["Aspirin"])
        let history = try #require(try h.ok("history", "Aspirin", "--from", "2026-11-10", "--json").json as? [[String: Any]])
        let taken = history.reduce(0) { $0 + ($1["taken"] as? Int ?? 0) }, missed = history.reduce(0) { $0 + ($1["missed"] as? Int ?? 0) }
        #expect(taken == 2 && lines.first?["taken"] as? Int == taken && lines.first?["missed"] as? Int == missed, "\(lines)")
        let stats = try #require(try h.ok("stats", "Aspirin", "--from", "2026-11-10", "--json").json as? [String: Any])
        #expect((stats["overall"] as? [String: Any])?["missed"] as? Int == missed)
        for command in ["history", "stats", "report"] {
            try refused(h, [command, "--from", "2026-11-12", "--to", "2026-11-14", "--days", "3"], naming: "at most two")
            try refused(h, [command, "--days", "0"], naming: "--days")
            try refused(h, [command, "--from", "2026-11-14", "--to", "2026-11-12"], naming: "--from")
        }
        let unknown = try h.run("report", "Vitamin")
        #expect(unknown.status == 65 && unknown.out.isEmpty && unknown.err.contains("Vitamin"), "\(unknown.err)")
    }

    /// `dosebar args…` on a terminal (`script` gives it one).
    func onTerminal(_ h: Harness, _ args: String, env extra: [String: String] = [:]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qfc", Harness.binary + " " + args, "/dev/null"]
        p.environment = h.env.merging(extra) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `text` without its ANSI colour sequences.
    func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test("--color always|never decides over the terminal and NO_COLOR; the coloured calendar keeps its letters, blue and orange")
    func color() throws {
        let h = try harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let escape = "\u{1B}["
        let letters = try h.ok("history", "--from", "2026-11-10")
        #expect(!letters.out.contains(escape))
        let colored = try h.run(["history", "--from", "2026-11-10", "--color", "always"], extraEnv: ["NO_COLOR": "1"])
        #expect(colored.status == 0 && colored.out.contains(escape))
        // Every letter stays: without its colour sequences the calendar is the one a pipe gets.
        #expect(plain(colored.out) == letters.out, "\(colored.out.debugDescription)")
        // All taken is blue, missed orange (never the green and red that red-green colour blindness merges).
        #expect(colored.out.contains("48;5;25m") && colored.out.contains("48;5;208m"))
        #expect(!colored.out.contains(";42m") && !colored.out.contains(";41m"))
        #expect(try h.run(["today", "--color", "always"]).out.contains(escape))
        let never = try onTerminal(h, "history --color never")
        #expect(never.contains("Aspirin") || never.contains("2026-11"), "\(never.debugDescription)")
        #expect(!never.contains(escape), "\(never.debugDescription)")
        #expect(try onTerminal(h, "today").contains(escape))
        #expect(!(try onTerminal(h, "today --color never")).contains(escape))
        try refused(h, ["today", "--color", "sometimes"], naming: "sometimes")
    }

    @Test("sync status --json: this device, the folder and each device's progress, as the text says")
    func syncStatusJSON() throws {
        let h = try harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let shared = h.root + "/Sync"
        try h.ok("sync", "init", shared)
        let text = try h.ok("sync", "status").out
        let status = try #require(try h.ok("sync", "status", "--json").json as? [String: Any])
        let device = try #require(status["device"] as? String)
        #expect(text.contains(device) && (status["dir"] as? String).map { text.contains($0) } == true, "\(status)")
        let devices = try #require(status["devices"] as? [[String: Any]])
        #expect(devices.count == 1 && devices.first?["device"] as? String == device && (devices.first?["applied"] as? Int ?? 0) > 0, "\(devices)")
        #expect(status["skipped"] as? [Any] != nil && status["waiting"] as? [Any] != nil && status["clone"] is NSNull)
    }
}
