@testable import DoseApp
import DoseCore
import Foundation
import Testing

/// Operation ids are version 7 UUIDs in the order of their stamps (RFC 9562): another device's
/// index of them then grows at its end (Benchmarks/README.md).
@Suite struct OperationIDsTests {
    /// The id's 128 bits, read back from its text by Foundation.
    static func bits(_ id: String) throws -> [UInt8] {
        let uuid = try #require(UUID(uuidString: id))
        return withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    @Test("each id is a lowercase version 7 UUID holding its stamp's milliseconds and counter, and a well-formed id for the gate")
    func form() throws {
        var ids = OperationIDs()
        for (millis, counter): (Int64, Int) in [(0, 0), (1, 1), (1_795_144_200_000, 0), (1_795_144_200_000, 99_999),
                                                (SyncClock.maxMillis, SyncClock.maxCounter)] {
            let id = ids.next(SyncClock(millis: millis, counter: counter))
            #expect(SyncOperation.isUUID(id), "\(id)")
            #expect(id == id.lowercased())
            let b = try Self.bits(id)
            #expect(b[6] >> 4 == 7, "version of \(id)")
            #expect(b[8] >> 6 == 0b10, "variant of \(id)")
            #expect(b[0..<6].reduce(0) { $0 << 8 | Int64($1) } == millis, "\(id)")
            let c = Int(b[6] & 0x0F) << 13 | Int(b[7]) << 5 | Int(b[8] & 0x3F) >> 1
            #expect(c == counter, "counter of \(id)")
        }
        #expect(ids.next(SyncClock(millis: 1_000, counter: 5)).hasPrefix("00000000-03e8-7000-8"))
    }

    @Test("ids sort as their stamps do, whichever run made them; one stamp on two devices gives two ids")
    func order() throws {
        var clock = SyncClock(millis: 1_795_144_200_000, counter: 0)
        var made: [String] = []
        var ids = OperationIDs()
        for i in 0..<20_000 {
            // A new command (a new generator) now and then; the wall clock set back sometimes.
            if i % 101 == 0 { ids = OperationIDs() }
            clock.tick(now: Date(timeIntervalSince1970: i % 997 == 0 ? 1_795_144_200.5 + Double(i) / 1_000 : 0))
            made.append(ids.next(clock))
        }
        #expect(Set(made).count == made.count)
        for (a, b) in zip(made, made.dropFirst()) where !(a < b) {
            Issue.record("\(b) does not follow \(a)")
            break
        }
        var one = OperationIDs(), two = OperationIDs()
        let stamp = SyncClock(millis: 1_795_144_200_000, counter: 7)
        let a = (0..<1_000).map { _ in one.next(stamp) }, b = (0..<1_000).map { _ in two.next(stamp) }
        #expect(Set(a + b).count == 2_000)
    }
}
