import DoseCore
import Foundation

/// Time-ordered UUIDs (version 7, RFC 9562) in lowercase for operation ids, in the order of their
/// stamps: the first 48 bits are the stamp's milliseconds, the next 17 (after the version) its
/// counter (RFC 9562 §6.2, method 1: a counter of fixed length), the other 57 random.
///
/// A device's ids thus grow as its stamps do, and another device applies its lines in that order:
/// each new id goes to the end of the `event_op` index, where random (version 4) ids landed on a
/// random page each, and a first sync of 20 years rewrote most of the index at every commit
/// (Benchmarks/README.md, "A new device's first sync"). A device never stamps twice alike, and
/// two devices that do are told apart by the 57 random bits.
/// Any UUID is a valid id (``SyncOperation/isUUID(_:)``): lines of earlier builds stay valid.
/// Random bytes are read 4 KB at a time (Foundation's `UUID()` opens `/dev/urandom` for each one).
struct OperationIDs {
    private var pool: [UInt8] = []
    private var used = 0

    /// The id of the operation stamped `stamp` (the device's clock after its tick).
    mutating func next(_ stamp: SyncClock) -> String {
        let millis = UInt64(clamping: stamp.millis) & 0xFFFF_FFFF_FFFF
        let counter = UInt64(clamping: stamp.counter) & 0x1_FFFF // 17 bits: the stamp's 99,999 fit
        let random = take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ((1 << 57) - 1)
        let first = millis << 16 | 0x7000 | counter >> 5                  // unix_ts_ms, version 7, rand_a
        let second = 0x8000_0000_0000_0000 | (counter & 0x1F) << 57 | random // RFC 9562 variant, rand_b
        var text = [UInt8](repeating: 0x2D, count: 36)
        var at = 0
        for word in [first, second] {
            for i in stride(from: 15, through: 0, by: -1) {
                if at == 8 || at == 13 || at == 18 || at == 23 { at += 1 }
                text[at] = Self.hex[Int(word >> UInt64(i * 4) & 0xF)]
                at += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func take(_ n: Int) -> ArraySlice<UInt8> {
        if used + n > pool.count { refill() }
        defer { used += n }
        return pool[used..<used + n]
    }

    /// 4 KB from the kernel's generator (`/dev/urandom`), or else from the standard library's.
    private mutating func refill() {
        var bytes = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom")).read(upToCount: 4096)).map(Array.init) ?? []
        if bytes.count < 4096 {
            var rng = SystemRandomNumberGenerator()
            bytes = (0..<4096).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        }
        pool = bytes
        used = 0
    }
}
