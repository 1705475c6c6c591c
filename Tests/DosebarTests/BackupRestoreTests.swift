import Foundation
import Glibc
import Testing

/// `dosebar backup` and `dosebar restore` against the real binary and real SQLite files
/// (DESIGN §2, §9): consistent copies while others write, restores that refuse what they must
/// and change nothing then, and a running daemon that shows the restored data.
@Suite("Backup and restore", .serialized)
struct BackupRestoreTests {
    /// 2026-11-22T07:00:00+09:00 in UTC, as `.replaced-` names carry it.
    static let replacedStamp = "20261121T220000Z"

    /// A harness with two medicines and a few doses, on a fixed clock.
    static func harness() throws -> Harness {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", "--from", "2026-11-15", now: "2026-11-15T07:00:00+09:00")
        try h.ok("add", "Ibuprofen", "--as-needed", now: "2026-11-15T07:00:00+09:00")
        for day in 16...21 {
            try h.ok("take", "Aspirin", "--at", "2026-11-\(day)T08:\(day)", now: "2026-11-\(day)T20:00:00+09:00")
        }
        try h.ok("take", "Ibuprofen", "--at", "06:30")
        return h
    }

    /// What the database means, to compare states: history, the medicines, today, the events.
    static func state(_ h: Harness, db: String? = nil) throws -> String {
        let extra = db.map { ["DOSEBAR_DB": $0, "DOSEBAR_DIR": h.root + "/elsewhere"] } ?? [:]
        var parts: [String] = []
        for args in [["history", "--json", "--from", "2026-11-01"], ["list", "--all", "--json"], ["today", "--json"]] {
            let r = try h.run(args, extraEnv: extra)
            #expect(r.status == 0, "\(args) on \(db ?? h.db): \(r.err)")
            parts.append(r.out)
        }
        parts.append(try events(db ?? h.db).joined(separator: "\n"))
        return parts.joined(separator: "\n--\n")
    }

    /// Every event, in id order, as `id|medication|kind|day|slot|at|target|delta`.
    static func events(_ db: String) throws -> [String] {
        let out = try Fault.sql(db, "SELECT id||'|'||medication_id||'|'||kind||'|'||day||'|'||ifnull(slot_time,'')||'|'||at||'|'||ifnull(target,'')||'|'||stock_delta FROM event ORDER BY id")
        return out.split(separator: "\n").map(String.init)
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    /// Names in the database's directory besides the database and its WAL companions.
    static func strays(_ h: Harness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: h.root + "/data").filter {
            !["dosebar.sqlite", "dosebar.sqlite-wal", "dosebar.sqlite-shm"].contains($0)
        }.sorted()
    }

    static func sha(_ path: String) -> String {
        (try? Fault.run("/usr/bin/sha256sum", [path]).out.split(separator: " ").first.map(String.init)) ?? "?"
    }

