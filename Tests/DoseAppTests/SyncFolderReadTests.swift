import DoseApp
import Foundation
import Testing

/// `SyncFolder.read` of a file long enough to be parsed in shares, one per core: the lines come
/// back in file order, and each line that is not one of the device's operations is named by its
/// number, as a short file's are.
@Suite struct SyncFolderReadTests {
    static func operationLine(_ n: Int, device: String) throws -> String {
        var op = SyncOperation(kind: .take, medicine: "m")
        op.id = "op-\(n)"; op.device = device; op.stamp = String(format: "1790000000000-%05d-%@", n % 100_000, device)
        op.day = "2026-03-01"; op.slot = "08:00"; op.at = 1_790_000_000
        return try op.line()
    }

    @Test("30,000 lines: order, the damaged and the foreign line named, the read going on past the damaged one")
    func longFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-read-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/d1.jsonl"
        var text = "", damagedOffset = 0
        for number in 1...30_000 {
            if number == 25_001 { damagedOffset = text.utf8.count }
            switch number {
            case 12: text += "\n"
            case 25_001: text += "{\"id\":\"cut\n"
            case 27_000: text += try Self.operationLine(number, device: "d2") + "\n"
            default: text += try Self.operationLine(number, device: "d1") + "\n"
            }
        }
        text += "{\"id\":\"torn"
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        var warnings: [String] = []
        let (lines, next) = try SyncFolder.read(file, device: "d1", warn: { warnings.append($0) })
        let expected = (1...30_000).filter { ![12, 25_001, 27_000].contains($0) }.map { "op-\($0)" }
        #expect(lines.map(\.op.id) == expected)
        #expect(lines.allSatisfy { $0.text == (try? Self.operationLine(Int($0.op.id.dropFirst(3))!, device: "d1")) })
        #expect(warnings == ["\(file):25001: not a dosebar operation (damaged or cut off); skipped",
                             "\(file):27000: an operation of device d2 in the file of device d1; refused"])
        // The read goes on past the damaged line (it stays damaged: the writer ends a torn line
        // before it appends again), to the end of the last whole line, before the torn one.
        let tornOffset = text.utf8.count - "{\"id\":\"torn".utf8.count
        #expect(next == SyncFolder.Position(offset: UInt64(tornOffset), line: 30_000))
        #expect(damagedOffset > 0)

        // Read on from there: nothing new, nothing warned again; the torn line waits for its end.
        warnings = []
        let (rest, end) = try SyncFolder.read(file, device: "d1", from: next, warn: { warnings.append($0) })
        #expect(rest.isEmpty && warnings.isEmpty)
        #expect(end == next)
        // Each line knows its number and where a read after it starts.
        let read = try SyncFolder.read(file, device: "d1", from: SyncFolder.Position())
        #expect(read.lines.first?.number == 1 && read.lines.last?.number == 30_000 && read.lines.last?.next == next)
        #expect(read.problems.map(\.number) == [25_001, 27_000])
    }

    @Test("read a batch at a time, each batch parsed on a thread while the one before is applied (the first ones smaller): what one whole read gives, in order, positions included; a throwing body stops the read")
    func batches() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-batches-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/d1.jsonl"
        var text = ""
        for number in 1...23_456 {
            switch number {
            case 5, 9_999: text += "{\"id\":\"cut\n"
            case 17_000: text += try Self.operationLine(number, device: "d2") + "\n"
            default: text += try Self.operationLine(number, device: "d1") + "\n"
            }
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let whole = try SyncFolder.read(file, device: "d1", from: SyncFolder.Position())
        // Concurrent (parsed a batch ahead on a thread) and not (the daemon: all on this thread).
        for (batch, concurrent) in [(2_000, true), (2_345, true), (7_000, true), (23_456, true), (2_345, false), (7_000, false)] {
            var reads: [SyncFolder.Read] = []
            let end = try SyncFolder.read(file, device: "d1", from: SyncFolder.Position(), batch: batch, concurrent: concurrent) { read in
                // The applying side slower than the parsing one, as in a first sync.
                usleep(2_000)
                reads.append(read)
            }
            // Concurrent, the first batches are an eighth, a quarter, a half of `batch`: applying starts sooner.
            var sizes: [Int] = [], left = 23_456, size = concurrent ? batch / 8 : batch
            while left > 0 { sizes.append(min(size, left)); left -= sizes.last!; size = min(size * 2, batch) }
            #expect(reads.map { $0.lines.count + $0.problems.count } == sizes, "batch \(batch), concurrent \(concurrent)")
            #expect(reads.flatMap(\.lines).map(\.op) == whole.lines.map(\.op), "batch \(batch), concurrent \(concurrent)")
            #expect(reads.flatMap(\.lines).map(\.next) == whole.lines.map(\.next), "batch \(batch), concurrent \(concurrent)")
            #expect(reads.flatMap(\.problems) == whole.problems, "batch \(batch), concurrent \(concurrent)")
            #expect(reads.last?.next == whole.lines.last?.next && end == whole.lines.last?.next, "batch \(batch), concurrent \(concurrent)")
            // Each read ends where its last line (or problem) ends.
            for r in reads {
                let last = max(r.lines.last?.number ?? 0, r.problems.last?.number ?? 0)
                #expect(r.next.line == last, "batch \(batch), concurrent \(concurrent)")
            }
        }
        // A body that throws stops the read there: no later batch is handed over.
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try SyncFolder.read(file, device: "d1", from: SyncFolder.Position(), batch: 3_000) { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }
}
