import Foundation
import Testing

/// What the command line says when it is used wrongly, and what `list` shows (issue 24): ArgumentParser's
/// own errors as one dosebar line with a pointer to the command's help, in the user's language; the
/// usage lines added for issues 21 and 24 in Korean too; `list` with course, window, per dose, note,
/// changes to come and ended courses, in 80 columns, and `list --json` with the schedule as data.
@Suite("command-line words", .serialized)
struct CommandLineWordsTests {
    static let korean = ["LANG": "ko_KR.UTF-8"]

    /// A refusal: exit 64, nothing on stdout, one line on stderr starting `dosebar: `.
    func refusal(_ h: Harness, _ args: [String], env: [String: String] = [:],
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try h.run(args, extraEnv: env)
        #expect(r.status == 64 && r.out.isEmpty, "\(args): \(r.status) \(r.out)", sourceLocation: sourceLocation)
        let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(r.err.hasPrefix("dosebar: ") && lines.count == 1, "\(args): \(r.err.debugDescription)", sourceLocation: sourceLocation)
        return r.err
    }

    static func hasHangul(_ s: String) -> Bool { s.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } }

    /// An argument-parser error, the words its line must name, and the help it must point to.
    struct ParseCase: Sendable, CustomStringConvertible {
        var args: [String]
        var names: [String]
        var help: String
        var description: String { args.joined(separator: " ") }
    }

    static let parseCases: [ParseCase] = [
        ParseCase(args: ["refill", "Aspirin", "-5"], names: ["'-5'"], help: "dosebar refill --help"),
        ParseCase(args: ["add", "B", "--at", "08:00", "--stock", "-5"], names: ["--stock", "'-5'"], help: "dosebar add --help"),
        ParseCase(args: ["add", "B", "--at", "08:00", "--stock"], names: ["--stock"], help: "dosebar add --help"),
        ParseCase(args: ["list", "--jsn"], names: ["'--jsn'", "'--json'"], help: "dosebar list --help"),
        ParseCase(args: ["list", "--json=3"], names: ["--json", "'3'"], help: "dosebar list --help"),
        ParseCase(args: ["status", "--format", "nope"], names: ["--format", "'nope'", "waybar"], help: "dosebar status --help"),
        ParseCase(args: ["today", "--color", "sometimes"], names: ["--color", "'sometimes'", "never"], help: "dosebar today --help"),
        ParseCase(args: ["frobnicate"], names: ["'frobnicate'"], help: "dosebar --help"),
        ParseCase(args: ["sync", "frob"], names: ["'frob'"], help: "dosebar sync --help"),
        ParseCase(args: ["add"], names: ["<name>"], help: "dosebar add --help"),
        ParseCase(args: ["list", "extra"], names: ["'extra'"], help: "dosebar list --help"),
        ParseCase(args: ["add", "B", "--at", "08:00", "--stock", "9.755"], names: ["'9.755'", "--stock"], help: "dosebar add --help"),
        ParseCase(args: ["stats", "--days", "abc"], names: ["--days", "'abc'", "whole number"], help: "dosebar stats --help"),
    ]

    @Test("ArgumentParser's errors: one dosebar line naming the fix and the command's help, in English and Korean",
          arguments: parseCases)
    func parseErrors(_ c: ParseCase) throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let english = try refusal(h, c.args)
        for word in c.names + ["(see '\(c.help)')"] { #expect(english.contains(word), "\(c): \(english)") }
        // ArgumentParser's own wording is gone (its capitals and "Please provide" read unlike dosebar).
        for phrase in ["Unknown option", "Missing value", "Missing expected", "Unexpected argument", "is invalid for",
                       "Please provide", "does not take any value"] {
            #expect(!english.contains(phrase), "\(c): \(english)")
        }
        let korean = try refusal(h, c.args, env: Self.korean)
        // The names minus English words ("whole number" is 정수 in Korean).
        for word in c.names.filter({ $0 != "whole number" }) + ["'\(c.help)' 참고"] {
            #expect(korean.contains(word), "\(c): \(korean)")
        }
        #expect(Self.hasHangul(korean), "\(c): \(korean)")
    }

    @Test("the language of an argument error follows --lang, then the config file, then LANG")
    func parseErrorLanguage() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        #expect(Self.hasHangul(try refusal(h, ["list", "--jsn", "--lang", "ko"])))
        #expect(!Self.hasHangul(try refusal(h, ["list", "--jsn", "--lang", "en"], env: Self.korean)))
        try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
        try "language = \"ko\"\n".write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        #expect(Self.hasHangul(try refusal(h, ["list", "--jsn"])))
        #expect(!Self.hasHangul(try refusal(h, ["list", "--jsn", "--lang=en"])))
    }

    @Test("the usage lines of issues 21 and 24 in Korean: durations, names, range options, --slot, --days")
    func usageLinesInKorean() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-10T07:00:00+09:00")
        let cases: [([String], [String])] = [
            (["add", "B", "--at", "08:00", "--window", "90"], ["--window", "90m", "90h"]),
            (["add", "B", "--as-needed", "--min-interval", "6"], ["--min-interval", "6m", "6h"]),
            (["add", "B", "--at", "08:00", "--from", "2026-11-20", "--until", "2026-11-19"], ["--until", "2026-11-19", "2026-11-20"]),
            (["refill", "Aspirin"], ["--set"]),
            (["add", "", "--at", "08:00"], []),
            (["add", "B", "--at", "08:00", "--days", "weekday"], ["--days", "'weekday'"]),
            (["add", "B", "--at", "08:00", "--days", "mon", "--every", "3d"], ["--every"]),
            (["take", ""], []),
            (["take", "Aspirin", "--slot", "25:00"], ["--slot", "'25:00'"]),
            (["history", "--from", "2026-11-10", "--to", "2026-11-12", "--days", "3"], ["--from", "--days"]),
            (["history", "--from", "2026-11-13", "--to", "2026-11-12"], ["2026-11-13", "2026-11-12"]),
            (["stats", "--days", "0"], ["--days", "3660"]),
            (["report", "--from", "2026-11-32"], ["--from", "'2026-11-32'"]),
            (["edit", "Aspirin", "--note", "with food", "--effective", "2026-12-01"], ["--effective"]),
        ]
        for (args, names) in cases {
            let english = try refusal(h, args), korean = try refusal(h, args, env: Self.korean)
            #expect(!Self.hasHangul(english), "\(args): \(english)")
            #expect(Self.hasHangul(korean), "\(args): \(korean)")
            for word in names { #expect(english.contains(word) && korean.contains(word), "\(args): \(english) / \(korean)") }
        }
        // Bad data (65) of issue 24 too: --effective before the first day, naming it.
        let early = try h.run(["edit", "Aspirin", "--at", "09:00", "--effective", "2026-11-01"], extraEnv: Self.korean)
        #expect(early.status == 65 && Self.hasHangul(early.err) && early.err.contains("2026-11-10"), "\(early.err)")
    }

    /// Terminal columns of a line (Hangul two).
    static func columns(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { n, u in
            let v = u.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xFF00...0xFF60).contains(v)
            return n + (wide ? 2 : 1)
        }
    }

    /// Aspirin (changing to 09:00 on 1 December, with stock and a long note), Magnesium (weekdays from
    /// 3 December), Ibuprofen (as needed, half tablets), a finished course and one not begun. Today: 24 November.
    func week() throws -> Harness {
        let h = Harness(now: "2026-11-24T09:00:00+09:00")
        let added = "2026-11-20T07:00:00+09:00"
        try h.ok("add", "Aspirin", "--at", "08:00", "--dose", "100 mg", "--stock", "30", "--note",
                 "with food, never on an empty stomach; ask Dr. Kim before any change of the dose or the time", now: added)
        try h.ok("add", "Magnesium", "--at", "21:00", "--days", "mon,wed,fri", "--group", "evening", now: added)
        try h.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "3", "--min-interval", "6h", "--stock", "20",
                 "--per-dose", "0.5", now: added)
        try h.ok("add", "Antibiotic", "--at", "08:00,20:00", "--until", "2026-11-22", "--window", "1h", now: added)
        try h.ok("add", "Later", "--at", "09:00", "--from", "2026-12-05", now: added)
        try h.ok("edit", "Aspirin", "--at", "09:00", "--effective", "2026-12-01")
        try h.ok("edit", "Magnesium", "--days", "weekdays", "--effective", "2026-12-03")
        return h
    }

    @Test("list shows the course, window, per dose, note, a change to come and an ended course, in 80 columns")
    func listText() throws {
        let h = try week()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let out = try h.ok("list").out
        let lines = out.split(separator: "\n").map(String.init)
        func block(_ name: String) -> [String] {
            guard let i = lines.firstIndex(where: { $0.hasPrefix(name + " ") }) else { return [] }
            return [lines[i]] + lines[(i + 1)...].prefix { $0.hasPrefix("  ") }
        }
        let aspirin = block("Aspirin").joined(separator: "\n")
        for part in ["since 2026-11-20", "window 2h", "1 per dose", "from 2026-12-01: 09:00", "note: with food", "30"] {
            #expect(aspirin.contains(part), "\(part) in \(aspirin)")
        }
        #expect(block("Magnesium").joined(separator: "\n").contains("from 2026-12-03: mon,tue,wed,thu,fri 21:00"), "\(out)")
        let ibuprofen = block("Ibuprofen").joined(separator: "\n")
        #expect(ibuprofen.contains("0.5 per dose") && ibuprofen.contains("max 3/day") && ibuprofen.contains("every ≥6h"), "\(out)")
        #expect(block("Magnesium").joined(separator: "\n").contains("group evening"), "\(out)")
        let antibiotic = block("Antibiotic").joined(separator: "\n")
        #expect(antibiotic.contains("ended 2026-11-22") && antibiotic.contains("2026-11-20 – 2026-11-22")
                && antibiotic.contains("window 1h"), "\(antibiotic)")
        #expect(block("Antibiotic").first?.contains("daily") == false, "an ended course does not read daily: \(antibiotic)")
        #expect(block("Later").joined(separator: "\n").contains("starts 2026-12-05"), "\(out)")
        let korean = try h.run(["list"], extraEnv: Self.korean).out
        #expect(korean.contains("2026-12-01부터: 09:00") && korean.contains("2026-11-22 종료") && korean.contains("메모:"), "\(korean)")
        // Every line in 80 columns, archived medicines (`list --all`) too, in both languages.
        try h.ok("remove", "Ibuprofen")
        for language in [["LANG": "C.UTF-8"], Self.korean] {
            let r = try h.run(["list", "--all"], extraEnv: language)
            #expect(r.status == 0 && r.out.contains("Ibuprofen ("))
            for line in r.out.split(separator: "\n") { #expect(Self.columns(String(line)) <= 80, "\(Self.columns(String(line))): \(line)") }
        }
    }

    @Test("list --json: the schedule as data, its words as schedule_text, changes to come, an ended course")
    func listJSON() throws {
        let h = try week()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let rows = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        func row(_ name: String) -> [String: Any] { rows.first { $0["name"] as? String == name } ?? [:] }
        let aspirin = row("Aspirin"), schedule = try #require(aspirin["schedule"] as? [String: Any])
        #expect(schedule["kind"] as? String == "daily" && schedule["times"] as? [String] == ["08:00"])
        #expect(schedule["window_seconds"] as? Int == 7200 && schedule["from"] as? String == "2026-11-20")
        #expect(schedule["until"] is NSNull && schedule["as_needed"] as? Bool == false)
        #expect(aspirin["schedule_text"] as? String == "daily" && aspirin["times"] as? [String] == ["08:00"])
        #expect((aspirin["note"] as? String)?.hasSuffix("of the dose or the time") == true, "the note whole in JSON")
        let pending = try #require((aspirin["pending"] as? [[String: Any]])?.first)
        #expect(pending["effective"] as? String == "2026-12-01")
        #expect((pending["schedule"] as? [String: Any])?["times"] as? [String] == ["09:00"])
        let magnesium = try #require(row("Magnesium")["schedule"] as? [String: Any])
        #expect(magnesium["kind"] as? String == "weekdays" && magnesium["days"] as? [String] == ["mon", "wed", "fri"])
        let magnesiumNext = try #require((row("Magnesium")["pending"] as? [[String: Any]])?.first?["schedule"] as? [String: Any])
        #expect(magnesiumNext["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        let ibuprofen = try #require(row("Ibuprofen")["schedule"] as? [String: Any])
        #expect(ibuprofen["kind"] as? String == "as_needed" && ibuprofen["as_needed"] as? Bool == true)
        #expect(ibuprofen["max_per_day"] as? Int == 3 && ibuprofen["min_interval_seconds"] as? Int == 6 * 3600)
        #expect(row("Ibuprofen")["per_dose"] as? Double == 0.5)
        #expect(row("Antibiotic")["ended"] as? Bool == true && row("Aspirin")["ended"] as? Bool == false)
        #expect((row("Antibiotic")["schedule"] as? [String: Any])?["until"] as? String == "2026-11-22")
        #expect((row("Later")["schedule"] as? [String: Any])?["from"] as? String == "2026-12-05")
        #expect((row("Later")["pending"] as? [Any])?.isEmpty == true, "a course not begun is its schedule, not a change to come")
    }

    @Test("list --json validates against schema/list.schema.json, every kind of schedule and archived ones included")
    func listSchema() throws {
        let h = try week()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Pill", "--at", "21:00", "--cycle", "21/7")
        try h.ok("add", "B12", "--at", "09:00", "--every", "2w")
        try h.ok("remove", "Ibuprofen")
        // A dose change to come (issue 42): its pending entry carries dose and per_dose.
        try h.ok("add", "Metformin", "--at", "08:00", "--dose", "500 mg")
        try h.ok("edit", "Metformin", "--dose", "1000 mg", "--per-dose", "2", "--effective", "2027-01-10")
        let out = try h.ok("list", "--all", "--json").out
        let metformin = try #require((try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])?
            .first { $0["name"] as? String == "Metformin" })
        #expect((metformin["pending"] as? [[String: Any]])?.first?["dose"] as? String == "1000 mg")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        let pill = try #require(rows.first { $0["name"] as? String == "Pill" }?["schedule"] as? [String: Any])
        #expect((pill["cycle"] as? [String: Any])?["active"] as? Int == 21 && pill["kind"] as? String == "cycle")
        #expect((rows.first { $0["name"] as? String == "B12" }?["schedule"] as? [String: Any])?["every"] as? Int == 2)
        var schema = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { schema.deleteLastPathComponent() }
        schema.appendPathComponent("schema/list.schema.json")
        let file = h.root + "/list.json"
        try out.write(toFile: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            errors = [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
            print("\\n".join(errors)); sys.exit(1 if errors else 0)
            """, schema.path, file]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(report)")
    }

    @Test("a second daemon (69) says so in Korean too, with the pid to stop")
    func alreadyRunningInKorean() throws {
        let h = try DaemonTest.harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let first = try DaemonTest.startDaemon(h)
        defer { first.signal(SIGTERM); _ = first.waitExit() }
        let second = try h.run(["daemon"], extraEnv: Self.korean)
        #expect(second.status == 69 && Self.hasHangul(second.err) && second.err.contains("kill \(first.pid)"), "\(second.err)")
    }

    @Test("stats fits 80 columns in English and Korean: its title, header and note")
    func statsWidth() throws {
        let h = try week()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("take", "Aspirin", now: "2026-11-21T08:20:00+09:00")
        try h.ok("take", "Magnesium", now: "2026-11-23T23:00:00+09:00")
        for language in [["LANG": "C.UTF-8"], Self.korean] {
            let r = try h.run(["stats"], extraEnv: language)
            #expect(r.status == 0 && r.out.contains("Magnesium"), "\(r.err)")
            for line in r.out.split(separator: "\n") { #expect(Self.columns(String(line)) <= 80, "\(Self.columns(String(line))): \(line)") }
        }
    }

    /// `dosebar history` on a terminal (`script` gives it one), with NO_COLOR as given (nil: unset).
    func historyOnTerminal(_ h: Harness, noColor: String?) throws -> String {
        var env = h.env
        env["NO_COLOR"] = noColor
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qfc", Harness.binary + " history --from 2026-11-20", "/dev/null"]
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("history, the other command that colours, follows NO_COLOR as today does: set and non-empty turns it off")
    func historyNoColor() throws {
        let h = try week()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let escape = "\u{1B}["
        let unset = try historyOnTerminal(h, noColor: nil), empty = try historyOnTerminal(h, noColor: "")
        let set = try historyOnTerminal(h, noColor: "1")
        #expect(unset.contains(escape) && empty.contains(escape), "\(unset.debugDescription) / \(empty.debugDescription)")
        #expect(set.contains("Nov") && !set.contains(escape), "\(set.debugDescription)")
    }
}