    static func isOneLine(_ text: String) -> Bool {
        text.hasSuffix("\n") && text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).count == 1
    }

    // MARK: - backup

    @Test("backup writes a whole, private, self-contained copy and says what it holds")
    func backupCopy() throws {
        let h = try BackupRestoreTests.harness()
        let file = h.root + "/copy.sqlite"
        let r = try h.run("backup", file)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("Wrote \(file) (") && r.out.contains(" KB): "), "\(r.out)")
        #expect(r.out.hasSuffix(": 2 medicines, 7 events.\n"), "\(r.out)")
        #expect(BackupRestoreTests.mode(file) == 0o600)
        #expect(try Fault.integrity(file) == "ok")
        #expect(try Fault.sql(file, "PRAGMA application_id") == "\(0x444F_5345)")
        // One file: rollback journal, no -wal beside it, no temporary left.
        #expect(try Fault.sql(file, "PRAGMA journal_mode") == "delete")
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.root).filter { $0.contains("copy.sqlite") } == ["copy.sqlite"])
        #expect(try BackupRestoreTests.state(h, db: file) == BackupRestoreTests.state(h))
    }

    @Test("backup refuses the live database and someone's document; replaces an older backup; names a file in a directory")
    func backupTargets() throws {
        let h = try BackupRestoreTests.harness()
        for command in ["backup", "restore"] {
            let bare = try h.run(command)
            #expect(bare.status == 64 && BackupRestoreTests.isOneLine(bare.err), "\(command) without a file: \(bare.err)")
        }
        let live = try h.run("backup", h.db)
        #expect(live.status == 64 && BackupRestoreTests.isOneLine(live.err) && live.err.contains("is the live database"), "\(live.err)")
        let alias = try h.run("backup", h.root + "/data/../data/dosebar.sqlite")
        #expect(alias.status == 64, "\(alias.err)")

        let document = h.root + "/thesis.txt"
        try "chapter one\n".write(toFile: document, atomically: true, encoding: .utf8)
        let clobber = try h.run("backup", document)
        #expect(clobber.status == 64 && BackupRestoreTests.isOneLine(clobber.err) && clobber.err.contains("not a dosebar database"), "\(clobber.err)")
        #expect(try String(contentsOfFile: document, encoding: .utf8) == "chapter one\n")
        // Another program's SQLite database is a document too.
        let foreign = h.root + "/notes.sqlite"
        _ = try Fault.sql(foreign, "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('hello');")
        let foreignHash = BackupRestoreTests.sha(foreign)
        #expect(try h.run("backup", foreign).status == 64)
        #expect(BackupRestoreTests.sha(foreign) == foreignHash)

        // An older backup is replaced by a newer one.
        let file = h.root + "/backup.sqlite"
        try h.ok("backup", file)
        try h.ok("take", "Ibuprofen", "--at", "06:50")
        try h.ok("backup", file)
        #expect(try BackupRestoreTests.events(file).count == 8)
        #expect(BackupRestoreTests.mode(file) == 0o600)

        // A directory: a dated file inside, local time.
        try FileManager.default.createDirectory(atPath: h.root + "/backups", withIntermediateDirectories: true)
        let r = try h.run("backup", h.root + "/backups")
        #expect(r.status == 0, "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.root + "/backups") == ["dosebar-2026-11-22T070000.sqlite"])
        #expect(r.out.hasPrefix("Wrote \(h.root)/backups/dosebar-2026-11-22T070000.sqlite ("), "\(r.out)")

        let missing = try h.run("backup", h.root + "/no/such/dir/b.sqlite")
        #expect(missing.status == 74 && BackupRestoreTests.isOneLine(missing.err), "\(missing.err)")
    }

    @Test("a backup taken while the daemon runs and 20 takes write is one state that existed")
    func backupUnderConcurrentWriters() throws {
        let h = try DaemonTest.harness()
        let daemon = try DaemonTest.startDaemon(h)
        let beforeEvents = try BackupRestoreTests.events(h.db)
        let takes = (0..<20).map { _ -> Process in
            let p = Harness.process(["take", "Ibuprofen"], env: h.env)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            return p
        }
        var copies: [String] = []
        for (i, p) in takes.enumerated() {
            try p.run()
            if i % 7 == 3 {
                // Backups in between the takes, each while others run.
                let file = h.root + "/copy-\(i).sqlite"
                let r = try h.run("backup", file)
                #expect(r.status == 0, "backup during takes: \(r.err)")
                copies.append(file)
            }
        }
        let last = h.root + "/copy-last.sqlite"
        let backupDuring = try Fault.dosebar(h, ["backup", last])
        #expect(backupDuring.status == 0, "\(backupDuring.err)")
        copies.append(last)
        for p in takes { p.waitUntilExit() }
        #expect(takes.allSatisfy { $0.terminationStatus == 0 }, "\(takes.map(\.terminationStatus))")
        let finalEvents = try BackupRestoreTests.events(h.db)
        #expect(finalEvents.count == beforeEvents.count + 20)

        let held = try copies.map { try BackupRestoreTests.events($0).count }
        print("backups under 20 takes held \(held) events (\(beforeEvents.count) before, \(finalEvents.count) after)")
        for file in copies {
            #expect(try Fault.integrity(file) == "ok", "\(file)")
            #expect(try Fault.sql(file, "PRAGMA application_id") == "\(0x444F_5345)")
            #expect(BackupRestoreTests.mode(file) == 0o600)
            let copied = try BackupRestoreTests.events(file)
            #expect(copied.count >= beforeEvents.count && copied.count <= finalEvents.count, "\(file): \(copied.count) events")
            // Events are append-only with growing ids: a state that existed is a prefix of the final ones.
            #expect(copied == Array(finalEvents.prefix(copied.count)), "\(file) is not a prefix of the final events")
            let elsewhere = ["DOSEBAR_DB": file, "DOSEBAR_DIR": h.root + "/elsewhere-\(UUID().uuidString.prefix(6))"]
            for args in [["history", "--json"], ["today", "--json"]] {
                let r = try h.run(args, extraEnv: elsewhere)
                #expect(r.status == 0 && r.json != nil, "\(args) on \(file): \(r.err)")
            }
        }
        daemon.signal(SIGTERM)
        #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    }

    // MARK: - restore

    @Test("restore brings back the backup's state and keeps the replaced one, private and whole")
    func restoreGoodBackup() throws {
        let h = try BackupRestoreTests.harness()
        let file = h.root + "/backup.sqlite"
        try h.ok("backup", file)
        let backedUp = try BackupRestoreTests.state(h)
        try h.ok("take", "Ibuprofen", "--at", "06:55")
        try h.ok("add", "Vitamin", "--at", "09:00")
        let replaced = try BackupRestoreTests.state(h)
        #expect(replaced != backedUp)

        let r = try h.run("restore", file)
        #expect(r.status == 0, "\(r.err)")
        let kept = h.db + ".replaced-" + BackupRestoreTests.replacedStamp
        #expect(r.out == "Restored \(file) (2 medicines, 7 events); the replaced database is kept at \(kept).\n", "\(r.out)")
        #expect(r.err.isEmpty, "\(r.err)")
        #expect(try BackupRestoreTests.state(h) == backedUp)
        #expect(BackupRestoreTests.mode(kept) == 0o600)
        #expect(try Fault.integrity(kept) == "ok")
        #expect(try BackupRestoreTests.state(h, db: kept) == replaced)
        // The shared directory shows the restored day (3 medicines before, 2 now).
        let snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/snapshot.json"))) as? [String: Any]
        #expect((snapshot?["doses"] as? [[String: Any]])?.compactMap { $0["medication"] as? String } == ["Aspirin"])
        // The backup itself was only read.
        #expect(try BackupRestoreTests.events(file).count == 7)
        #expect(try BackupRestoreTests.strays(h) == ["dosebar.sqlite.replaced-" + BackupRestoreTests.replacedStamp])

        // Restoring again at the same instant never replaces the kept copy.
        try h.ok("restore", kept)
        #expect(try BackupRestoreTests.state(h) == replaced)
        #expect(try BackupRestoreTests.strays(h) == ["dosebar.sqlite.replaced-" + BackupRestoreTests.replacedStamp,
                                                    "dosebar.sqlite.replaced-" + BackupRestoreTests.replacedStamp + "-2"])
        #expect(try BackupRestoreTests.state(h, db: h.db + ".replaced-" + BackupRestoreTests.replacedStamp + "-2") == backedUp)
    }

    @Test("restore refuses the live database itself, and takes a backup of another page size")
    func restoreLiveAndPageSize() throws {
        let h = try BackupRestoreTests.harness()
        let before = h.dump()
        let live = try h.run("restore", h.db)
        #expect(live.status == 64 && BackupRestoreTests.isOneLine(live.err) && live.err.contains("is the live database"), "\(live.err)")
        #expect(h.dump() == before)
        #expect(try BackupRestoreTests.strays(h) == [])

        let file = h.root + "/small-pages.sqlite"
        try h.ok("backup", file)
        let backedUp = try BackupRestoreTests.state(h)
        _ = try Fault.sql(file, "PRAGMA page_size = 1024; VACUUM;")
        #expect(try Fault.sql(file, "PRAGMA page_size") == "1024")
        try h.ok("take", "Ibuprofen", "--at", "06:55")
        let r = try h.run("restore", file)
        #expect(r.status == 0, "\(r.err)")
        #expect(try BackupRestoreTests.state(h) == backedUp)
        #expect(try Fault.integrity(h.db) == "ok")
    }

    @Test(arguments: ["random bytes", "damaged pages"])
    func restoreOverACorruptDatabase(_ damage: String) throws {
        // The error for a corrupt database says "restore a backup": that must work, and keep the damaged file.
        let h = try BackupRestoreTests.harness()
        let file = h.root + "/backup.sqlite"
        try h.ok("backup", file)
        let backedUp = try BackupRestoreTests.state(h)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: h.db))
        if damage == "random bytes" {
            var g = SystemRandomNumberGenerator()
            bytes = Data((0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &g) })
        } else {
            for i in stride(from: 4096, to: bytes.count, by: 4096) { for j in 0..<64 { bytes[i + j * 17] ^= 0x5A } }
        }
        try bytes.write(to: URL(fileURLWithPath: h.db))
        let hash = BackupRestoreTests.sha(h.db)
        let refused = try h.run("backup", h.root + "/of-a-corrupt.sqlite")
        #expect(refused.status == 65 && BackupRestoreTests.isOneLine(refused.err) && refused.err.contains("corrupt"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: h.root + "/of-a-corrupt.sqlite"))

        let r = try h.run("restore", file)
        #expect(r.status == 0, "\(r.err)")
        #expect(try BackupRestoreTests.state(h) == backedUp)
        let kept = h.db + ".replaced-" + BackupRestoreTests.replacedStamp
        #expect(BackupRestoreTests.sha(kept) == hash, "the damaged database was not kept as it was")
        // Its log and index go aside with it when they are there (commands leave them in place, as
        // the daemon does while it runs), never anything else.
        let keptName = "dosebar.sqlite.replaced-" + BackupRestoreTests.replacedStamp
        #expect(try BackupRestoreTests.strays(h).filter { $0 != keptName + "-wal" && $0 != keptName + "-shm" } == [keptName])
    }

    @Test("restore migrates an older backup (the v1 fixture) to the current schema")
    func restoreOlderSchema() throws {
        let h = try BackupRestoreTests.harness()
        let old = h.root + "/v1.sqlite"
        try FileManager.default.copyItem(atPath: MigrationTests.fixtures.appendingPathComponent("v1.sqlite").path, toPath: old)
        let r = try h.run("restore", old)
        #expect(r.status == 0, "\(r.err)")
        let history = try h.run(["history", "--json", "--from", "2026-03-02"], now: MigrationTests.now)
        let expected = try String(contentsOf: MigrationTests.fixtures.appendingPathComponent("v1-history.json"), encoding: .utf8)
        #expect(history.out == expected)
        // The file restored from is untouched: still at v1.
        #expect(try Fault.sql(old, "SELECT group_concat(identifier, ',') FROM grdb_migrations") == "v1")
    }

    /// A file `restore` must refuse, and how.
    struct Hostile: Sendable, CustomStringConvertible {
        var description: String
        var status: Int32
        /// Words the one-line message contains.
        var says: String
        /// Makes the file in the harness's root from a good backup at `backup`; returns the path to restore.
        var make: @Sendable (_ root: String, _ backup: String) throws -> String
    }

    static let hostile: [Hostile] = [
        Hostile(description: "another program's SQLite database", status: 65, says: "not a dosebar backup") { root, _ in
            let path = root + "/notes.sqlite"
            _ = try Fault.sql(path, "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('hello');")
            return path
        },
        Hostile(description: "random bytes", status: 65, says: "not a SQLite database") { root, _ in
            let path = root + "/random.sqlite"
            var g = SystemRandomNumberGenerator()
            try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &g) }).write(to: URL(fileURLWithPath: path))
            return path
        },
        Hostile(description: "a truncated dosebar backup", status: 65, says: "damaged") { root, backup in
            let path = root + "/truncated.sqlite"
            let whole = try Data(contentsOf: URL(fileURLWithPath: backup))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
            return path
        },
        Hostile(description: "a dosebar backup with a damaged page", status: 65, says: "damaged") { root, backup in
            let path = root + "/damaged.sqlite"
            var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
            let page = 4096
            // Every page after the first: b-tree headers, cell pointers and cells all scrambled.
            for i in stride(from: page, to: bytes.count, by: page) {
                for j in 0..<64 { bytes[i + j * 17 % page] ^= 0x5A }
            }
            try bytes.write(to: URL(fileURLWithPath: path))
            return path
        },
        Hostile(description: "a backup from a newer dosebar", status: 65, says: "newer dosebar") { root, backup in
            let path = root + "/newer.sqlite"
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            _ = try Fault.sql(path, "INSERT INTO grdb_migrations VALUES ('v999_from_the_future');")
            return path
        },
        Hostile(description: "an empty file", status: 65, says: "empty") { root, _ in
            let path = root + "/empty.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            return path
        },
        Hostile(description: "a directory", status: 74, says: "is a directory") { root, _ in
            let path = root + "/a-directory"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        },
        Hostile(description: "a missing file", status: 74, says: "no such file") { root, _ in root + "/missing.sqlite" },
    ]

    @Test(arguments: hostile)
    func restoreRefuses(_ file: Hostile) throws {
        let h = try BackupRestoreTests.harness()
        let backup = h.root + "/good.sqlite"
        try h.ok("backup", backup)
        try h.ok("take", "Ibuprofen", "--at", "06:55") // the live state now differs from the backup
        let path = try file.make(h.root, backup)
        let hash = BackupRestoreTests.sha(path)
        let before = try BackupRestoreTests.state(h), dump = h.dump()
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: h.dir + "/snapshot.json"))

        let r = try h.run("restore", path)
        #expect(r.status == file.status, "\(file): exit \(r.status), \(r.err)")
        #expect(BackupRestoreTests.isOneLine(r.err) && r.err.hasPrefix("dosebar: ") && r.err.contains(file.says), "\(file): \(r.err)")
        #expect(r.err.contains(path), "the message names the file: \(r.err)")
        #expect(r.out.isEmpty)
        #expect(try BackupRestoreTests.state(h) == before)
        #expect(h.dump() == dump)
        #expect(try BackupRestoreTests.strays(h) == [], "left beside the database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/snapshot.json")) == snapshot)
        #expect(BackupRestoreTests.sha(path) == hash, "the file given to restore was changed")
    }

    @Test("restore while the daemon runs: the daemon rewrites snapshot.json to the restored state")
    func restoreUnderDaemon() throws {
        let h = try DaemonTest.harness()
        let backup = h.root + "/before-takes.sqlite"
        try h.ok("backup", backup)
        let daemon = try DaemonTest.startDaemon(h)
        func ibuprofenToday() -> Int? {
            guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json"),
                  let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return ((s["as_needed"] as? [[String: Any]])?.first { $0["medication"] as? String == "Ibuprofen" })?["taken_today"] as? Int
        }
        // Commands write their own copy elsewhere: only the daemon updates the watched directory.
        let elsewhere = ["DOSEBAR_DIR": h.root + "/elsewhere"]
        for _ in 1...3 { #expect(try h.run(["take", "Ibuprofen"], extraEnv: elsewhere).status == 0) }
        #expect(DaemonTest.waitUntil(10) { ibuprofenToday() == 3 }, "the takes did not reach snapshot.json: \(daemon.stderr)")

        let r = try h.run(["restore", backup], extraEnv: elsewhere)
        #expect(r.status == 0, "\(r.err)")
        #expect(DaemonTest.waitUntil(10) { ibuprofenToday() == 0 }, "the daemon did not show the restored state: \(daemon.stderr)")
        // It keeps working on the restored database.
        #expect(try h.run(["take", "Ibuprofen"], extraEnv: elsewhere).status == 0)
        #expect(DaemonTest.waitUntil(10) { ibuprofenToday() == 1 }, "a take after the restore did not reach snapshot.json")
        #expect(daemon.process.isRunning)
        daemon.signal(SIGTERM)
        #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    }
}
