import Foundation
import Testing

/// DESIGN §9: concurrent writers never lose an event.
@Suite struct ConcurrencyTests {
    @Test func twentyParallelTakesRecordTwentyEvents() throws {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        for i in 1...20 { try h.ok("add", "Med\(i)", "--at", "08:00", "--stock", "100") }
        var processes: [Process] = []
        for i in 1...20 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Harness.binary)
            p.arguments = ["take", "Med\(i)"]
            p.environment = h.env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
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
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "10")
        var processes: [Process] = []
        for _ in 1...10 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Harness.binary)
            p.arguments = ["take", "Aspirin"]
            p.environment = h.env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.filter { $0.terminationStatus == 0 }.count == 1)
        #expect(processes.filter { $0.terminationStatus == 65 }.count == 9)
        let s = try h.today()
        #expect((s["stock"] as! [[String: Any]])[0]["remaining"] as? Int == 9)
    }
}
