import DoseTestSupport
import Foundation
import Testing

/// DESIGN §9 "An exit code tells the truth", "Nothing waits without end", "No path form ... makes
/// a command crash": the real binary with its standard output closed, full or a pipe nobody reads,
/// with the shared directory's lock held by another process, and given paths that are not files.
@Suite("Exit codes that tell the truth")
struct TruthfulExitTests {
    static let now = "2026-11-22T09:00:00+09:00"

    /// Where the path comes from (`--db` or `env`: DOSEBAR_DB), the path (HOME: the harness's
    /// root), and the exit code.
    static let pathForms: [([String], Int32)] = [
        (["--db", "."], 74), (["--db", "./"], 74), (["--db", ".."], 74), (["--db", " "], 64), (["--db", ""], 64),
        (["--db", "HOME"], 74), (["--db", "HOME/"], 74), (["env", "."], 74), (["env", "  "], 64),
    ]

    /// `dosebar args` with its standard output redirected by `sh` (`>&-`, `>/dev/full`).
    static func redirected(_ h: Harness, _ redirection: String, _ args: [String]) throws -> Fault.Exit {
        try Fault.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", Harness.binary] + args, env: h.env)
    }

    /// `dosebar args` writing into a pipe whose reading end is already closed: every write is
    /// EPIPE, and SIGPIPE (the default disposition, restored in the child) would kill it.
    static func intoGonePipe(_ h: Harness, _ args: [String]) throws -> Fault.Exit {
        // Python restores SIGPIPE's default before exec (the test runner may ignore it).
        let script = """
        import os, signal, sys
        r, w = os.pipe()
        os.close(r)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            os.dup2(w, 1)
            os.execv(sys.argv[1], sys.argv[1:])
        os.close(w)
        _, status = os.waitpid(pid, 0)
        print(os.WTERMSIG(status) if os.WIFSIGNALED(status) else -1, os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1)
        """
        return try Fault.run("/usr/bin/python3", ["-c", script, Harness.binary] + args, env: h.env)
    }

    static func stock(_ h: Harness, _ name: String) throws -> Double? {
        let list = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        return list.first { $0["name"] as? String == name }?["stock"] as? Double
    }

    static func oneLine(_ s: String) -> Bool { s.split(separator: "\n").count == 1 }

