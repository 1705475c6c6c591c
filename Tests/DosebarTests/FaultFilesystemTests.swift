import DoseExport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whether this process may mount file systems (root with CAP_SYS_ADMIN, as in CI). Tests that
/// need it are skipped — loudly, with a line on stdout and a reason in the test report — when not;
/// under CI=true they run anyway, and fail on the mount: CI must prove them.
enum Mounts {
    static let permitted: Bool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-mount-probe-\(UUID().uuidString)").path
        mkdir(dir, 0o700)
        defer { rmdir(dir) }
        if let problem = Fault.mount(["-t", "tmpfs", "-o", "size=16k", "tmpfs", dir]) {
            print("⚠️  \(Harness.underCI ? "FAILING" : "SKIPPING") the disk-full and read-only fault tests: mount is not permitted here (\(problem))")
            return Harness.underCI
        }
        Fault.umount(dir)
        return true
    }()
}

/// DESIGN §9 through the binary: a full disk, a read-only or missing database directory, corrupt
/// and foreign databases, hostile shared directories — one clear line, the documented exit code,
/// nothing changed.
@Suite struct FaultFilesystemTests {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Every file of a directory with its bytes.
    static func snapshotOf(_ dir: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] { out[name] = bytes(dir + "/" + name) }
        return out
    }

    static func oneLine(_ r: Fault.Exit) -> Bool {
        r.err.hasPrefix("dosebar: ") && r.err.split(separator: "\n").count == 1 && !r.err.contains("Backtrac")
    }

    /// Fills the file system holding `dir` with a file `dir/filler` until it is full.
    static func fill(_ dir: String) {
        let fd = open(dir + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x2A, count: 1024)
        while write(fd, chunk, chunk.count) > 0 {}
        // The last partial block.
        while write(fd, chunk, 1) > 0 {}
    }

    @Test(.enabled(if: Mounts.permitted, "mount not permitted: disk-full test skipped"))
    func sharedDirectoryOnAFullDisk() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        let mount = h.root + "/small"
        mkdir(mount, 0o700)
        try #require(Fault.mount(["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", mount]) == nil)
        defer { Fault.umount(mount) }
        let dir = mount + "/bar"
        try h.ok("add", "Aspirin", "--at", "08:00,21:00", "--stock", "30")
        #expect(try Fault.dosebar(h, ["export", "--dir", dir]).status == 0)
        let before = FaultFilesystemTests.snapshotOf(dir)
        let files = Exporter.fileNames
        #expect(files.allSatisfy { before[$0] != nil }, "\(before.keys.sorted())")

        FaultFilesystemTests.fill(mount)
        // export: exit 74, one line saying what to do, the old files byte for byte, no temporary file.
        let r = try Fault.dosebar(h, ["export", "--dir", dir], extra: ["DOSEBAR_NOW": "2026-11-22T08:30:00+09:00"])
        #expect(r.status == 74, "export on a full disk: exit \(r.status), \(r.err)")
        #expect(FaultFilesystemTests.oneLine(r) && r.err.contains("space"), "\(r.err.debugDescription)")
        #expect(FaultFilesystemTests.snapshotOf(dir) == before, "files changed or a temporary file was left: \(Fault.strayFiles(dir))")
        // take: the dose is saved (the database is elsewhere), and one warning says the bar was not updated.
        let t = try Fault.dosebar(h, ["take", "Aspirin", "--dir", dir], extra: ["DOSEBAR_NOW": "2026-11-22T08:30:00+09:00"])
        #expect(t.status == 0, "\(t.err)")
        #expect(t.err.contains("warning") && FaultFilesystemTests.oneLine(t), "\(t.err.debugDescription)")
        #expect(FaultFilesystemTests.snapshotOf(dir) == before)
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM event;") == "1")
        // Space again: the next export brings the directory up to date.
        unlink(mount + "/filler")
        #expect(try Fault.dosebar(h, ["export", "--dir", dir], extra: ["DOSEBAR_NOW": "2026-11-22T08:30:00+09:00"]).status == 0)
        #expect(Fault.sharedFileProblems(dir).isEmpty)
        #expect(FaultFilesystemTests.snapshotOf(dir)["snapshot.json"] != before["snapshot.json"])
    }

    @Test(.enabled(if: Mounts.permitted, "mount not permitted: disk-full test skipped"))
    func databaseOnAFullDisk() throws {
        var h = Harness(now: "2026-11-22T08:30:00+09:00")
        let mount = h.root + "/small"
        mkdir(mount, 0o700)
        try #require(Fault.mount(["-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", mount]) == nil)
        defer { Fault.umount(mount) }
        h.env["DOSEBAR_DB"] = mount + "/dosebar.sqlite"
        let db = mount + "/dosebar.sqlite"
        try h.ok("add", "Prn", "--as-needed", "--stock", "1000")
        try h.ok("take", "Prn", "--at", "08:00")
        FaultFilesystemTests.fill(mount)
        var failures = 0
        // Keep writing until SQLite can no longer grow the WAL (it may have slack pages first).
        for i in 0..<200 {
            let r = try Fault.dosebar(h, ["take", "Prn", "--at", String(format: "%02d:%02d", i / 60, i % 60)])
            if r.status != 0 {
                failures += 1
                #expect(r.status == 74, "take on a full disk: exit \(r.status): \(r.err)")
                #expect(FaultFilesystemTests.oneLine(r) && r.err.contains("full"), "\(r.err.debugDescription)")
                break
            }
        }
        #expect(failures == 1, "the disk never filled up")
        unlink(mount + "/filler")
        #expect(try Fault.integrity(db) == "ok")
        let events = Int(try Fault.sql(db, "SELECT count(*) FROM event;")) ?? -1
        let stock = Int(try Fault.sql(db, "SELECT stock FROM medication WHERE id = 1;")) ?? -1
        // Stored in hundredths of a unit.
        #expect(stock == (1000 - events) * 100, "stock \(stock) with \(events) events")
        #expect(try Fault.dosebar(h, ["take", "Prn", "--at", "05:00"]).status == 0)
    }

    @Test(.enabled(if: Mounts.permitted, "mount not permitted: read-only test skipped"))
    func readOnlyDatabaseDirectory() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added before its 08:00 slot, which is then tracked (DESIGN §3) and due at 08:30.
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", now: "2026-11-22T07:00:00+09:00")
        let data = h.root + "/data"
        let before = FaultFilesystemTests.snapshotOf(data)
        // We are root, so chmod would not bind: make the directory a read-only bind mount of itself.
        try #require(Fault.mount(["--bind", data, data]) == nil)
        defer { Fault.umount(data) }
        try #require(Fault.mount(["-o", "remount,bind,ro", data]) == nil)
        for args in [["take", "Aspirin"], ["add", "Other", "--at", "09:00"], ["undo"], ["refill", "Aspirin", "5"]] {
            let r = try Fault.dosebar(h, args)
            // The log and index the last command left beside the database let it be read: `undo`
            // then finds nothing to undo (65) before it would write; every write is refused (74).
            let truthful = args == ["undo"] && r.status == 65 && r.err.contains("nothing to undo")
            #expect(r.status == 74 || truthful, "\(args) on a read-only database directory: exit \(r.status), \(r.err)")
            #expect(FaultFilesystemTests.oneLine(r), "\(args): \(r.err.debugDescription)")
        }
        // Reading may or may not be possible without the -shm file, but never crashes.
        let today = try Fault.dosebar(h, ["today"])
        #expect([0, 74].contains(today.status), "today: exit \(today.status), \(today.err)")
        Fault.umount(data)
        #expect(FaultFilesystemTests.snapshotOf(data) == before, "the read-only database changed")
        #expect(try Fault.integrity(h.db) == "ok")
    }

    /// Only the default location's directories are created (DESIGN §9): under XDG_DATA_HOME they are
    /// made 0700; an explicit path whose directory is missing is refused (74) and nothing is created.
    @Test func missingDatabaseDirectoryIsCreatedPrivatelyOnlyAtTheDefaultLocation() throws {
        var h = Harness(now: "2026-11-22T08:30:00+09:00")
        let explicit = h.root + "/deep/er/dosebar.sqlite"
        let refused = try Fault.dosebar(h, ["add", "Aspirin", "--at", "08:00"], extra: ["DOSEBAR_DB": explicit])
        #expect(refused.status == 74 && FaultFilesystemTests.oneLine(refused) && refused.err.contains(h.root + "/deep/er"),
                "\(refused.status): \(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: h.root + "/deep"), "an explicit path's directory was created")

        h.env["DOSEBAR_DB"] = nil
        h.env["XDG_DATA_HOME"] = h.root + "/xdg/data"
        try h.ok("add", "Aspirin", "--at", "08:00")
        var st = stat()
        for path in [h.root + "/xdg", h.root + "/xdg/data", h.root + "/xdg/data/dosebar"] {
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o700, "\(path) mode \(String(st.st_mode & 0o777, radix: 8))")
        }
        let db = h.root + "/xdg/data/dosebar/dosebar.sqlite"
        #expect(stat(db, &st) == 0 && st.st_mode & 0o777 == 0o600, "db mode \(String(st.st_mode & 0o777, radix: 8))")
    }

    @Test func uncreatableDatabaseDirectoryIsAClearError() throws {
        let h = Harness()
        FileManager.default.createFile(atPath: h.root + "/plainfile", contents: Data("x".utf8))
        var cases = [h.root + "/plainfile/sub/dosebar.sqlite", "/proc/dosebar-test/dosebar.sqlite"]
        if Mounts.permitted {
            let ro = h.root + "/ro"
            mkdir(ro, 0o700)
            if Fault.mount(["-t", "tmpfs", "-o", "size=16k,ro", "tmpfs", ro]) == nil { cases.append(ro + "/new/dosebar.sqlite") }
        }
        defer { Fault.umount(h.root + "/ro") }
        for db in cases {
            let r = try Fault.dosebar(h, ["add", "Aspirin", "--at", "08:00"], extra: ["DOSEBAR_DB": db])
            #expect(r.status == 74, "--db \(db): exit \(r.status), \(r.err)")
            #expect(FaultFilesystemTests.oneLine(r), "\(r.err.debugDescription)")
        }
        // The same through --db rather than DOSEBAR_DB.
        let flag = try Fault.dosebar(h, ["list", "--db", h.root + "/plainfile/x/dosebar.sqlite"])
        #expect(flag.status == 74 && FaultFilesystemTests.oneLine(flag) && flag.err.contains("plainfile"), "\(flag.err)")
        // A database path that is a directory.
        let r = try Fault.dosebar(h, ["list"], extra: ["DOSEBAR_DB": h.root])
        #expect([65, 74].contains(r.status) && FaultFilesystemTests.oneLine(r), "a directory as --db: exit \(r.status), \(r.err)")
    }

    /// Corrupt and foreign databases beyond BadInputTests' garbage file and plain foreign table.
    @Test func damagedAndForeignDatabasesAreRefusedUntouched() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added before its 08:00 slot, which is then tracked (DESIGN §3) and due at 08:30.
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", now: "2026-11-22T07:00:00+09:00")
        try h.ok("take", "Aspirin")
        // Fold the WAL into the main file so the copies below are self-contained.
        _ = try Fault.sql(h.db, "PRAGMA wal_checkpoint(TRUNCATE);")
        let good = try #require(FaultFilesystemTests.bytes(h.db))
        #expect(good.count >= 4096 * 4)

        var variants: [(String, Data)] = []
        variants.append(("truncated to half", good.prefix(good.count / 2)))
        var flipped = good
        for i in stride(from: 4096 + 8, to: min(good.count, 4096 * 3), by: 7) { flipped[i] ^= 0xA5 } // b-tree pages, header intact
        variants.append(("flipped bytes in pages 2–3", flipped))
        var badHeader = good
        badHeader.replaceSubrange(16..<18, with: [0x00, 0x03]) // page size 3: invalid
        variants.append(("invalid page size", badHeader))
        for (what, data) in variants {
            let path = h.root + "/variant.sqlite"
            try? FileManager.default.removeItem(atPath: path)
            try data.write(to: URL(fileURLWithPath: path))
            for args in [["list"], ["take", "Aspirin", "--at", "08:10"], ["today", "--json"]] {
                let r = try Fault.dosebar(h, args, extra: ["DOSEBAR_DB": path])
                #expect([65, 74].contains(r.status), "\(what), \(args): exit \(r.status) signal \(r.signal): \(r.err.prefix(300))")
                #expect(FaultFilesystemTests.oneLine(r), "\(what), \(args): \(r.err.prefix(300).debugDescription)")
            }
            #expect(FaultFilesystemTests.bytes(path) == data, "\(what): the damaged file was modified")
        }

        // Another program's SQLite database in WAL mode, with its -wal file: refused, both files untouched.
        let foreign = h.root + "/notes.sqlite"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [foreign, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE notes(t); INSERT INTO notes VALUES ('x'); INSERT INTO notes VALUES ('y');"]
        try p.run(); p.waitUntilExit()
        let mainBytes = FaultFilesystemTests.bytes(foreign)
        let r = try Fault.dosebar(h, ["take", "Aspirin"], extra: ["DOSEBAR_DB": foreign])
        #expect(r.status == 65 && r.err.contains("not a dosebar database") && FaultFilesystemTests.oneLine(r), "\(r.err)")
        #expect(FaultFilesystemTests.bytes(foreign) == mainBytes)
        #expect(try Fault.sql(foreign, "SELECT count(*) FROM notes;") == "2")

        // A dosebar database migrated by a newer dosebar: refused, unchanged.
        let future = h.root + "/future.sqlite"
        try good.write(to: URL(fileURLWithPath: future))
        _ = try Fault.sql(future, "INSERT INTO grdb_migrations VALUES ('v99'); PRAGMA wal_checkpoint(TRUNCATE);")
        let futureBytes = FaultFilesystemTests.bytes(future)
        let n = try Fault.dosebar(h, ["take", "Aspirin"], extra: ["DOSEBAR_DB": future])
        #expect(n.status == 65 && n.err.contains("newer") && FaultFilesystemTests.oneLine(n), "\(n.err)")
        #expect(FaultFilesystemTests.bytes(future) == futureBytes)
    }

    /// Hostile shared directories beyond BadInputTests' foreign owner and symlinked --dir.
    @Test func hostileSharedDirectories() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added before its 08:00 slot, which is then tracked (DESIGN §3) and due at 08:30.
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        // A symlinked directory given through the environment, for export and for the daemon.
        let real = h.root + "/real"
        mkdir(real, 0o700)
        let link = h.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        for args in [["export"], ["daemon"]] {
            let r = try Fault.dosebar(h, args, extra: ["DOSEBAR_DIR": link], timeout: 10)
            #expect(r.status == 78 && r.err.contains("symlink") && FaultFilesystemTests.oneLine(r), "\(args): \(r.status) \(r.err)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: real)) ?? []).isEmpty, "something was written through the symlink")
        // A regular file where the directory should be.
        let file = h.root + "/file"
        FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        let f = try Fault.dosebar(h, ["export"], extra: ["DOSEBAR_DIR": file])
        #expect(f.status == 78 && FaultFilesystemTests.oneLine(f), "\(f.err)")
        #expect(FaultFilesystemTests.bytes(file) == Data("keep".utf8))
        // A directory owned by someone else, given to the daemon.
        let other = h.root + "/other"
        mkdir(other, 0o700)
        chown(other, 65534, 65534)
        let d = try Fault.dosebar(h, ["daemon"], extra: ["DOSEBAR_DIR": other], timeout: 10)
        #expect(d.status == 78 && FaultFilesystemTests.oneLine(d), "daemon in a foreign directory: \(d.status) \(d.err)")
        // Inside our own directory, a file planted as a symlink to a victim is neither followed nor
        // replaced: the take is kept and warns, the other files are written (SharedDirectorySafetyTests).
        #expect(try Fault.dosebar(h, ["export"]).status == 0)
        let victim = h.root + "/victim"
        FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8))
        for name in ["snapshot.json", "waybar.json"] {
            unlink(h.dir + "/" + name)
            try FileManager.default.createSymbolicLink(atPath: h.dir + "/" + name, withDestinationPath: victim)
        }
        let t = try Fault.dosebar(h, ["take", "Aspirin"])
        #expect(t.status == 0 && t.err.contains("symlink"), "\(t.err)")
        #expect(FaultFilesystemTests.bytes(victim) == Data("precious".utf8), "a planted symlink was followed")
        var st = stat()
        #expect(lstat(h.dir + "/snapshot.json", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "a planted symlink was replaced")
        #expect(lstat(h.dir + "/snapshot.txt", &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o600)
        // A mode the user set is theirs: a 0755 directory is not group- or world-writable and stays so.
        for name in ["snapshot.json", "waybar.json"] { unlink(h.dir + "/" + name) }
        chmod(h.dir, 0o755)
        #expect(try Fault.dosebar(h, ["export"]).status == 0)
        #expect(stat(h.dir, &st) == 0 && st.st_mode & 0o777 == 0o755, "mode \(String(st.st_mode & 0o777, radix: 8))")
    }
}
