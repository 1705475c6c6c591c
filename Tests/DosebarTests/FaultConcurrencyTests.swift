import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// DESIGN §9: concurrent writers — the daemon, bar clicks, a terminal — never corrupt or lose an
/// event. 40 processes mixing takes, undos, edits and exports start at once beside a running
/// daemon; every one must succeed and every event must be accounted for.
@Suite struct FaultConcurrencyTests {
    @Test func fortyMixedWritersBesideTheDaemon() throws {
        var g = FaultRandom(salt: 800)
        let h = Harness(now: "2026-11-22T23:50:00+09:00")
        try h.ok("add", "Prn", "--as-needed", "--stock", "10000")
        let daily = (1...10).map { "Daily\($0)" }
        // Added in the morning, before their first slot (a medicine is tracked from the instant it is
        // added, DESIGN §3). At 23:50 the 08:00 and 12:00 doses have closed (cut-offs 10:00 and 18:00)
        // and the 20:00 one is late until 06:00 (C = max(22:00, min(08:00 − 2h, 20:00 + 24h))): the one
        // open slot that `take NAME` records.
        for name in daily { try h.ok("add", name, "--at", "08:00,12:00,20:00", "--stock", "100", now: "2026-11-22T07:00:00+09:00") }
        // Something for the undos to revert: Daily7…Daily10 took their 08:00 dose.
        for name in daily[6...] { try h.ok("take", name, "--at", "08:05") }
        let daemon = try LiveProcess(["daemon"], env: h.env, root: h.root)
        #expect(DaemonTest.waitUntil(10) { FileManager.default.fileExists(atPath: h.dir + "/daemon.lock")
            && FileManager.default.fileExists(atPath: h.dir + "/snapshot.json") }, "daemon did not start: \(daemon.stderr)")

        var jobs: [(args: [String], kind: String)] = []
        for i in 0..<20 { jobs.append((["take", "Prn", "--at", String(format: "00:%02d", i)], "prn")) }
        for name in daily[0..<6] { jobs.append((["take", name], "take")) }
        for name in daily[6...] { jobs.append((["undo", name], "undo")) }
        for name in daily[0..<4] { jobs.append((["edit", name, "--at", "09:00,21:00", "--effective", "2026-11-23"], "edit")) }
        for _ in 0..<6 { jobs.append((["export"], "export")) }
        // Start them all at once, in a random order.
        for i in stride(from: jobs.count - 1, to: 0, by: -1) { jobs.swapAt(i, g.int(0...i)) }
        let results = try FaultConcurrencyTests.runAtOnce(h, jobs.map(\.args))
        for (job, r) in zip(jobs, results) {
            #expect(r.status == 0, "\(job.args) exited \(r.status): \(r.err); \(g.label)")
            #expect(!r.err.contains("warning"), "\(job.args): \(r.err)")
        }

        // Every event accounted for.
        #expect(try Fault.integrity(h.db) == "ok")
        let prn = try Fault.sql(h.db, """
            SELECT CAST(round(at) AS INTEGER) FROM event WHERE medication_id = 1 AND kind = 'taken' ORDER BY at;
            """).split(separator: "\n")
        #expect(prn.count == 20 && Set(prn).count == 20, "Prn: \(prn.count) events, \(Set(prn).count) distinct; \(g.label)")
        for (index, name) in daily.enumerated() {
            let id = index + 2
            let effective = Int(try Fault.sql(h.db, """
                SELECT count(*) FROM event e WHERE medication_id = \(id) AND kind = 'taken'
                AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id);
                """)) ?? -1
            let stock = Int(try Fault.sql(h.db, "SELECT stock FROM medication WHERE id = \(id);")) ?? -1
            // Daily1–6 took one dose now; Daily7–10 took one earlier and undid it.
            let want = index < 6 ? 1 : 0
            // Stock is stored in hundredths of a unit.
            #expect(effective == want && stock == (100 - want) * 100, "\(name): \(effective) effective takes, stock \(stock); \(g.label)")
        }
        let edits = Int(try Fault.sql(h.db, "SELECT count(*) FROM schedule_version WHERE times = '09:00,21:00';")) ?? -1
        #expect(edits == 4, "edits recorded: \(edits)")
        #expect(Int(try Fault.sql(h.db, "SELECT stock FROM medication WHERE id = 1;")) == (10000 - 20) * 100)

        // The shared directory is whole and, once the daemon has caught up, says what the database says.
        #expect(Fault.sharedFileProblems(h.dir).isEmpty)
        let want = (try h.today()["counts"] as? [String: Int])?["taken"]
        #expect(want == 6, "taken today: \(want ?? -1)")
        let caughtUp = DaemonTest.waitUntil(5) {
            guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json"),
                  let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return (s["counts"] as? [String: Int])?["taken"] == want
        }
        #expect(caughtUp, "snapshot.json never showed \(want ?? -1) taken")
        daemon.signal(SIGTERM)
        #expect(daemon.waitExit(timeout: 5) == 0, "\(daemon.stderr)")
        #expect(FaultKillTests.strayProblems(h.dir).problems.isEmpty)
    }

    /// Starts every command, then waits for all; returns their exits in order.
    static func runAtOnce(_ h: Harness, _ commands: [[String]]) throws -> [Fault.Exit] {
        var running: [(Process, String, String)] = []
        for (i, args) in commands.enumerated() {
            let p = Harness.process(args, env: h.env)
            let out = h.root + "/job-\(i).out", err = h.root + "/job-\(i).err"
            FileManager.default.createFile(atPath: out, contents: nil)
            FileManager.default.createFile(atPath: err, contents: nil)
            p.standardOutput = FileHandle(forWritingAtPath: out)
            p.standardError = FileHandle(forWritingAtPath: err)
            p.standardInput = FileHandle.nullDevice
            running.append((p, out, err))
        }
        for (p, _, _) in running { try p.run() }
        return running.map { p, out, err in
            p.waitUntilExit()
            return Fault.Exit(status: p.terminationStatus, signal: p.terminationReason == .uncaughtSignal ? p.terminationStatus : 0,
                              out: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                              err: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        }
    }
}
