import Foundation
import Testing

/// `dosebar config` in three set-ups (issue 24): every path and setting in force and where each
/// came from; `--version`'s schema numbers against what the binary writes; `edit --effective`
/// before the first day; doctor's pointer to the installed integration README.
@Suite struct ConfigCommandTests {
    /// `config --json` as a dictionary.
    static func json(_ r: Harness.Result) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    static func entry(_ j: [String: Any], _ path: String) -> [String: Any] {
        let parts = path.split(separator: ".").map(String.init)
        var node: Any? = j
        for p in parts { node = (node as? [String: Any])?[p] }
        return (node as? [String: Any]) ?? [:]
    }

    static func source(_ j: [String: Any], _ path: String) -> String { entry(j, path)["source"] as? String ?? "?" }
    static func value(_ j: [String: Any], _ path: String) -> String { entry(j, path)["value"].map { "\($0)" } ?? "?" }

    @Test("defaults: only HOME set; every value is the built-in one and nothing is created")
    func defaults() throws {
        let h = Harness()
        let env = ["PATH": "/usr/bin:/bin", "HOME": h.root]
        let p = Harness.process(["config", "--json"], env: env)
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let j = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        #expect(Self.value(j, "database") == h.root + "/.local/share/dosebar/dosebar.sqlite")
        #expect(Self.source(j, "database") == "default")
        #expect(Self.entry(j, "database")["exists"] as? Bool == false)
        #expect(Self.value(j, "config_file") == h.root + "/.config/dosebar/config.toml")
        #expect(Self.source(j, "config_file") == "default")
        #expect(Self.value(j, "shared_directory") == h.root + "/.local/state/dosebar/shared")
        #expect(Self.entry(j, "shared_directory")["fallback"] as? Bool == true)
        #expect(Self.value(j, "language") == "en" && Self.source(j, "language") == "default")
        #expect(Self.source(j, "time_zone") == "default")
        #expect(Self.value(j, "icons") == "emoji" && Self.source(j, "icons") == "default")
        #expect(Self.value(j, "window") == "120" && Self.source(j, "window") == "default")
        #expect(Self.value(j, "nudge.waybar_signal") == "8" && Self.source(j, "nudge.tmux") == "default")
        #expect(Self.value(j, "templates.waybar") == "{summary}")
        #expect(Self.entry(j, "clock")["value"] is NSNull && Self.source(j, "clock") == "default")
        // Looking changes nothing: no database, no directories.
        #expect(!FileManager.default.fileExists(atPath: h.root + "/.local"))

        // The text: one line per setting, with its source; lines without a path fit 80 columns.
        let t = Harness.process(["config"], env: env)
        let tout = Pipe()
        t.standardOutput = tout
        try t.run()
        let text = String(decoding: tout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        t.waitUntilExit()
        #expect(text.contains("fallback: XDG_RUNTIME_DIR is not set"), "\(text)")
        #expect(text.contains("does not exist yet"))
        for line in text.split(separator: "\n") where !line.contains(h.root) {
            #expect(line.count <= 80, "over 80 columns: \(line)")
        }
        #expect(text.split(separator: "\n").first { $0.hasPrefix("icons") }?.contains("(default)") == true, "\(text)")
    }

    @Test("environment: DOSEBAR_DB, DOSEBAR_DIR, XDG_*, LANG and a bogus TZ, each named as the source; Korean text")
    func environment() throws {
        var h = Harness(tz: "Not/AZone")
        h.env["LANG"] = "ko_KR.UTF-8"
        try "".write(toFile: h.db, atomically: true, encoding: .utf8)
        let j = Self.json(try h.ok("config", "--json"))
        #expect(Self.value(j, "database") == h.db)
        #expect(Self.source(j, "database") == "environment" && Self.entry(j, "database")["name"] as? String == "DOSEBAR_DB")
        #expect(Self.entry(j, "database")["exists"] as? Bool == true)
        #expect(Self.value(j, "shared_directory") == h.dir && Self.entry(j, "shared_directory")["name"] as? String == "DOSEBAR_DIR")
        #expect(Self.entry(j, "shared_directory")["fallback"] as? Bool == false)
        #expect(Self.value(j, "config_file") == h.root + "/config/dosebar/config.toml")
        #expect(Self.entry(j, "config_file")["name"] as? String == "XDG_CONFIG_HOME")
        #expect(Self.value(j, "language") == "ko" && Self.entry(j, "language")["name"] as? String == "LANG")
        #expect(Self.value(j, "time_zone") == "UTC" && Self.entry(j, "time_zone")["name"] as? String == "TZ")
        #expect(Self.entry(j, "time_zone")["fallback"] as? Bool == true)
        #expect((Self.entry(j, "time_zone")["problem"] as? String)?.contains("Not/AZone") == true)
        // The clock the harness fixed, in the zone in force (UTC here).
        #expect(Self.value(j, "clock") == "2026-11-21T22:00:00Z" || Self.value(j, "clock").hasPrefix("2026-11-21T22:00:00"),
                "\(Self.value(j, "clock"))")
        #expect(Self.entry(j, "clock")["name"] as? String == "DOSEBAR_NOW")

        let text = try h.ok("config").out
        #expect(text.contains("공유 디렉터리") && text.contains("출처 $DOSEBAR_DB") && text.contains("출처 $LANG"), "\(text)")
        #expect(text.contains("'Not/AZone'") && text.contains("UTC"), "\(text)")
        // Hangul takes two columns: the lines without a path still fit 80.
        for line in text.split(separator: "\n") where !line.contains(h.root) {
            let width = line.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
            #expect(width <= 80, "over 80 columns: \(line)")
        }

        // Without DOSEBAR_DIR, XDG_RUNTIME_DIR decides; LC_ALL wins over LANG.
        let k = Self.json(try h.run(["config", "--json"], extraEnv: ["DOSEBAR_DIR": "", "XDG_RUNTIME_DIR": h.root + "/run",
                                                                     "LC_ALL": "en_US.UTF-8", "TZ": "Asia/Seoul"]))
        #expect(Self.value(k, "shared_directory") == h.root + "/run/dosebar")
        #expect(Self.entry(k, "shared_directory")["name"] as? String == "XDG_RUNTIME_DIR")
        #expect(Self.value(k, "language") == "en" && Self.entry(k, "language")["name"] as? String == "LC_ALL")
        #expect(Self.value(k, "time_zone") == "Asia/Seoul" && Self.entry(k, "time_zone")["fallback"] as? Bool == false)
    }

