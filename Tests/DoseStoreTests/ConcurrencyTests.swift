import DoseCore
import DoseTestSupport
import Foundation
import Testing
@testable import DoseStore

/// Collects errors from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
    var all: [String] { lock.withLock { errors } }
}

/// Runs `body(i)` for i in 0..<count on `count` threads started together, and waits for all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
    let failures = Failures()
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            do { try body(i) } catch { failures.add(error) }
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
    return failures.all
}

@Suite("Concurrent writers")
struct ConcurrencyTests {
    @Test func twentyWritersEachWithTheirOwnConnection() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(asNeeded("Ibuprofen")) }
        let path = f.path
        let failures = onThreads(20) { i in
            let store = try DoseStore(path: path)
            try store.write { w in
                // Read-decide-write: only atomic if the transaction is IMMEDIATE.
                let count = Int(try w.reader.meta("count") ?? "0") ?? 0
                _ = try w.insertEvent(taken(id, "2026-03-10", nil, at: instant(Double(i))), day: day("2026-03-10"))
                try w.setMeta("count", String(count + 1))
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        let events = try f.store.read { try $0.events(days: day("2026-03-10")...day("2026-03-10")) }
        #expect(events.count == 20)
        #expect(Set(events.map(\.at)).count == 20)
        #expect(try f.store.read { try $0.meta("count") } == "20")
    }

    @Test func twentyProcessesCreatingTheSameNewDatabase() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let path = dir.file("new/dosebar.sqlite")
        let failures = onThreads(20) { i in
            let store = try DoseStore(path: path)
            try store.write { w in
                let id = try w.reader.medications(includeArchived: false).first?.id ?? w.insertMedication(asNeeded("Ibuprofen"))
                _ = try w.insertEvent(taken(id, "2026-03-10", nil, at: instant(Double(i))), day: day("2026-03-10"))
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        let store = try DoseStore(path: path)
        #expect(try store.read { try $0.medications(includeArchived: true) }.count == 1)
        #expect(try store.read { try $0.events(days: day("2026-03-10")...day("2026-03-10")) }.count == 20)
        #expect(mode(path) == 0o600)
    }
}
