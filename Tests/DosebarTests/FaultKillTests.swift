import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// DESIGN §9: `kill -9` at any moment leaves the database consistent and every shared file whole.
/// `take`, `undo`, `export` and the daemon are started and SIGKILLed after a random 0–30 ms, many
/// times; after each kill the shared directory is checked, at the end the database is audited:
/// `PRAGMA integrity_check`, no event lost or duplicated, stock = initial − Σ stock_delta.
@Suite(.serialized) struct FaultKillTests {
    /// The audit of a database after the storm.
    struct Audit {
        var integrity: String
        /// `at` (Unix seconds, rounded) of every taken event of medication 1 (undone or not).
        var takenAt: [Int]
        /// Stock of medication 1 and Σ stock_delta of its effective (not undone) taken events, in
        /// hundredths of a unit as stored.
        var stock: Int
        var used: Int
        var undoneTargetsUnique: Bool
        var danglingUndos: Int
    }

    static func audit(_ db: String) throws -> Audit {
        let integrity = try Fault.integrity(db)
        let at = try Fault.sql(db, "SELECT CAST(round(at) AS INTEGER) FROM event WHERE medication_id = 1 AND kind = 'taken' ORDER BY id;")
        let stock = Int(try Fault.sql(db, "SELECT stock FROM medication WHERE id = 1;")) ?? -1
        let used = Int(try Fault.sql(db, """
            SELECT coalesce(sum(stock_delta), 0) FROM event e WHERE medication_id = 1 AND kind = 'taken'
            AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id);
            """)) ?? -1
        let dupTargets = Int(try Fault.sql(db, "SELECT count(*) - count(DISTINCT target) FROM event WHERE target IS NOT NULL;")) ?? -1
        let dangling = Int(try Fault.sql(db, """
            SELECT count(*) FROM event u WHERE u.kind = 'undone'
            AND NOT EXISTS (SELECT 1 FROM event e WHERE e.id = u.target AND e.kind IN ('taken', 'skipped'));
            """)) ?? -1
        return Audit(integrity: integrity, takenAt: at.split(separator: "\n").compactMap { Int($0) }, stock: stock, used: used,
                     undoneTargetsUnique: dupTargets == 0, danglingUndos: dangling)
    }

    /// Stray files may only be temporary files of writers that were killed (`.dosebar-tmp.NAME.PID.HEX`).
    static func strayProblems(_ dir: String) -> (problems: [String], temps: Int) {
        var problems: [String] = []
        var temps = 0
        for name in Fault.strayFiles(dir) where name != "daemon.lock" && name != ".lock" {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            // "", "dosebar-tmp", base, ext, pid, hex
            if parts.count == 6, parts[0].isEmpty, parts[1] == "dosebar-tmp", let pid = Int32(parts[4]),
               UInt32(parts[5], radix: 16) != nil {
                temps += 1
                if Fault.alive(pid) { problems.append("\(name): its writer (pid \(pid)) is still alive") }
            } else {
                problems.append("unexpected file \(name)")
            }
        }
        return (problems, temps)
    }

