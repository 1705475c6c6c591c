import Foundation
import Glibc
import Testing

/// `remove` → `resume`, and `purge` (DESIGN §2): the real binary on real databases, two homes
/// syncing through one folder for the purge every device applies.
@Suite("resume and purge")
struct PurgeResumeTests {
    /// A name and a note that occur nowhere else, to search the bytes of files for.
    static let name = "Qorvexilan", note = "nightjar-71923-privnote"

    /// Runs the binary with `input` on its stdin (a pipe: not a terminal).
    static func run(_ h: Harness, _ args: [String], input: String = "", now: String? = nil) throws -> Harness.Result {
        var env = h.env
        if let now { env["DOSEBAR_NOW"] = now }
        let p = Harness.process(args, env: env)
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = stdin; p.standardOutput = out; p.standardError = err
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Harness.Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Runs the binary on a terminal (`script` gives it one), typing `answer`.
    static func onTerminal(_ h: Harness, _ args: [String], answer: String) throws -> Harness.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([Harness.binary] + args).map { "'" + $0 + "'" }.joined(separator: " ")
        p.arguments = ["-qec", command, "/dev/null"]
        p.environment = h.env
        let stdin = Pipe(), out = Pipe()
        p.standardInput = stdin; p.standardOutput = out; p.standardError = out
        try p.run()
        stdin.fileHandleForWriting.write(Data((answer + "\n").utf8))
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? stdin.fileHandleForWriting.close()
        return Harness.Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: "")
    }

    /// The files of `dir` (recursively) whose bytes hold any of `needles`.
    static func filesHolding(_ needles: [String], in dir: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        var found: [String] = []
        for case let relative as String in walker {
            let path = dir + "/" + relative
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            if needles.contains(where: { data.range(of: Data($0.utf8)) != nil }) { found.append(relative) }
        }
        return found
    }

    static func list(_ h: Harness) throws -> [[String: Any]] {
        try #require(try h.ok("list", "--json", "--all").json as? [[String: Any]])
    }

    /// A home with the medicine of ``name`` (a note, stock, two doses taken) and Aspirin.
    /// The clock only moves forward (a clock set back finds summaries kept from a later "today").
    static func home(_ h: Harness) throws {
        try h.ok("add", name, "--at", "08:00,20:00", "--stock", "30", "--note", note, "--from", "2026-11-01", now: "2026-11-17T09:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01", now: "2026-11-17T09:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "08:05", now: "2026-11-17T09:00:00+09:00")
        try h.ok("take", name, "--at", "08:10", now: "2026-11-18T09:00:00+09:00")
        try h.ok("take", name, "--at", "20:05", now: "2026-11-18T21:00:00+09:00")
        try h.ok("take", "Aspirin", "--at", "08:05", now: "2026-11-18T09:00:00+09:00")
    }

    @Test("remove names resume; resume brings it back from today with its history and stock, the removed days without doses")
    func removeThenResume() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.home(h)
        let removed = try h.ok("remove", Self.name, now: "2026-11-19T09:00:00+09:00")
        #expect(removed.out.contains("Bring it back with: dosebar resume \(Self.name)"), "\(removed.out)")
        let ko = try h.run(["remove", "Aspirin", "--lang", "ko"], now: "2026-11-19T09:00:00+09:00")
        #expect(ko.status == 0 && ko.out.contains("dosebar resume Aspirin") && ko.out.contains("되돌리기"), "\(ko.out) \(ko.err)")
        try h.ok("resume", "Aspirin", now: "2026-11-19T09:00:00+09:00")
        #expect(try !h.statuses(at: "2026-11-21T09:00:00+09:00").contains { $0.hasPrefix(Self.name) })

        let now = "2026-11-22T09:00:00+09:00"
        let resumed = try h.ok("resume", String(Self.name.prefix(5)).lowercased(), now: now)
        #expect(resumed.out.contains("Resumed \(Self.name)"), "\(resumed.out)")
        let m = try #require(try Self.list(h).first { $0["name"] as? String == Self.name })
        #expect(m["archived"] as? Bool == false && m["stock"] as? Int == 28, "active, stock kept: \(m)")
        #expect(try h.statuses(at: now).filter { $0.hasPrefix(Self.name) } == ["\(Self.name):due", "\(Self.name):upcoming"])
        // History: the doses before the removal stay; the days it was removed count nothing for it.
        let history = try #require(try h.run(["history", Self.name, "--json", "--from", "2026-11-18", "--to", "2026-11-21"], now: now).json
            as? [[String: Any]])
        #expect(history.map { $0["taken"] as? Int } == [2, 0, 0, 0], "\(history)")
        #expect(history.dropFirst(2).map { $0["total"] as? Int } == [0, 0], "the removed days have no doses: \(history)")
        // It is taken as any active medicine.
        try h.ok("take", Self.name, now: now)
        #expect(try Self.list(h).first { $0["name"] as? String == Self.name }?["stock"] as? Int == 27)
    }

    @Test("resume refuses an active medicine, an unknown name and a name an active medicine took meanwhile; nothing changes")
    func resumeRefusals() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.home(h)
        let active = try h.run("resume", "Aspirin")
        #expect(active.status == 65 && active.err.contains("Aspirin is not removed"), "\(active.err)")
        let unknown = try h.run("resume", "Nothing")
        #expect(unknown.status == 65 && unknown.err.contains("no medicine named 'Nothing'"), "\(unknown.err)")
        try h.ok("remove", Self.name)
        try h.ok("add", Self.name.uppercased(), "--at", "09:00")
        let before = h.dump()
        let conflict = try h.run("resume", Self.name)
        #expect(conflict.status == 65 && conflict.err.contains("active medicine \(Self.name.uppercased())")
                && conflict.err.split(separator: "\n").count == 1, "\(conflict.err)")
        #expect(h.dump() == before)
        // Removed twice under one name: the one removed last comes back.
        try h.ok("add", "Zinc", "--at", "12:00", "--stock", "5", now: "2026-11-20T09:00:00+09:00")
        try h.ok("remove", "Zinc", now: "2026-11-20T09:00:00+09:00")
        try h.ok("add", "Zinc", "--at", "12:00", "--stock", "9", now: "2026-11-21T09:00:00+09:00")
        try h.ok("remove", "Zinc", now: "2026-11-21T09:00:00+09:00")
        try h.ok("resume", "zinc", now: "2026-11-22T09:00:00+09:00")
        #expect(try Self.list(h).filter { $0["name"] as? String == "Zinc" }.map { $0["stock"] as? Int } == [5, 9]
                && Self.list(h).first { $0["name"] as? String == "Zinc" && $0["archived"] as? Bool == false }?["stock"] as? Int == 9)
        let ko = try h.run("resume", "Aspirin", "--lang", "ko")
        #expect(ko.status == 65 && ko.err.contains("제거된 약이 아닙니다"), "\(ko.err)")
    }

    @Test("purge without --yes off a terminal exits 64 and deletes nothing; on a terminal it asks for the name")
    func purgeAsks() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.home(h)
        let before = h.dump()
        let piped = try Self.run(h, ["purge", Self.name], input: Self.name + "\n")
        #expect(piped.status == 64, "\(piped.err)")
        #expect(piped.err == "dosebar: purge deletes \(Self.name) and its 2 doses for good; run again with --yes\n", "\(piped.err)")
        #expect(h.dump() == before)

        let declined = try Self.onTerminal(h, ["purge", Self.name], answer: "y")
        #expect(declined.status == 0 && declined.out.contains("Backups you made still hold it")
                && declined.out.contains("nothing deleted"), "\(declined.out)")
        #expect(h.dump() == before)
        let confirmed = try Self.onTerminal(h, ["purge", Self.name], answer: Self.name.lowercased())
        #expect(confirmed.status == 0 && confirmed.out.contains("Purged \(Self.name) and its 2 doses"), "\(confirmed.out)")
        #expect(try !Self.list(h).contains { $0["name"] as? String == Self.name })
    }

    @Test("after purge --yes no file of the database holds the name or the note, and history, stats, report show no trace",
          arguments: [false, true])
    func purgeLeavesNoBytes(readerOpen: Bool) throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.home(h)
        try h.ok("remove", Self.name, now: "2026-11-19T09:00:00+09:00")
        for day in 19...21 { try h.ok("take", "Aspirin", "--at", "08:05", now: "2026-11-\(day)T09:00:00+09:00") }
        // Kept summaries of every past day: the 17th with its missed 20:00 dose of it (its 08:00 dose,
        // before it was added at 09:00, is untracked: DESIGN §3), so the 17th is partial.
        try h.ok("export", now: "2026-11-22T09:00:00+09:00")
        let kept = try #require(try h.run(["history", "--json", "--from", "2026-11-17", "--to", "2026-11-21"], now: "2026-11-22T09:00:00+09:00").json
            as? [[String: Any]])
        #expect(kept.map { $0["state"] as? String } == ["partial", "done", "done", "done", "done"], "\(kept)")
        #expect(!Self.filesHolding([Self.name, Self.note], in: h.root + "/data").isEmpty, "the search finds them before")
        // Another process with the database open (idle), as the daemon between its reads.
        var reader: Process?, readerInput: Pipe?
        if readerOpen {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            p.arguments = [h.db]
            let input = Pipe()
            p.standardInput = input; p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
            try p.run()
            input.fileHandleForWriting.write(Data("SELECT count(*) FROM medication;\n".utf8))
            reader = p; readerInput = input
            Thread.sleep(forTimeInterval: 0.3)
        }
        // It ends at the end of its input (a signal may find it blocked, as the test runner's threads have it).
        defer { try? readerInput?.fileHandleForWriting.close(); reader?.waitUntilExit() }
        let purged = try Self.run(h, ["purge", Self.name, "--yes"], now: "2026-11-22T09:00:00+09:00")
        #expect(purged.status == 0 && purged.out.contains("Purged \(Self.name) and its 2 doses for good"), "\(purged.err)")
        #expect(purged.err.isEmpty, "\(purged.err)")
        if readerOpen { #expect(reader?.isRunning == true && FileManager.default.fileExists(atPath: h.db + "-wal")) }
        let holding = Self.filesHolding([Self.name, Self.note], in: h.root + "/data")
        #expect(holding.isEmpty, "still in \(holding)")
        #expect(Self.filesHolding([Self.name], in: h.dir).isEmpty)

        let now = "2026-11-22T09:00:00+09:00"
        for args in [["history", "--from", "2026-11-01", "--to", "2026-11-22"], ["history", "--json", "--from", "2026-11-17", "--to", "2026-11-19"],
                     ["stats", "--json"], ["report", "--from", "2026-11-01", "--to", "2026-11-22", "--format", "csv"],
                     ["report", "--from", "2026-11-01", "--to", "2026-11-22"], ["list", "--all"], ["today", "--json"]] {
            let r = try h.ok(args, now: now)
            #expect(!r.out.contains(Self.name) && !r.out.contains(Self.note), "\(args): \(r.out)")
        }
        // Only Aspirin's doses are left: every day from the 17th on is done, the streak counts them.
        let days = try #require(try h.run(["history", "--json", "--from", "2026-11-17", "--to", "2026-11-21"], now: now).json as? [[String: Any]])
        #expect(days.map { $0["state"] as? String } == Array(repeating: "done", count: 5), "\(days)")
        #expect(days.map { $0["total"] as? Int } == [1, 1, 1, 1, 1], "\(days)")
        let tooltip = try #require(try h.today(at: now)["tooltip"] as? String)
        #expect(tooltip.contains("Streak: 5"), "\(tooltip)")
        let again = try h.run(["purge", Self.name, "--yes"], now: now)
        #expect(again.status == 65 && again.err.contains("no medicine named"), "\(again.err)")
    }

    @Test("purge while the daemon runs: no file of the database holds the name, the -wal and -shm the daemon keeps open included")
    func purgeWhileTheDaemonRuns() throws {
        let h = try DaemonTest.harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", Self.name, "--as-needed", "--note", Self.note, "--stock", "20")
        try h.ok("take", Self.name)
        let daemon = try DaemonTest.startDaemon(h)
        #expect(FileManager.default.contents(atPath: h.dir + "/snapshot.json").map { $0.range(of: Data(Self.name.utf8)) != nil } == true)
        let purged = try Self.run(h, ["purge", Self.name, "--yes"])
        #expect(purged.status == 0 && purged.err.isEmpty, "\(purged.err)")
        // The daemon rewrites the bar without it (it reads the database again after the change).
        #expect(DaemonTest.waitUntil(10) {
            FileManager.default.contents(atPath: h.dir + "/snapshot.json").map { $0.range(of: Data(Self.name.utf8)) == nil } == true
        }, "the daemon's snapshot still names it")
        #expect(daemon.process.isRunning && FileManager.default.fileExists(atPath: h.db + "-wal"))
        let holding = Self.filesHolding([Self.name, Self.note], in: h.root + "/data")
        #expect(holding.isEmpty, "still in \(holding) while the daemon runs")
        daemon.signal(SIGTERM)
        #expect(daemon.waitExit(timeout: 10) != nil)
        #expect(Self.filesHolding([Self.name, Self.note], in: h.root + "/data").isEmpty)
        #expect(Self.filesHolding([Self.name], in: h.dir).isEmpty)
    }

    @Test("a purge on B reaches A's running daemon: A's bar, database files and own sync file lose it while the daemon runs")
    func purgeReachesARunningDaemon() throws {
        let a = try DaemonTest.harness(), b = Harness.realClock()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", Self.name, "--as-needed", "--note", Self.note, "--stock", "20")
        try a.ok("take", Self.name)
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        let daemon = try DaemonTest.startDaemon(a)
        let snapshot = a.dir + "/snapshot.json"
        #expect(FileManager.default.contents(atPath: snapshot).map { $0.range(of: Data(Self.name.utf8)) != nil } == true)
        try b.ok("purge", Self.name, "--yes")
        #expect(DaemonTest.waitUntil(10) {
            FileManager.default.contents(atPath: snapshot).map { $0.range(of: Data(Self.name.utf8)) == nil } == true
        }, "A's daemon did not apply the purge: \(daemon.stderr)")
        #expect(DaemonTest.waitUntil(5) { Self.filesHolding([Self.name, Self.note], in: a.root + "/data").isEmpty },
                "still in \(Self.filesHolding([Self.name, Self.note], in: a.root + "/data"))")
        #expect(daemon.process.isRunning)
        #expect(Self.filesHolding([Self.name, Self.note], in: shared).isEmpty, "A's own file rewritten too")
        daemon.signal(SIGTERM)
        _ = daemon.waitExit(timeout: 10)
    }

    func device(_ h: Harness) throws -> String { try h.syncDevice() }

    @Test("with sync, a purge on A reaches B; each rewrites its own file without it; a late take of it from B does not bring it back")
    func purgeSyncs() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try Self.home(a)
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        let now = "2026-11-22T09:00:00+09:00"
        #expect(try Self.list(b).contains { $0["name"] as? String == Self.name })
        let fileA = shared + "/dosebar/" + (try device(a)) + ".jsonl", fileB = shared + "/dosebar/" + (try device(b)) + ".jsonl"
        // B takes it and changes its dose before it learns of the purge: its file holds both (the
        // change with the name and the note).
        try b.ok("take", Self.name, now: now)
        try b.ok("edit", Self.name, "--dose", "5 mg", now: now)
        let gid = try #require(try String(contentsOfFile: fileA, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["kind"] as? String == "add" && $0["name"] as? String == Self.name }?["medicine"] as? String)
        #expect(try String(contentsOfFile: fileB, encoding: .utf8).contains(gid))

        try a.ok("purge", Self.name, "--yes", now: now)
        let ownA = try String(contentsOfFile: fileA, encoding: .utf8)
        #expect(!ownA.contains(Self.name) && !ownA.contains(Self.note), "A's file keeps no line of it")
        let aboutIt = ownA.split(separator: "\n").filter { $0.contains(gid) }
        #expect(aboutIt.count == 1 && aboutIt.first?.contains("\"kind\":\"purge\"") == true, "only the purge names it: \(aboutIt)")
        #expect(String(format: "%o", try FileManager.default.attributesOfItem(atPath: fileA)[.posixPermissions] as? Int ?? 0) == "600")

        // A reads B's take and change of it: dropped (not even kept waiting), nothing comes back.
        try a.ok("sync", "now", now: now)
        #expect(try !a.ok("sync", "status").out.contains("waiting"))
        #expect(try !Self.list(a).contains { $0["name"] as? String == Self.name })
        #expect(Self.filesHolding([Self.name, Self.note], in: a.root + "/data").isEmpty)
        #expect(try !a.ok("history", "--from", "2026-11-01", "--to", "2026-11-22", now: now).out.contains(Self.name))

        try b.ok("sync", "now", now: now)
        #expect(try !Self.list(b).contains { $0["name"] as? String == Self.name })
        let ownB = try String(contentsOfFile: fileB, encoding: .utf8)
        #expect(!ownB.contains(gid), "B's file loses its take of it")
        let holdingB = Self.filesHolding([Self.name, Self.note], in: b.root + "/data")
        #expect(holdingB.isEmpty, "\(holdingB)")
        try a.ok("sync", "now", now: now)
        #expect(SyncCommandTests.canonical(try a.run(["today", "--json"], now: now))
                == SyncCommandTests.canonical(try b.run(["today", "--json"], now: now)))
        #expect(SyncCommandTests.canonical(try a.run(["list", "--all", "--json"], now: now))
                == SyncCommandTests.canonical(try b.run(["list", "--all", "--json"], now: now)))
    }

    @Test("a medicine both devices added under one name is gone from both, though A purged it before it saw B's add")
    func purgeOfAMedicineAddedTwice() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let now = "2026-11-22T09:00:00+09:00"
        // Both added at 07:30, before the 08:00 slot B takes at 09:00 (a medicine is tracked from the
        // instant it is added, DESIGN §3).
        let added = "2026-11-22T07:30:00+09:00"
        try a.ok("add", Self.name, "--at", "08:00", "--from", "2026-11-01", now: added)
        try b.ok("add", Self.name.lowercased(), "--at", "08:00", "--note", Self.note, "--from", "2026-11-01", now: added)
        try b.ok("take", Self.name, now: now)
        try a.ok("sync", "init", shared, now: now)
        try b.ok("sync", "init", shared, now: now)   // B's medicine is A's too: B knows it by both global ids
        try a.ok("purge", Self.name, "--yes", now: now)
        // A reads B's add (another global id, not purged here): the medicine is back on A for now.
        try a.ok("sync", "now", now: now)
        #expect(try Self.list(a).contains { ($0["name"] as? String)?.lowercased() == Self.name.lowercased() })
        // B applies the purge, deletes it with both ids and says so for the id A did not know.
        try b.ok("sync", "now", now: now)
        try a.ok("sync", "now", now: now)
        for h in [a, b] {
            #expect(try !Self.list(h).contains { ($0["name"] as? String)?.lowercased() == Self.name.lowercased() })
            #expect(Self.filesHolding([Self.name, Self.name.lowercased(), Self.note], in: h.root + "/data").isEmpty)
        }
        #expect(Self.filesHolding([Self.name, Self.name.lowercased(), Self.note], in: shared).isEmpty)
    }

    @Test("with sync, resume is an archive without a day: the other device has it active again, with the same history")
    func resumeSyncs() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try Self.home(a)
        // Set up before the removal: a line stamped more than a day after the clock that reads it is held.
        try a.ok("sync", "init", shared, now: "2026-11-19T08:00:00+09:00")
        try b.ok("sync", "init", shared, now: "2026-11-19T08:00:00+09:00")
        try a.ok("remove", Self.name, now: "2026-11-19T09:00:00+09:00")
        try b.ok("sync", "now", now: "2026-11-19T09:00:00+09:00")
        #expect(try Self.list(b).first { $0["name"] as? String == Self.name }?["archived"] as? Bool == true)
        let now = "2026-11-22T09:00:00+09:00"
        try a.ok("resume", Self.name, now: now)
        try b.ok("sync", "now", now: now)
        #expect(try Self.list(b).first { $0["name"] as? String == Self.name }?["archived"] as? Bool == false)
        for args in [["list", "--all", "--json"], ["today", "--json"], ["history", "--json", "--from", "2026-11-17", "--to", "2026-11-22"]] {
            #expect(SyncCommandTests.canonical(try a.run(args, now: now)) == SyncCommandTests.canonical(try b.run(args, now: now)), "\(args)")
        }
    }

    @Test("a file its device rewrote (a purge) is read again from its start: a line moved before the last read position still applies")
    func rewrittenFileIsReadAgain() throws {
        let a = Harness(), b = Harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try Self.home(b)
        try b.ok("sync", "init", dirB)
        try a.ok("sync", "init", dirA)
        let name = try device(b) + ".jsonl"
        let source = dirB + "/dosebar/" + name, target = dirA + "/dosebar/" + name
        let old = try Data(contentsOf: URL(fileURLWithPath: source))
        try old.write(to: URL(fileURLWithPath: target))
        try a.ok("sync", "now")
        #expect(try Self.list(a).count == 2)

        let now = "2026-11-22T09:00:00+09:00"
        try b.ok("take", "Aspirin", now: now)
        try b.ok("purge", Self.name, "--yes", now: now)
        // B's file now: the lines it kept, its take of Aspirin, the purge. The take is padded (JSON
        // whitespace) so that it ends exactly where A's last read stopped: a line end there, as
        // after any whole line.
        let lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").map(String.init)
        let purge = try #require(lines.last), take = lines[lines.count - 2]
        #expect(purge.contains("\"kind\":\"purge\"") && take.contains("\"kind\":\"take\""))
        let kept = lines.dropLast(2).map { $0 + "\n" }.joined()
        let pad = old.count - kept.utf8.count - take.utf8.count - 1
        try #require(pad >= 0, "the dropped lines are longer than the take")
        let padded = "{" + String(repeating: " ", count: pad) + take.dropFirst()
        try SyncCommandTests.deliver(Data((kept + padded + "\n" + purge + "\n").utf8), as: name, to: dirA)
        try a.ok("sync", "now", now: now)
        #expect(try !Self.list(a).contains { $0["name"] as? String == Self.name })
        #expect(try a.statuses(at: now) == ["Aspirin:taken"], "B's take, moved before A's position, applied")
    }
}
