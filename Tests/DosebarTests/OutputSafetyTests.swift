import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 20, "nothing of yours touched unasked" (DESIGN §9): `report --output` aimed at the live
/// database, its -wal while another process holds it, a backup, a FIFO, a symlink, a directory and
/// a file of the user's; the format from the extension; CSV cells a spreadsheet would run as
/// formulas; mistyped database paths; a config file with an error during take/skip/undo.
@Suite("Output safety", .serialized)
struct OutputSafetyTests {
    static let now = "2026-11-22T09:00:00+09:00"

    static func world() throws -> Harness {
        let h = Harness(now: now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        try h.ok("take", "Aspirin", "--at", "08:05")
        return h
    }

    static func oneLine(_ s: String) -> Bool { s.split(separator: "\n").count == 1 }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func mode(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode : nil
    }

    /// `report --format csv --output PATH` (and `--force` when asked) must exit 64 with one line
    /// naming PATH, within a timeout (a FIFO must not hang it), and leave the world as it was.
    static func refused(_ h: Harness, _ path: String, force: Bool = false, expecting words: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = WorldSnapshot(h), around = DirectorySnapshot(h.root + "/out")
        let r = try Fault.dosebar(h, ["report", "--format", "csv", "--output", path] + (force ? ["--force"] : []), timeout: 20)
        #expect(r.signal == 0 && r.status == 64, "--output \(path)\(force ? " --force" : ""): exit \(r.status) signal \(r.signal): \(r.err)",
                sourceLocation: sourceLocation)
        #expect(oneLine(r.err) && r.err.contains(path), "\(r.err.debugDescription)", sourceLocation: sourceLocation)
        if let words { #expect(r.err.contains(words), "\(r.err)", sourceLocation: sourceLocation) }
        #expect(r.out.isEmpty, "\(r.out)", sourceLocation: sourceLocation)
        let after = WorldSnapshot(h)
        #expect(after == before, "--output \(path) changed:\n\(after.changes(since: before))", sourceLocation: sourceLocation)
        let aroundAfter = DirectorySnapshot(h.root + "/out")
        #expect(aroundAfter == around, "--output \(path) changed:\n\(aroundAfter.changes(since: around))", sourceLocation: sourceLocation)
    }

    @Test("report --output never replaces the database, its -wal/-shm, a backup, a FIFO, a link, a directory or a file of the user's")
    func outputRefusesWhatIsNotItsOwn() throws {
        let h = try Self.world()
        let out = h.root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        // The live database: by its path, through another path, through a hard link.
        try Self.refused(h, h.db, expecting: "live database")
        try Self.refused(h, h.root + "/data/../data/./dosebar.sqlite", expecting: "live database")
        #expect(link(h.db, out + "/hard.csv") == 0)
        try Self.refused(h, out + "/hard.csv", expecting: "live database")
        try Self.refused(h, out + "/hard.csv", force: true, expecting: "live database")

        // Its -wal and -shm while another process holds the database open (they exist then),
        // and by name when they do not.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN'); c.execute('SELECT count(*) FROM event').fetchall()
            print('ready', flush=True); sys.stdin.read()
            """, h.db]
        let ready = Pipe(), hold = Pipe()
        holder.standardOutput = ready
        holder.standardInput = hold
        try holder.run()
        // Closing its stdin ends it (a signal may stop only a wrapper such as a pyenv shim).
        defer { if holder.isRunning { holder.terminate() } }
        _ = ready.fileHandleForReading.availableData // "ready": the read transaction is open
        #expect(FileManager.default.fileExists(atPath: h.db + "-wal") && FileManager.default.fileExists(atPath: h.db + "-shm"))
        try Self.refused(h, h.db + "-wal", expecting: "-wal")
        try Self.refused(h, h.db + "-shm", force: true, expecting: "-shm")
        try hold.fileHandleForWriting.close()
        holder.waitUntilExit()
        try? FileManager.default.removeItem(atPath: h.db + "-journal")
        try Self.refused(h, h.db + "-journal", force: true, expecting: "-journal")
        // The database still works: the dose taken before is there and a new one can be logged.
        let history = try h.ok("history", "--json", "--from", "2026-11-22", "--to", "2026-11-22")
        #expect(((history.json as? [[String: Any]])?.first?["taken"] as? Int) == 1, "\(history.out)")
        #expect(try Fault.integrity(h.db) == "ok")

        // A backup (any SQLite database), even with --force.
        try h.ok("backup", out + "/backup.sqlite")
        try Self.refused(h, out + "/backup.sqlite", expecting: "SQLite")
        try Self.refused(h, out + "/backup.sqlite", force: true, expecting: "SQLite")
        #expect(try Fault.integrity(out + "/backup.sqlite") == "ok")

        // A FIFO (never opened: no hang), a symbolic link (even to an old report), a directory.
        #expect(mkfifo(out + "/pipe.csv", 0o600) == 0)
        try Self.refused(h, out + "/pipe.csv", expecting: "FIFO")
        try Self.refused(h, out + "/pipe.csv", force: true, expecting: "FIFO")
        try h.ok("report", "--output", out + "/old.csv")
        #expect(symlink(out + "/old.csv", out + "/link.csv") == 0)
        try Self.refused(h, out + "/link.csv", expecting: "symbolic link")
        try Self.refused(h, out + "/link.csv", force: true, expecting: "symbolic link")
        #expect(mkdir(out + "/folder.csv", 0o700) == 0)
        try Self.refused(h, out + "/folder.csv", expecting: "directory")
        try Self.refused(h, out + "/folder.csv", force: true, expecting: "directory")

        // A file of the user's: refused, then replaced with --force (0600, a CSV report).
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: out + "/notes.csv"))
        try Self.refused(h, out + "/notes.csv", expecting: "--force")
        let forced = try h.run("report", "--output", out + "/notes.csv", "--force")
        #expect(forced.status == 0, "\(forced.err)")
        #expect(String(decoding: Self.bytes(out + "/notes.csv") ?? Data(), as: UTF8.self).hasPrefix("date,scheduled,medication,"))
        #expect(Self.mode(out + "/notes.csv").map { $0 & 0o777 } == 0o600)
    }

    @Test("report --output replaces its own earlier report atomically and says where it wrote; the format follows the extension")
    func outputFormatsAndOwnReports() throws {
        let h = try Self.world()
        let out = h.root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        let csv = try h.ok("report", "--output", out + "/r.csv")
        #expect(Self.oneLine(csv.out) && csv.out.contains(out + "/r.csv") && !csv.out.contains("date,scheduled"), "\(csv.out)")
        #expect(csv.err.isEmpty, "\(csv.err)")
        #expect(String(decoding: Self.bytes(out + "/r.csv") ?? Data(), as: UTF8.self).hasPrefix("date,scheduled,medication,dose,status,taken_at,late_minutes,time_known,over_limit,decided_after_close,double_dose\r\n"))
        try h.ok("report", "--output", out + "/r.JSON")
        let json = try JSONSerialization.jsonObject(with: Self.bytes(out + "/r.JSON") ?? Data()) as? [String: Any]
        #expect(json?["slots"] != nil && json?["timezone"] as? String == "Asia/Seoul")
        try h.ok("report", "--output", out + "/r.htm")
        #expect(String(decoding: Self.bytes(out + "/r.htm") ?? Data(), as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
        // --format wins over an extension that names no format.
        try h.ok("report", "--format", "json", "--output", out + "/r.txt")
        #expect((try? JSONSerialization.jsonObject(with: Self.bytes(out + "/r.txt") ?? Data())) != nil)

        // Its own reports are replaced (a new inode: written whole, then renamed), still 0600.
        var before = stat(), after = stat()
        for name in ["r.csv", "r.JSON", "r.htm"] {
            #expect(stat(out + "/" + name, &before) == 0)
            try h.ok("report", "--output", out + "/" + name, now: "2026-11-23T09:00:00+09:00")
            #expect(stat(out + "/" + name, &after) == 0 && after.st_ino != before.st_ino && after.st_mode & 0o777 == 0o600, "\(name)")
        }
        // A report of another format is not one to replace.
        try FileManager.default.copyItem(atPath: out + "/r.htm", toPath: out + "/html-inside.csv")
        try Self.refused(h, out + "/html-inside.csv", expecting: "--force")

        // Contradictions and names without a format: usage errors, nothing written.
        let listing = DirectorySnapshot(out)
        let clash = try h.run("report", "--format", "csv", "--output", out + "/new.html")
        #expect(clash.status == 64 && Self.oneLine(clash.err) && clash.err.contains("csv") && clash.err.contains("new.html"), "\(clash.err)")
        let unknown = try h.run("report", "--output", out + "/new.txt")
        #expect(unknown.status == 64 && Self.oneLine(unknown.err) && unknown.err.contains(".csv") && unknown.err.contains("--format"), "\(unknown.err)")
        let bare = try h.run("report", "--force")
        #expect(bare.status == 64, "--force without --output: \(bare.err)")
        #expect(DirectorySnapshot(out) == listing, "\(DirectorySnapshot(out).changes(since: listing))")
    }

    @Test("CSV cells a spreadsheet would run as formulas are neutralised, and import csv reads them back exactly")
    func csvFormulaInjectionRoundTrip() throws {
        let h = Harness(now: Self.now)
        let names = ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-cmd|' /C calc'!A0", "@SUM(1)", "'=already quoted", "'plain", "Aspirin"]
        // Added at 07:00, before their 08:00 slot, so `take --at 08:10` finds it open (a medicine is
        // tracked from the instant it is added, DESIGN §3).
        for name in names { try h.ok("add", "--at", "08:00", "--dose=-1 tab", "--", name, now: "2026-11-22T07:00:00+09:00") }
        // A dose with a tab cannot be typed (control characters are refused), but an older
        // database or another tool may hold one: the cell is neutralised all the same.
        _ = try Fault.sql(h.db, "UPDATE medication SET dose = char(9) || 'Tab' WHERE name = 'Aspirin';")
        try h.ok("take", "--at", "08:10")
        try h.ok("report", "--output", h.root + "/r.csv")
        let text = String(decoding: Self.bytes(h.root + "/r.csv") ?? Data(), as: UTF8.self)

        // Read the cells back as a spreadsheet would (RFC 4180) and check no cell starts a formula.
        let cells = Self.csvCells(text)
        #expect(cells.count == names.count + 1, "\(text)")
        let danger: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
        for row in cells.dropFirst() {
            for cell in row {
                #expect(!(cell.first.map(danger.contains) ?? false), "a cell starts a formula: \(cell.debugDescription) in \(text)")
            }
        }
        #expect(text.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""), "quoted and neutralised: \(text)")
        #expect(text.contains("\"'\tTab\""), "\(text)")
        #expect(text.contains(",\"''=already quoted\","), "\(text)")
        #expect(text.contains(",'plain,") || text.contains(",\"'plain\","), "\(text)")
        // The numbers and instants stay as they were.
        #expect(text.contains("2026-11-22,2026-11-22T08:00:00+09:00,"), "\(text)")

        // Into a fresh database: the same names come back.
        var fresh = h
        fresh.env["DOSEBAR_DB"] = h.root + "/data/fresh.sqlite"
        fresh.env["DOSEBAR_DIR"] = h.root + "/shared-fresh"
        let imported = try fresh.run("import", "csv", h.root + "/r.csv")
        #expect(imported.status == 0, "\(imported.err)")
        let list = try fresh.ok("list", "--json")
        let back = ((list.json as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        #expect(Set(back) == Set(names), "\(back)")
        #expect(try Fault.sql(h.root + "/data/fresh.sqlite", "SELECT count(*) FROM event WHERE kind = 'taken';") == String(names.count))
    }

    /// RFC 4180 cells of `text` (quoted fields, doubled quotes, CRLF records).
    static func csvCells(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = "", quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" { if chars.first == "\"" { chars.removeFirst(); cell.unicodeScalars.append(c) } else { quoted = false } }
                else { cell.unicodeScalars.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(cell); cell = "" }
            else if c == "\r" { continue }
            else if c == "\n" { row.append(cell); rows.append(row); row = []; cell = "" }
            else { cell.unicodeScalars.append(c) }
        }
        return rows
    }

    @Test("a mistyped database path: reading commands fail (74) and create nothing; only the default location is created")
    func mistypedDatabasePath() throws {
        let h = try Self.world()
        try h.ok("export")
        let typo = h.root + "/data/dosbar.sqlite"
        let before = WorldSnapshot(h)
        let reading: [[String]] = [["today"], ["status"], ["list"], ["history"], ["stats"], ["report"], ["export"],
                                   ["sync", "status"], ["backup", h.root + "/b.sqlite"], ["take", "Aspirin"], ["undo"],
                                   ["skip", "Aspirin"], ["refill", "Aspirin", "5"], ["remove", "Aspirin"]]
        for args in reading {
            for how in [["--db", typo], []] {
                let r = try Fault.dosebar(h, args + how, extra: how.isEmpty ? ["DOSEBAR_DB": typo] : [:])
                #expect(r.status == 74 && Self.oneLine(r.err) && r.err.contains("no database at \(typo)"), "\(args) \(how): \(r.status) \(r.err)")
            }
        }
        let after = WorldSnapshot(h)
        #expect(after == before, "a mistyped path changed something:\n\(after.changes(since: before))")
        #expect(!FileManager.default.fileExists(atPath: h.root + "/b.sqlite"))

        // A writing command: created when the directory exists, refused (74, naming it) when not.
        let missingDir = h.root + "/nowhere/deeper/dosebar.sqlite"
        let add = try Fault.dosebar(h, ["add", "Iron", "--at", "09:00"], extra: ["DOSEBAR_DB": missingDir])
        #expect(add.status == 74 && Self.oneLine(add.err) && add.err.contains(h.root + "/nowhere/deeper"), "\(add.err)")
        #expect(!FileManager.default.fileExists(atPath: h.root + "/nowhere"))
        for args in [["import", "csv", h.root + "/none.csv"], ["restore", h.root + "/none.sqlite"]] {
            let r = try Fault.dosebar(h, args, extra: ["DOSEBAR_DB": missingDir])
            #expect([65, 74].contains(r.status) && Self.oneLine(r.err), "\(args): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: h.root + "/nowhere"))
        let created = try Fault.dosebar(h, ["add", "Iron", "--at", "09:00"], extra: ["DOSEBAR_DB": typo])
        #expect(created.status == 0 && FileManager.default.fileExists(atPath: typo), "\(created.err)")

        // The default location with no database yet: the empty day, nothing created; add creates it.
        var d = Harness(now: Self.now)
        d.env["DOSEBAR_DB"] = nil
        d.env["XDG_DATA_HOME"] = d.root + "/xdg"
        for args in [["today"], ["list", "--json"], ["history", "--json"], ["report", "--format", "json"], ["export"], ["status"]] {
            let r = try d.run(args)
            #expect(r.status == 0, "\(args) with no database yet: \(r.err)")
        }
        #expect(try d.run("list", "--json").out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try d.run("today").out.lowercased().contains("no medicines"))
        #expect(!FileManager.default.fileExists(atPath: d.root + "/xdg"), "a reading command created the default database")
        let backup = try d.run("backup", d.root + "/b.sqlite")
        #expect(backup.status == 74 && Self.oneLine(backup.err), "\(backup.err)")
        try d.ok("add", "Aspirin", "--at", "08:00")
        #expect(FileManager.default.fileExists(atPath: d.root + "/xdg/dosebar/dosebar.sqlite"))
    }

    @Test("a config file with an error: take, skip and undo record, warn once and render with defaults; other commands exit 78")
    func brokenConfigNeverLosesADose() throws {
        let broken = [("languag = \"ko\"\n", "languag"), ("icons = 3\n", "icons"), ("[colors\nlate = \"#ff0000\"\n", ":1:"),
                      ("language = \"en\"\n[nudge]\ntmux = \"yes\"\n", "tmux")]
        for (text, problem) in broken {
            let h = Harness(now: Self.now)
            // Added before their slots (08:00, 08:30), which are then tracked (DESIGN §3) and open at 09:00.
            try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", now: "2026-11-22T07:00:00+09:00")
            try h.ok("add", "Iron", "--at", "08:30", now: "2026-11-22T07:00:00+09:00")
            let config = h.root + "/config/dosebar/config.toml"
            try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: h.dir)

            let take = try h.run("take", "Aspirin")
            #expect(take.status == 0 && take.out.contains("Aspirin"), "\(problem): take: \(take.status) \(take.err)")
            let warnings = take.err.split(separator: "\n")
            #expect(warnings.count == 1 && take.err.contains(config) && take.err.contains(problem), "\(problem): \(take.err)")
            let skip = try h.run("skip", "Iron")
            #expect(skip.status == 0 && Self.oneLine(skip.err) && skip.err.contains(config), "\(problem): skip: \(skip.err)")
            // The bar was rendered, with the defaults.
            let waybar = String(decoding: Self.bytes(h.dir + "/waybar.json") ?? Data(), as: UTF8.self)
            #expect(waybar.contains("\"text\""), "\(problem): waybar.json: \(waybar)")
            // Recorded: the database holds both (the config error makes the reading commands fail).
            #expect(try Fault.sql(h.db, "SELECT group_concat(kind, ',') FROM (SELECT kind FROM event ORDER BY id);") == "taken,skipped")
            let undo = try h.run("undo")
            #expect(undo.status == 0 && Self.oneLine(undo.err) && undo.err.contains(config), "\(problem): undo: \(undo.err)")
            #expect(try Fault.sql(h.db, "SELECT count(*) FROM event WHERE kind = 'undone';") == "1")

            for args in [["today"], ["list"], ["export"], ["report"], ["add", "Zinc", "--at", "10:00"], ["status"]] {
                let r = try h.run(args)
                #expect(r.status == 78 && Self.oneLine(r.err) && r.err.contains(config), "\(problem): \(args): \(r.status) \(r.err)")
            }
            #expect(try Fault.sql(h.db, "SELECT count(*) FROM medication;") == "2")
        }
    }

    @Test("a closed standard output: take records the dose, refreshes the bar and exits 0 with one warning, no crash")
    func closedStandardOutput() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        let before = Self.bytes(h.dir + "/timeline.json")
        let r = try Fault.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" >&-", Harness.binary, "take", "Aspirin", "--at", "08:05"],
                              env: h.env)
        // The dose is committed: exit 0, so that nothing retries it (DESIGN §9).
        #expect(r.signal == 0 && r.status == 0, "exit \(r.status) signal \(r.signal): \(r.err) out: \(r.out)")
        #expect(Self.oneLine(r.err) && r.err.contains("warning: done, but cannot write to standard output"), "\(r.err.debugDescription)")
        #expect(try h.statuses() == ["Aspirin:taken"])
        #expect(Self.bytes(h.dir + "/timeline.json") != before)
    }
}
