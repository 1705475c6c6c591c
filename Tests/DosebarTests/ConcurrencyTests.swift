import Foundation
import Testing

/// DESIGN §9: concurrent writers never lose an event.
@Suite struct ConcurrencyTests {
    @Test func twentyParallelTakesRecordTwentyEvents() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        // Added before their 08:00 slot (a medicine is tracked from the instant it is added, DESIGN §3).
        for i in 1...20 { try h.ok("add", "Med\(i)", "--at", "08:00", "--stock", "100", now: "2026-11-22T07:00:00+09:00") }
        let processes = try ConcurrencyTests.runAtOnce(h, (1...20).map { ["take", "Med\($0)"] })
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "\(processes.map(\.terminationStatus))")
        let s = try h.today()
        #expect((s["counts"] as! [String: Int])["taken"] == 20)
        #expect((s["stock"] as! [[String: Any]]).allSatisfy { $0["remaining"] as? Int == 99 })
        // The shared directory ends whole and agrees with the database.
        let snap = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/snapshot.json"))) as! [String: Any]
        #expect((snap["counts"] as! [String: Int])["taken"] == 20)
    }

    @Test func parallelTakesOfOneDoseTakeItOnce() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "10", now: "2026-11-22T07:00:00+09:00")
        let processes = try ConcurrencyTests.runAtOnce(h, Array(repeating: ["take", "Aspirin"], count: 10))
        #expect(processes.filter { $0.terminationStatus == 0 }.count == 1)
        #expect(processes.filter { $0.terminationStatus == 65 }.count == 9)
        let s = try h.today()
        #expect((s["stock"] as! [[String: Any]])[0]["remaining"] as? Int == 9)
    }

    /// Starts one `dosebar` process per argument list, all before any is waited for; returns them finished.
    static func runAtOnce(_ h: Harness, _ commands: [[String]]) throws -> [Process] {
        let processes = commands.map { args -> Process in
            let p = Harness.process(args, env: h.env)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            return p
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        return processes
    }
}
