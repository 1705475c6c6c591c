import DoseExport
import Foundation
import Testing

/// Scenario days replayed through the binary; every file of the shared directory is compared
/// with `Tests/DosebarTests/Expected/<scenario>/` and validated against `schema/`.
/// Regenerate after an intended change: `DOSEBAR_REGENERATE=1 swift test --filter ScenarioGoldenTests`
/// (then review `git diff Tests/DosebarTests/Expected`).
@Suite struct ScenarioGoldenTests {
    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var tz: String
        var now: String
        /// Commands run at `now`; a step whose first word is `@INSTANT` runs at that instant instead
        /// (an `add` before the slots and days the scenario shows: DESIGN §3 Tracking start).
        var steps: [[String]]
        var lang = "C.UTF-8"
        var description: String { name }
    }

    /// As-needed medicines on every bar (DESIGN §4): a count, the next allowed time, the daily maximum reached.
    static let asNeededSteps: [[String]] = [
        ["add", "Aspirin", "--at", "08:00", "--from", "2026-11-22"],
        ["add", "Ibuprofen", "--as-needed", "--max-per-day", "3", "--min-interval", "6h"],
        ["add", "Sumatriptan", "--as-needed", "--max-per-day", "1"],
        ["add", "Tylenol", "--as-needed"],
        ["take", "Aspirin", "--at", "08:05"],
        ["take", "Ibuprofen"],
        ["take", "Sumatriptan"],
    ]

    static let scenarios: [Scenario] = [
        Scenario(name: "ordinary-day", tz: "Asia/Seoul", now: "2026-11-22T12:00:00+09:00", steps: [
            // In use (and tracked) since 11-15, never logged before today: a week of misses behind it.
            ["@2026-11-15T07:00:00+09:00", "add", "Aspirin", "--at", "08:00", "--dose", "100 mg", "--stock", "30", "--from", "2026-11-15"],
            ["@2026-11-15T07:00:00+09:00", "add", "Magnesium", "--at", "21:00", "--from", "2026-11-15"],
            ["take", "Aspirin", "--at", "08:10"],
        ]),
        Scenario(name: "late-dose", tz: "Asia/Seoul", now: "2026-11-22T13:00:00+09:00", steps: [
            ["@2026-11-22T07:00:00+09:00", "add", "Metformin", "--at", "08:00,20:00", "--dose", "500 mg", "--from", "2026-11-22"],
        ]),
        Scenario(name: "everything-done", tz: "Asia/Seoul", now: "2026-11-22T22:00:00+09:00", steps: [
            ["add", "Aspirin", "--at", "08:00", "--from", "2026-11-22"],
            ["add", "Magnesium", "--at", "21:00", "--from", "2026-11-22"],
            ["take", "Aspirin", "--at", "08:01"],
            ["take", "Magnesium", "--at", "21:30"],
        ]),
        // Added today with a past --from (day 1 = 11-01): the active days before today are untracked,
        // not missed (issue 21); today is rest day 3 of 7.
        Scenario(name: "rest-day", tz: "Europe/London", now: "2026-11-24T12:00:00+00:00", steps: [
            ["add", "Yaz", "--at", "22:00", "--cycle", "21/7", "--from", "2026-11-01"],
        ]),
        // Added today (a Sunday) for Mondays from 11-16: that Monday is before tracking, untracked.
        Scenario(name: "nothing-today", tz: "UTC", now: "2026-11-22T12:00:00Z", steps: [
            ["add", "Weekly", "--at", "09:00", "--days", "mon", "--from", "2026-11-16"],
        ]),
        Scenario(name: "dst-spring-new-york", tz: "America/New_York", now: "2026-03-08T04:00:00-04:00", steps: [
            // Tracked from 03-01, before the 02:30 (→ 03:30 EDT) dose the scenario shows due.
            ["@2026-03-01T07:00:00-05:00", "add", "Night", "--at", "02:30,22:00", "--from", "2026-03-01"],
        ]),
        Scenario(name: "dst-fall-new-york", tz: "America/New_York", now: "2026-11-01T01:45:00-05:00", steps: [
            // Tracked from 10-25, before the 01:30 EDT dose (the first 01:30) that is due at 01:45 EST.
            ["@2026-10-25T00:00:00-04:00", "add", "Early", "--at", "01:30", "--from", "2026-10-25"],
        ]),
        Scenario(name: "as-needed", tz: "Asia/Seoul", now: "2026-11-22T10:00:00+09:00", steps: asNeededSteps),
        Scenario(name: "as-needed-ko", tz: "Asia/Seoul", now: "2026-11-22T10:00:00+09:00", steps: asNeededSteps, lang: "ko_KR.UTF-8"),
    ]

    /// Every file of the shared directory, from the format registry (a new format's file gets its
    /// golden here without a second list).
    static let files = Exporter.fileNames

    static var expectedRoot: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected") }
    static var repoRoot: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    @Test(arguments: scenarios)
    func scenarioDay(_ s: Scenario) throws {
        var h = Harness(tz: s.tz, now: s.now)
        h.env["LANG"] = s.lang
        for step in s.steps {
            let at = step.first.flatMap { $0.hasPrefix("@") ? String($0.dropFirst()) : nil }
            let command = at == nil ? step : Array(step.dropFirst())
            try h.ok(command[0], now: at, args: Array(command.dropFirst()))
        }
        try h.ok("export")
        let regenerate = ["1", "true"].contains(ProcessInfo.processInfo.environment["DOSEBAR_REGENERATE"]?.lowercased())
        let dir = ScenarioGoldenTests.expectedRoot.appendingPathComponent(s.name)
        for f in ScenarioGoldenTests.files {
            let got = try String(contentsOfFile: h.dir + "/" + f, encoding: .utf8)
            let path = dir.appendingPathComponent(f)
            if regenerate {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try got.write(to: path, atomically: true, encoding: .utf8)
                continue
            }
            let want = try? String(contentsOf: path, encoding: .utf8)
            #expect(want != nil, "missing golden \(s.name)/\(f): run DOSEBAR_REGENERATE=1 swift test --filter ScenarioGoldenTests")
            if let want, want != got {
                Issue.record("\(s.name)/\(f) differs from its golden file:\n\(Self.firstDifference(want, got))")
            }
        }
        try Self.validate(dir: h.dir)
    }

    /// Validates snapshot.json and timeline.json against the schemas with python's jsonschema.
    static func validate(dir: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let script = """
        import json, sys, jsonschema
        from referencing import Registry, Resource
        root, d = sys.argv[1], sys.argv[2]
        schemas = {n: json.load(open(root + "/schema/" + n)) for n in ("snapshot.schema.json", "timeline.schema.json", "waybar.schema.json")}
        registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
        for name, schema in (("snapshot.json", "snapshot.schema.json"), ("timeline.json", "timeline.schema.json"), ("waybar.json", "waybar.schema.json")):
            v = jsonschema.Draft202012Validator(schemas[schema], registry=registry, format_checker=jsonschema.FormatChecker())
            v.validate(json.load(open(d + "/" + name)))
        json.loads(open(d + "/waybar.json").read())
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, repoRoot.path, dir]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "schema validation failed: \(String(decoding: e, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where (i < x.count ? x[i] : nil) != (i < y.count ? y[i] : nil) {
            func clip(_ s: Substring?) -> String {
                guard let s else { return "<none>" }
                return s.count > 400 ? String(s.prefix(400)) + "…" : String(s)
            }
            return "line \(i + 1)\n- expected: \(clip(i < x.count ? x[i] : nil))\n+ got:      \(clip(i < y.count ? y[i] : nil))"
        }
        return "(same lines, different bytes)"
    }
}

extension Harness {
    /// `ok` with an explicit argument list.
    @discardableResult
    func ok(_ command: String, now: String?, args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let r = try run([command] + args, now: now)
        #expect(r.status == 0, "dosebar \(command) \(args.joined(separator: " ")) failed: \(r.err)", sourceLocation: sourceLocation)
        return r
    }
}

/// The shared directory as a bar sees it: written after every change, modes, unchanged files left alone.
@Suite struct SharedDirectoryE2ETests {
    @Test func changesAreWrittenAtOnceAndUnchangedFilesAreLeftAlone() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added at 07:00, before its 08:00 dose (DESIGN §3 Tracking start); 08:30 then shows it due.
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        let fm = FileManager.default
        #expect(try fm.attributesOfItem(atPath: h.dir)[.posixPermissions] as? Int == 0o700)
        for f in ScenarioGoldenTests.files {
            #expect(try fm.attributesOfItem(atPath: h.dir + "/" + f)[.posixPermissions] as? Int == 0o600, "\(f)")
        }
        #expect(try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8).contains("Aspirin 08:00"))   // next up at 07:00
        #expect(!(try h.ok("export").out.contains("nothing changed")), "08:30 differs from 07:00")
        #expect(try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8).contains("Aspirin due"))
        let inode = { (f: String) throws -> Int in (try fm.attributesOfItem(atPath: h.dir + "/" + f)[.systemFileNumber] as! Int) }
        let before = try ScenarioGoldenTests.files.map(inode)
        let again = try h.ok("export")
        #expect(again.out.contains("nothing changed"))
        #expect(try ScenarioGoldenTests.files.map(inode) == before)
        try h.ok("take", "Aspirin")
        #expect(try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8).contains("1/1"))
        #expect(try inode("snapshot.txt") != before[2])
        let snapshot = try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8)
        #expect(!snapshot.contains("generated_at"))
        #expect(!snapshot.contains("\\/"))
    }

    @Test func templatesIconsAndLanguageFromConfig() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
        try """
        language = "ko"
        icons = "ascii"
        [templates]
        waybar = "{icon} {taken}/{total} {state}"
        [colors]
        due = "#123456"
        """.write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")   // tracked before 08:00
        try h.ok("export")                                                              // as of 08:30: due
        let waybar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/waybar.json"))) as! [String: Any]
        #expect(waybar["text"] as? String == "[*] 0/1 due")
        #expect((waybar["tooltip"] as! String).contains("드실 시간"))
        #expect(try String(contentsOfFile: h.dir + "/polybar.txt", encoding: .utf8).contains("#123456"))
        #expect(try String(contentsOfFile: h.dir + "/conky.txt", encoding: .utf8).contains("Aspirin — 복용 시간"))
    }
}