    @Test("flags and a config file: flags win over the environment, the file's keys say 'config', the rest 'default'")
    func flagsAndFile() throws {
        let h = Harness()
        let file = h.root + "/my.toml"
        try """
        language = "ko"
        icons = "nerd"
        window = "90m"
        [colors]
        late = "#ff0000"
        [nudge]
        tmux = false
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let other = h.root + "/other.sqlite"
        let j = Self.json(try h.ok("config", "--json", "--db", other, "--dir", h.root + "/d", "--config", file, "--lang", "EN"))
        #expect(Self.value(j, "database") == other && Self.entry(j, "database")["name"] as? String == "--db")
        #expect(Self.source(j, "database") == "flag")
        #expect(Self.value(j, "shared_directory") == h.root + "/d" && Self.source(j, "shared_directory") == "flag")
        #expect(Self.value(j, "config_file") == file && Self.entry(j, "config_file")["name"] as? String == "--config")
        #expect(Self.entry(j, "config_file")["exists"] as? Bool == true)
        #expect(Self.value(j, "language") == "en" && Self.source(j, "language") == "flag")
        #expect(Self.value(j, "icons") == "nerd" && Self.source(j, "icons") == "config")
        #expect(Self.value(j, "window") == "90" && Self.source(j, "window") == "config")
        #expect(Self.value(j, "colors.late") == "#ff0000" && Self.source(j, "colors.late") == "config")
        #expect(Self.source(j, "colors.due") == "default")
        #expect(Self.entry(j, "nudge.tmux")["value"] as? Bool == false && Self.source(j, "nudge.tmux") == "config")
        #expect(Self.entry(j, "nudge.polybar")["value"] as? Bool == true && Self.source(j, "nudge.polybar") == "default")

        // Without --lang the file's language is in force.
        let k = Self.json(try h.ok("config", "--json", "--config", file))
        #expect(Self.value(k, "language") == "ko" && Self.source(k, "language") == "config")
        let text = try h.ok("config", "--config", file).out
        #expect(text.contains("출처 --config") && text.contains("출처 설정 파일"), "\(text)")

        // A file with an error is shown with the error (exit 0), not refused: this is where to look.
        try "icons = \"huge\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try h.run("config", "--json", "--config", file)
        #expect(bad.status == 0, "\(bad.err)")
        #expect((Self.entry(Self.json(bad), "config_file")["problem"] as? String)?.contains("huge") == true)
        #expect(Self.value(Self.json(bad), "icons") == "emoji")
        // Every other command still refuses it.
        #expect(try h.run("list", "--config", file).status == 78)
    }

    @Test("--version: version, build, Swift, and the schema numbers the binary actually writes")
    func version() throws {
        let h = Harness()
        let r = try h.ok("--version")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("dosebar ") == true)
        func field(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
        }
        #expect(field("build")?.isEmpty == false)
        #expect(field("swift")?.first?.isNumber == true)
        try h.ok("add", "Aspirin", "--at", "08:00")
        let snapshot = try h.today()["schema"] as? Int
        #expect(field("snapshot schema") == snapshot.map(String.init))
        let timeline = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/timeline.json")))) as? [String: Any]
        #expect(field("timeline schema") == (timeline?["schema"] as? Int).map(String.init))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let migration = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilExit()
        #expect(!migration.isEmpty && field("database migration") == migration, "\(r.out) vs \(migration)")
    }

    @Test("edit --effective before the medicine's first day is refused (65) naming that day; on it or after is applied")
    func effectiveBeforeStart() throws {
        let h = Harness() // today 2026-11-22
        try h.ok("add", "Aspirin", "--at", "08:00")
        let before = h.dump()
        let r = try h.run("edit", "Aspirin", "--at", "09:00", "--effective", "2026-11-20")
        #expect(r.status == 65)
        #expect(r.err.contains("2026-11-22") && r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(h.dump() == before)
        let ko = try h.run("edit", "Aspirin", "--at", "09:00", "--effective", "2026-11-20", "--lang", "ko")
        #expect(ko.status == 65 && ko.err.contains("2026-11-22") && ko.err.contains("시작"), "\(ko.err)")

        // A course that began in the past: its first day is --from.
        try h.ok("add", "Iron", "--at", "20:00", "--from", "2026-11-10")
        #expect(try h.run("edit", "Iron", "--at", "21:00", "--effective", "2026-11-09").err.contains("2026-11-10"))
        try h.ok("edit", "Iron", "--at", "21:00", "--effective", "2026-11-10")
        let list = try h.ok("list", "--json").json as? [[String: Any]] ?? []
        #expect(list.first { $0["name"] as? String == "Iron" }?["times"] as? [String] == ["21:00"])
    }

    @Test("doctor names the installed integration README next to the binary's prefix, else the source's")
    func doctorReadme() throws {
        let h = Harness()
        let prefix = h.root + "/prefix"
        let bin = prefix + "/bin"
        let readme = prefix + "/share/dosebar/integrations/tmux/README.md"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: (readme as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "tmux".write(toFile: readme, atomically: true, encoding: .utf8)
        if link(Harness.binary, bin + "/dosebar") != 0 { try FileManager.default.copyItem(atPath: Harness.binary, toPath: bin + "/dosebar") }
        let fake = h.root + "/fakebin"
        try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: fake + "/tmux", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        var env = h.env
        env["PATH"] = fake + ":/usr/bin:/bin"

        func doctor(_ binary: String) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = ["doctor"]
            p.environment = env
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let (installedStatus, installed) = try doctor(bin + "/dosebar")
        #expect(installed.contains("tmux is installed: see \(readme)"), "\(installed)")
        // No daemon runs: something to fix, exit 1 (documented).
        #expect(installedStatus == 1)
        let (_, built) = try doctor(Harness.binary)
        #expect(built.contains("integrations/tmux/README.md of the dosebar source"), "\(built)")
        #expect(!built.contains(readme))
    }
}
