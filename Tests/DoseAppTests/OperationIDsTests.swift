@testable import DoseApp
import Foundation
import Testing

/// Operation ids are version 7 UUIDs that grow in the order one device writes them (RFC 9562):
/// another device's index of them then grows at its end (Benchmarks/README.md).
@Suite struct OperationIDsTests {
    /// The id's 128 bits, read back from its text by Foundation.
    static func bits(_ id: String) throws -> [UInt8] {
        let uuid = try #require(UUID(uuidString: id))
        return withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    static func millis(_ bits: [UInt8]) -> Int64 { bits[0..<6].reduce(0) { $0 << 8 | Int64($1) } }

    @Test("each id is a lowercase version 7 UUID with the stamp's milliseconds, and a well-formed id for the gate")
    func form() throws {
        var ids = OperationIDs()
        for millis: Int64 in [0, 1, 1_795_144_200_000, 1_795_144_200_000, 1_795_144_200_001, 0xFFFF_FFFF_FFFF] {
            let id = ids.next(millis: millis)
            #expect(SyncOperation.isUUID(id), "\(id)")
            #expect(id == id.lowercased())
            let b = try Self.bits(id)
            #expect(b[6] >> 4 == 7, "version of \(id)")
            #expect(b[8] >> 6 == 0b10, "variant of \(id)")
            #expect(Self.millis(b) == millis, "\(id)")
        }
    }

    @Test("ids grow in the order they are made: within a millisecond, across them, and with the clock set back")
    func order() throws {
        var ids = OperationIDs()
        var made: [String] = []
        var millis: Int64 = 1_795_144_200_000
        for i in 0..<20_000 {
            if i % 997 == 0 { millis += 1 }
            if i % 4_001 == 0 { millis -= 5 } // set back: still after the last id
            made.append(ids.next(millis: millis))
        }
        #expect(Set(made).count == made.count)
        for (a, b) in zip(made, made.dropFirst()) where !(a < b) {
            Issue.record("\(b) does not follow \(a)")
            break
        }
        // Within one millisecond, each is the one before plus 1.
        let a = try Self.bits(made[1]), b = try Self.bits(made[2])
        #expect(a[0..<15] == b[0..<15] && b[15] == a[15] &+ 1 || a[15] == 0xFF)
    }

    @Test("the 74 bits after the milliseconds carry: into rand_a, then into the next millisecond")
    func carry() throws {
        var ids = OperationIDs()
        ids.last = (1_000, 5, (1 << 62) - 1)
        #expect(ids.next(millis: 1_000) == "00000000-03e8-7006-8000-000000000000")
        ids.last = (1_000, 0xFFF, (1 << 62) - 1)
        #expect(ids.next(millis: 999) == "00000000-03e9-7000-8000-000000000000")
        #expect(ids.next(millis: 1_001) == "00000000-03e9-7000-8000-000000000001")
    }

    @Test("two devices that write in the same millisecond make other ids")
    func devices() {
        var one = OperationIDs(), two = OperationIDs()
        let a = (0..<1_000).map { _ in one.next(millis: 1_795_144_200_000) }
        let b = (0..<1_000).map { _ in two.next(millis: 1_795_144_200_000) }
        #expect(Set(a).isDisjoint(with: b))
    }
}