    @Test("a refill whose confirmation cannot be printed (stdout closed or full) is saved once and exits 0 with a warning",
          arguments: [">&-", ">/dev/full"])
    func refillSavedExitsZero(_ redirection: String) throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        let r = try Self.redirected(h, redirection, ["refill", "Aspirin", "10"])
        #expect(r.signal == 0 && r.status == 0, "\(redirection): exit \(r.status) signal \(r.signal): \(r.err)")
        #expect(Self.oneLine(r.err) && r.err.contains("warning") && r.err.contains("cannot write to standard output"),
                "\(r.err.debugDescription)")
        #expect(try Self.stock(h, "Aspirin") == 40)
    }

    @Test("undo into a full stdout undoes one dose and exits 0: a script that retries does not undo a second")
    func undoOnce() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Zinc", "--at", "08:30", now: "2026-11-22T07:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "08:05")
        try h.ok("take", "Zinc", "--at", "08:35")
        let r = try Self.redirected(h, ">/dev/full", ["undo"])
        #expect(r.status == 0 && r.signal == 0, "exit \(r.status): \(r.err)")
        let statuses = Set(try h.statuses())
        #expect(statuses == ["Aspirin:taken", "Zinc:late"] || statuses == ["Aspirin:taken", "Zinc:due"], "\(statuses)")
    }

    @Test("take into a pipe whose reader left: not killed by SIGPIPE, the dose recorded once, exit 0")
    func takeIntoGonePipe() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        let r = try Self.intoGonePipe(h, ["take", "Aspirin", "--at", "08:05"])
        let fields = r.out.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(fields == [-1, 0], "signal, exit: \(r.out) \(r.err)")
        #expect(try h.statuses() == ["Aspirin:taken"])
        #expect(try Self.stock(h, "Aspirin") == 29)
    }

    @Test("a command whose work is what it prints still fails when it cannot print it (74), into a gone pipe too")
    func readingCommandFails() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00")
        let full = try Self.redirected(h, ">/dev/full", ["today"])
        #expect(full.status == 74 && Self.oneLine(full.err) && full.err.contains("cannot write to standard output"), "\(full.err)")
        let gone = try Self.intoGonePipe(h, ["report", "--format", "csv"])
        #expect(gone.out.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } == [-1, 74],
                "signal, exit: \(gone.out) \(gone.err)")
    }

    @Test("--db or DOSEBAR_DB naming a directory or nothing: one line and 74 or 64, never a crash",
          arguments: pathForms)
    func databasePathForms(_ form: [String], _ expected: Int32) throws {
        let h = Harness(now: Self.now)
        try FileManager.default.createDirectory(atPath: h.root + "/cwd", withIntermediateDirectories: true)
        let value = form[1].replacingOccurrences(of: "HOME", with: h.root)
        var env = h.env
        var global: [String] = []
        if form[0] == "env" { env["DOSEBAR_DB"] = value } else { env["DOSEBAR_DB"] = nil; global = ["--db", value] }
        for args in [["today"], ["add", "Aspirin", "--at", "08:00"], ["take", "--next"], ["status", "--format", "waybar"]] {
            let r = try Fault.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", h.root + "/cwd", Harness.binary] + args + global,
                                  env: env)
            #expect(r.signal == 0 && r.status == expected, "\(form) \(args): exit \(r.status) signal \(r.signal): \(r.err)")
            #expect(Self.oneLine(r.err) && r.err.hasPrefix("dosebar: ") && !r.err.contains("Backtrac"), "\(form) \(args): \(r.err)")
        }
        #expect(Fault.strayFiles(h.root + "/cwd").isEmpty, "\(Fault.strayFiles(h.root + "/cwd"))")
    }

    @Test("too few file descriptors (ulimit -n): one line and 74, or the command works; never a signal or a backtrace",
          arguments: [4, 5, 8, 12, 24])
    func descriptorLimits(_ limit: Int) throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        for args in [["today"], ["take", "Aspirin", "--at", "08:05"], ["refill", "Aspirin", "1"], ["export"], ["status", "--format", "waybar"]] {
            let r = try Fault.run("/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$@\"", "sh", Harness.binary] + args, env: h.env)
            #expect(r.signal == 0 && (r.status == 0 || r.status == 74), "ulimit -n \(limit) \(args): \(r.status) \(r.signal) \(r.err)")
            #expect(!r.err.contains("Backtrac") && !r.err.contains("Fatal error"), "ulimit -n \(limit) \(args): \(r.err)")
            if r.status == 74 { #expect(Self.oneLine(r.err) && r.err.contains("ulimit -n"), "\(limit) \(args): \(r.err)") }
            if limit <= 8 { #expect(r.status == 74, "ulimit -n \(limit) \(args): \(r.status)") }
            if limit >= 24 { #expect(r.status == 0, "ulimit -n \(limit) \(args): \(r.status) \(r.err)") }
        }
    }

    @Test("a damaged backup is 65 with the reason, whatever the damage: a schema format SQLite does not know, mutated bytes, a cut")
    func damagedBackups() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        for i in 1...30 { try h.ok("add", "Med\(i)", "--at", "09:00") }
        let backup = h.root + "/backup.sqlite"
        try h.ok("backup", backup)
        let original = try Data(contentsOf: URL(fileURLWithPath: backup))
        let live = try Fault.sql(h.db, "SELECT count(*) FROM medication;")

        // The header's schema format number (bytes 44-47) set to 9: "unsupported file format" was 70.
        var format = original
        format.replaceSubrange(44..<48, with: [0, 0, 0, 9])
        var cases: [(String, Data)] = [("schema format 9", format)]
        var random = FaultRandom(salt: 44)
        for n in 0..<40 {
            var d = original
            switch n % 3 {
            case 0: for _ in 0..<random.int(1...3) { d[random.int(16...99)] = UInt8(random.int(0...255)) }
            case 1: for _ in 0..<random.int(1...30) { d[random.int(100...d.count - 1)] = UInt8(random.int(0...255)) }
            default: d = d.prefix(random.int(100...d.count - 1))
            }
            cases.append(("mutation \(n), \(random.label)", d))
        }
        for (label, bytes) in cases {
            let path = h.root + "/mutated.sqlite"
            try bytes.write(to: URL(fileURLWithPath: path))
            let r = try Fault.dosebar(h, ["restore", path])
            #expect(r.signal == 0 && (r.status == 0 || r.status == 65), "\(label): \(r.status) \(r.err)")
            if r.status == 65 {
                #expect(Self.oneLine(r.err) && r.err.contains("it was not restored"), "\(label): \(r.err)")
                #expect(try Fault.sql(h.db, "SELECT count(*) FROM medication;") == live, "\(label): the live database changed")
            }
            if label.hasPrefix("schema format") { #expect(r.status == 65 && r.err.contains("damaged"), "\(r.err)") }
            if r.status == 0 { try h.ok("restore", backup) }
        }
    }

    @Test("reading commands on a read-only database (a read-only mount, its log emptied) or one another program writes: the same output, their caches computed and not kept; writes 74 and 75",
          .enabled(if: Mounts.permitted, "mount not permitted: read-only test skipped"))
    func readingNeverFailsForCaches() throws {
        let h = Harness(now: "2026-11-24T09:00:00+09:00")
        for day in 18...21 { try h.ok("add", "A\(day)", "--at", "08:00", "--stock", "30", now: "2026-11-\(day)T07:00:00+09:00") }
        try h.ok("take", "A18", "--at", "08:05", now: "2026-11-22T09:00:00+09:00")
        let commands = [["today"], ["history"], ["report", "--format", "csv"], ["stats"], ["status", "--format", "waybar"]]
        let expected = try commands.map { try h.ok($0).out }
        // The days' summaries gone: each reading command has days to summarise again. sqlite3, the
        // last connection, empties the log and removes the -wal and -shm files as it closes.
        _ = try Fault.sql(h.db, "DELETE FROM day_summary;")

        // Another program holds the write lock longer than the busy timeout.
        let holder = Process(), input = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [h.db]
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        // sqlite3 holds the write lock until its input ends.
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nDELETE FROM meta WHERE 0;\n".utf8))
        defer { if holder.isRunning { holder.terminate() } }
        usleep(500_000)
        let box = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let args = i == 0 ? ["today"] : ["refill", "A19", "3"]
            let r = try? Fault.dosebar(h, args, timeout: 40)
            box.lock.withLock { box.results[args[0]] = r.map { ($0, 0) } }
        }
        let (busyToday, _) = try #require(box.lock.withLock { box.results["today"] })
        #expect(busyToday.status == 0 && busyToday.out == expected[0], "today while sqlite3 writes: \(busyToday.status) \(busyToday.err)")
        let (busyRefill, _) = try #require(box.lock.withLock { box.results["refill"] })
        #expect(busyRefill.status == 75 && busyRefill.err.contains("sqlite3") && Self.oneLine(busyRefill.err),
                "refill while sqlite3 writes: \(busyRefill.status) \(busyRefill.err)")
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()

        let data = h.root + "/data"
        try #require(Fault.mount(["--bind", data, data]) == nil)
        defer { Fault.umount(data) }
        try #require(Fault.mount(["-o", "remount,bind,ro", data]) == nil)
        for (args, out) in zip(commands, expected) {
            let r = try Fault.dosebar(h, args)
            #expect(r.status == 0 && r.out == out, "\(args) on a read-only database: \(r.status) \(r.err)\n\(r.out)")
        }
        for args in [["take", "A19"], ["refill", "A19", "3"]] {
            let r = try Fault.dosebar(h, args)
            #expect(r.status == 74 && Self.oneLine(r.err) && r.err.contains("readonly"), "\(args): \(r.status) \(r.err)")
        }
    }

    @Test("a full sync folder: sync init sets nothing up and leaves no file (74); sync now fails (74) and this device's file keeps whole lines; a torn tail is cut",
          .enabled(if: Mounts.permitted, "mount not permitted: sync folder test skipped"))
    func fullSyncFolder() throws {
        let h = Harness(now: Self.now)
        let folder = h.root + "/sync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #require(Fault.mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder]) == nil)
        defer { Fault.umount(folder) }
        let note = String(repeating: "n", count: 900)
        for i in 1...8 { try h.ok("add", "M\(i)", "--at", "08:00", "--note", note, now: "2026-11-22T07:00:00+09:00") }
        func fill(leaving kilobytes: Int) throws {
            unlink(folder + "/fill")
            var info = statvfs()
            try #require(statvfs(folder, &info) == 0)
            let free = Int(info.f_bavail) * Int(info.f_frsize) - kilobytes * 1024
            try #require(FileManager.default.createFile(atPath: folder + "/fill", contents: Data(count: max(0, free))))
        }
        try fill(leaving: 2)
        let initial = try Fault.dosebar(h, ["sync", "init", folder])
        #expect(initial.status == 74 && Self.oneLine(initial.err) && initial.err.contains("full"), "\(initial.status) \(initial.err)")
        #expect(try Fault.dosebar(h, ["sync", "status"]).status == 64, "sync is set up after a failed init")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/dosebar")) ?? []
        #expect(files.isEmpty, "\(files)")

        unlink(folder + "/fill")
        try h.ok("sync", "init", folder)
        let own = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/dosebar").first { $0.hasSuffix(".jsonl") })
        let path = folder + "/dosebar/" + own
        try fill(leaving: 1)
        for i in 1...8 { _ = try Fault.dosebar(h, ["take", "M\(i)", "--at", "08:05"]) }
        let now = try Fault.dosebar(h, ["sync", "now"])
        #expect(now.status == 74 && now.err.contains("full"), "sync now on a full folder: \(now.status) \(now.err)")
        func wholeLines() throws -> Bool {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return text.hasSuffix("\n") && text.split(separator: "\n").allSatisfy {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil
            }
        }
        #expect(try wholeLines(), "a torn line in this device's file")

        // A process killed mid-write left half a line: the next append cuts it first.
        unlink(folder + "/fill")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"half\": \"a line".utf8))
        try handle.close()
        try h.ok("sync", "now")
        #expect(try wholeLines(), "the torn tail is still there")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"M8\""))
    }

    @Test("purge on a nearly full disk: 'for good' only with exit 0; a compaction that failed says the doses may remain and how to finish",
          .enabled(if: Mounts.permitted, "mount not permitted: full disk test skipped"))
    func purgeOnFullDisk() throws {
        var h = Harness(now: Self.now)
        let disk = h.root + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(Fault.mount(["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]) == nil)
        defer { Fault.umount(disk) }
        h.env["DOSEBAR_DB"] = disk + "/dosebar.sqlite"
        try h.ok("add", "Zinc", "--at", "08:00")
        var failedToCompact = 0
        for leave in [400, 300, 200, 150, 100, 60] {
            if try !Fault.sql(h.env["DOSEBAR_DB"]!, "SELECT name FROM medication;").contains("Aspirin") {
                try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", "--from", "2024-01-01")
            }
            unlink(disk + "/fill")
            var info = statvfs()
            try #require(statvfs(disk, &info) == 0)
            let fill = Int(info.f_bavail) * Int(info.f_frsize) - leave * 1024
            try #require(FileManager.default.createFile(atPath: disk + "/fill", contents: Data(count: max(0, fill))))
            let r = try Fault.dosebar(h, ["purge", "Aspirin", "--yes"])
            unlink(disk + "/fill")
            let gone = try !Fault.sql(h.env["DOSEBAR_DB"]!, "SELECT name FROM medication;").contains("Aspirin")
            if r.out.contains("for good") { #expect(r.status == 0 && gone, "\(leave) KB: 'for good' with \(r.status): \(r.err)") }
            if r.status == 74 && gone {
                failedToCompact += 1
                #expect(r.err.contains("is deleted, but") && r.err.contains("VACUUM") && Self.oneLine(r.err), "\(leave) KB: \(r.err)")
                #expect(!r.out.contains("for good"))
            }
            #expect([0, 74].contains(r.status), "\(leave) KB: \(r.status) \(r.err)")
            #expect(!r.err.contains("saved, but") || gone, "\(leave) KB: says saved while nothing was purged: \(r.err)")
        }
        #expect(failedToCompact > 0, "no size made the compaction fail: the case is not exercised")
    }

    /// The private copies a backup or restore writes (and their SQLite companions) in `directory`.
    static func temporaries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasPrefix(".dosebar-restore.") || $0.contains(".tmp")
        }.sorted()
    }

    @Test("SIGTERM, SIGINT or SIGHUP at any moment of a backup or a restore leaves no copy of the data behind")
    func interruptedCopiesLeaveNothing() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        // A large database, so that a copy takes a while: a note per medicine, and padding.
        _ = try Fault.sql(h.db, "INSERT INTO meta(key, value) VALUES('test.padding', hex(randomblob(12000000)));")
        let backups = h.root + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        try h.ok("backup", backups + "/base.sqlite")
        var random = FaultRandom(salt: 0x5167)
        var interrupted = 0
        for round in 0..<12 {
            let signal = [SIGTERM, SIGINT, SIGHUP][round % 3]
            let args = round % 2 == 0 ? ["backup", backups + "/b\(round).sqlite"] : ["restore", backups + "/base.sqlite"]
            // Through python, which gives the binary the default dispositions and an empty signal
            // mask, as a shell would (the test runner's children inherit its blocked signals).
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            p.arguments = ["-c", """
                import os, signal, sys
                for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP): signal.signal(s, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                os.execv(sys.argv[1], sys.argv[1:])
                """, Harness.binary] + args
            p.environment = h.env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(random.int(20_000...400_000)))
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { interrupted += 1 }
            #expect(Self.temporaries(backups).isEmpty && Self.temporaries(h.root + "/data").isEmpty,
                    "\(args[0]) after signal \(signal) (\(random.label)): \(Self.temporaries(backups)) \(Self.temporaries(h.root + "/data"))")
        }
        #expect(interrupted > 0, "no command was interrupted: the copies were too quick to test")
        #expect(try Fault.integrity(h.db) == "ok")
    }

    @Test("a copy a killed process left (SIGKILL) is removed by the next backup there, restore, purge or doctor; a file not ours stays")
    func staleCopiesRemoved() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        try h.ok("add", "Zinc", "--at", "09:00")
        let backups = h.root + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        try h.ok("backup", backups + "/base.sqlite")
        // The pid of a process that has ended.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let pid = gone.processIdentifier
        let fm = FileManager.default
        let data = h.root + "/data"
        for (command, directory, name) in [(["doctor"], data, ".dosebar-restore.\(pid).sqlite"),
                                           (["purge", "Zinc", "--yes"], data, ".dosebar-restore.\(pid).sqlite"),
                                           (["restore", backups + "/base.sqlite"], data, ".dosebar-restore.\(pid).sqlite"),
                                           (["backup", backups + "/next.sqlite"], backups, ".next.sqlite.\(pid).tmp")] {
            try fm.copyItem(atPath: backups + "/base.sqlite", toPath: directory + "/" + name)
            try Data("log".utf8).write(to: URL(fileURLWithPath: directory + "/" + name + "-journal"))
            try Data("not a database".utf8).write(to: URL(fileURLWithPath: directory + "/.notes.\(pid).tmp"))
            _ = try Fault.dosebar(h, command)
            #expect(!fm.fileExists(atPath: directory + "/" + name) && !fm.fileExists(atPath: directory + "/" + name + "-journal"),
                    "\(command[0]) left \(Self.temporaries(directory))")
            #expect(fm.fileExists(atPath: directory + "/.notes.\(pid).tmp"), "\(command[0]) removed a file that is not dosebar's")
            unlink(directory + "/.notes.\(pid).tmp")
        }
    }

    @Test("a symbolic link as the shared directory's marker or lock: 78 with a line that names it, the link left alone")
    func symlinkedMarkerAndLock() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00")
        let fm = FileManager.default
        for name in [".dosebar-shared", ".lock"] {
            let file = h.dir + "/" + name, aside = h.root + "/aside" + name
            try fm.moveItem(atPath: file, toPath: aside)
            try fm.createSymbolicLink(atPath: file, withDestinationPath: aside)
            let r = try Fault.dosebar(h, ["export"])
            #expect(r.status == 78 && Self.oneLine(r.err) && r.err.contains(name) && r.err.contains("symbolic link"), "\(name): \(r.status) \(r.err)")
            #expect(!r.err.contains("no \(name) in it"), "\(r.err)")
            #expect((try? fm.destinationOfSymbolicLink(atPath: file)) == aside)
            try fm.removeItem(atPath: file)
            try fm.moveItem(atPath: aside, toPath: file)
        }
    }

    @Test("the shared directory's lock held without end: export exits 75 after the busy timeout, take records the dose and exits 0")
    func heldLockIsBounded() throws {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "30")
        // This process holds the lock dosebar takes (its own open file description), as a stopped
        // `dosebar export` would.
        let fd = open(h.dir + "/.lock", O_RDWR | O_CLOEXEC)
        try #require(fd >= 0 && flock(fd, LOCK_EX) == 0)
        defer { close(fd) }

        let box = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let args = i == 0 ? ["export"] : ["take", "Aspirin", "--at", "08:05"]
            let start = Date()
            let r = try? Fault.dosebar(h, args, timeout: 40)
            box.lock.withLock { box.results[args[0]] = r.map { ($0, Date().timeIntervalSince(start)) } }
        }
        let results = box.lock.withLock { box.results }
        let (export, exportTime) = try #require(results["export"])
        #expect(export.status == 75 && Self.oneLine(export.err) && export.err.contains("lock"), "\(export.status): \(export.err)")
        #expect(exportTime < 30, "export waited \(exportTime) s")
        let (take, takeTime) = try #require(results["take"])
        #expect(take.status == 0 && take.err.contains("not updated"), "\(take.status): \(take.err)")
        #expect(takeTime < 30, "take waited \(takeTime) s")
        #expect(try h.statuses() == ["Aspirin:taken"])
    }
}

/// The two commands' results, handed from their threads under the lock.
final class ResultBox: @unchecked Sendable {
    let lock = NSLock()
    var results: [String: (Fault.Exit, TimeInterval)] = [:]
}