    @Test func killNineDuringTakeUndoAndExport() throws {
        var g = FaultRandom(salt: 700)
        // 23:50 so every back-dated take (00:00 + i minutes) is in the past and on the same day.
        let day = "2026-11-22", now = "2026-11-22T23:50:00+09:00"
        let h = Harness(now: now)
        let initial = 100_000
        try h.ok("add", "Prn", "--as-needed", "--stock", String(initial))
        try h.ok("add", "Daily", "--at", "08:00,20:00", "--stock", "50")
        // Calibrate: kill anywhere from the start to a little after a normal run's end (the debug
        // binary is slower than the 30 ms a release take needs).
        func duration(_ args: [String], _ extra: [String: String] = [:]) throws -> Double {
            let t0 = DaemonTest.clock()
            let r = try Fault.dosebar(h, args, extra: extra)
            #expect(r.status == 0, "\(args): \(r.err)")
            return DaemonTest.clock() - t0
        }
        // Then follow the load: a moving average of the runs that finished.
        var takeTime = try [0, 1, 2].map { _ in try duration(["take", "Prn", "--at", "23:00"]) }.max()!
        var exportTime = try duration(["export"], ["DOSEBAR_NOW": "2026-11-22T09:30:00+09:00"])
        let iterations = 100
        var exited: [Int: Int32] = [:]   // iteration → exit status (not killed)
        var killed = Set<Int>()
        var kinds: [Int: String] = [:]
        var tempsSeen = 0
        for i in 0..<iterations {
            let minute = String(format: "%02d:%02d", i / 60, i % 60)
            let roll = g.int(0...9)
            let args: [String]
            let extra: [String: String]
            switch roll {
            case 0...5: // a back-dated extra dose, identified by its minute
                args = ["take", "Prn", "--at", minute]; extra = [:]; kinds[i] = "take"
            case 6: args = ["undo", "Prn"]; extra = [:]; kinds[i] = "undo"
            default: // export at alternating instants, so the files really change
                args = ["export"]; extra = ["DOSEBAR_NOW": g.chance(0.5) ? "2026-11-22T09:30:00+09:00" : now]; kinds[i] = "export"
            }
            let span = kinds[i] == "export" ? exportTime : takeTime
            let delay = Double(g.int(0...Int(span * 1500))) / 1000
            let (wasKilled, status, elapsed) = try Fault.killAfter(h, args, delay: delay, extra: extra)
            if wasKilled { killed.insert(i) } else { exited[i] = status }
            if !wasKilled && status == 0 {
                if kinds[i] == "export" { exportTime = 0.7 * exportTime + 0.3 * elapsed } else { takeTime = 0.7 * takeTime + 0.3 * elapsed }
            }
            let problems = Fault.sharedFileProblems(h.dir)
            #expect(problems.isEmpty, "after \(args) killed=\(wasKilled) at \(delay)s: \(problems); \(g.label)")
            if !wasKilled {
                #expect(status == 0 || (kinds[i] == "undo" && status == 65), "\(args) exited \(status); \(g.label)")
            }
        }
        let stray = FaultKillTests.strayProblems(h.dir)
        tempsSeen = stray.temps
        #expect(stray.problems.isEmpty, "\(stray.problems)")

        // The database: sound, nothing lost, nothing doubled, stock agrees with the events.
        let a = try FaultKillTests.audit(h.db)
        #expect(a.integrity == "ok")
        #expect(a.undoneTargetsUnique && a.danglingUndos == 0, "undo bookkeeping: \(a)")
        #expect(a.stock == initial * 100 - a.used, "stock \(a.stock) vs initial \(initial) − used \(a.used); \(g.label)")
        let base = Int(ISO8601DateFormatter().date(from: "\(day)T00:00:00+09:00")!.timeIntervalSince1970)
        var counts: [Int: Int] = [:]
        for at in a.takenAt { counts[(at - base) / 60, default: 0] += 1 }
        for (i, kind) in kinds where kind == "take" {
            let n = counts[i] ?? 0
            if exited[i] == 0 { #expect(n == 1, "take #\(i) exited 0 but is recorded \(n) times; \(g.label)") }
            else { #expect(n <= 1, "killed take #\(i) recorded \(n) times; \(g.label)") }
        }
        counts[23 * 60] = nil // the calibration takes
        #expect(counts.keys.allSatisfy { kinds[$0] == "take" }, "an event no take of ours made: \(counts)")
        // Killed at random, some runs must really have died mid-way, and some finished.
        #expect(killed.count >= 10 && exited.count >= 10, "killed \(killed.count), exited \(exited.count): the timing did not exercise both")
        // Afterwards everything still works and tidies up nothing it should not.
        let r = try Fault.dosebar(h, ["export"])
        #expect(r.status == 0, "\(r.err)")
        #expect(Fault.sharedFileProblems(h.dir).isEmpty)
        print("killNineDuringTakeUndoAndExport: take \(Int(takeTime * 1000)) ms, export \(Int(exportTime * 1000)) ms; \(killed.count) killed, \(exited.count) finished, \(a.takenAt.count) take events, \(tempsSeen) stale temp files; \(g.label)")
    }

    @Test func killNineOfTheDaemonWhileTakesArrive() throws {
        var g = FaultRandom(salt: 710)
        let h = try DaemonTest.harness()
        let initial = 1000
        try h.ok("refill", "Ibuprofen", "--set", String(initial))
        var okTakes = 0
        for round in 0..<15 {
            let d = try LiveProcess(["daemon"], env: h.env, root: h.root)
            // A take lands while the daemon starts or runs; the daemon dies at a random moment.
            let take = Harness.process(["take", "Ibuprofen"], env: h.env)
            take.standardOutput = FileHandle.nullDevice
            take.standardError = FileHandle.nullDevice
            usleep(useconds_t(g.int(0...40) * 1000))
            try take.run()
            usleep(useconds_t(g.int(0...40) * 1000))
            d.signal(SIGKILL)
            #expect(d.waitExit(timeout: 5) != nil, "round \(round): the daemon survived SIGKILL")
            take.waitUntilExit()
            #expect(take.terminationStatus == 0, "round \(round): a take beside a dying daemon exited \(take.terminationStatus)")
            if take.terminationStatus == 0 { okTakes += 1 }
            let problems = Fault.sharedFileProblems(h.dir)
            #expect(problems.isEmpty, "round \(round): \(problems); \(g.label)")
        }
        // A new daemon starts at once after a kill -9 (the lock died with its holder) and keeps files whole.
        let d = try DaemonTest.startDaemon(h)
        let r = try Fault.dosebar(h, ["take", "Ibuprofen"])
        #expect(r.status == 0, "\(r.err)")
        if r.status == 0 { okTakes += 1 }
        d.signal(SIGTERM)
        #expect(d.waitExit(timeout: 5) == 0, "\(d.stderr)")
        #expect(Fault.sharedFileProblems(h.dir).isEmpty)
        let stray = FaultKillTests.strayProblems(h.dir)
        #expect(stray.problems.isEmpty, "\(stray.problems)")
        let a = try FaultKillTests.audit(h.db)
        #expect(a.integrity == "ok")
        #expect(a.takenAt.count == okTakes, "\(okTakes) takes exited 0, \(a.takenAt.count) recorded; \(g.label)")
        #expect(a.stock == initial * 100 - a.used && a.used == okTakes * 100, "stock \(a.stock), used \(a.used)")
    }

    /// The very first run creates the database (file, WAL, application id, migrations): killed at
    /// any point of that, the next run must still open it — never "not a dosebar database".
    @Test func killNineWhileTheDatabaseIsBeingCreated() throws {
        var g = FaultRandom(salt: 720)
        var killedCount = 0
        for round in 0..<30 {
            let h = Harness(now: "2026-11-22T08:30:00+09:00")
            let (killed, status, _) = try Fault.killAfter(h, ["add", "Aspirin", "--at", "08:00"], delay: Double(g.int(0...45)) / 1000)
            if killed { killedCount += 1 } else { #expect(status == 0) }
            let again = try Fault.dosebar(h, ["add", "Aspirin", "--at", "08:00"])
            #expect(again.status == 0 || (again.status == 65 && again.err.contains("already exists")),
                    "round \(round), first run killed=\(killed): \(again.status) \(again.err); \(g.label)")
            let list = try Fault.dosebar(h, ["list", "--json"])
            #expect(list.status == 0 && list.out.contains("Aspirin"), "round \(round): \(list.err)")
            #expect(try Fault.integrity(h.db) == "ok")
            try? FileManager.default.removeItem(atPath: h.root)
        }
        #expect(killedCount >= 5, "only \(killedCount) first runs were killed")
    }
}
