import Foundation

/// Time-ordered UUIDs (version 7, RFC 9562) in lowercase for operation ids: the first 48 bits are
/// the stamp's milliseconds, the other 74 random, and each id after the first of a millisecond is
/// the one before plus 1 (RFC 9562 §6.2, method 2), so one device's ids grow in the order it
/// writes them.
///
/// Another device applies them in that order: each new id goes to the end of the `event_op`
/// index, where random (version 4) ids landed on a random page each, and a first sync of 20 years
/// rewrote most of the index at every commit (Benchmarks/README.md, "A new device's first sync").
/// Any UUID is a valid id (``SyncOperation/isUUID(_:)``): lines of earlier builds stay valid.
/// Random bytes are read 4 KB at a time (Foundation's `UUID()` opens `/dev/urandom` for each one).
struct OperationIDs {
    private var pool: [UInt8] = []
    private var used = 0
    /// The last id's milliseconds and its 74 bits after them (`rand_a`, then `rand_b`).
    var last: (millis: UInt64, high: UInt64, low: UInt64)?

    /// The id of an operation stamped at `millis` (milliseconds since 1970, from the stamp).
    mutating func next(millis: Int64) -> String {
        let millis = UInt64(clamping: millis) & 0xFFFF_FFFF_FFFF
        var high: UInt64, low: UInt64 // 12 bits of rand_a, 62 bits of rand_b
        if let last, millis <= last.millis {
            // Not later than the last one (the same millisecond, a clock set back): one more.
            (high, low) = last.low == (1 << 62) - 1 ? (last.high + 1, 0) : (last.high, last.low + 1)
            if high >> 12 == 0 { return keep(last.millis, high, low) }
            return keep(last.millis + 1, 0, 0)
        }
        let random = Array(take(10))
        // The top bit of rand_a stays 0: 2^73 ids of one millisecond before it overflows.
        high = (UInt64(random[0]) << 8 | UInt64(random[1])) & 0x7FF
        low = random[2...].reduce(0) { $0 << 8 | UInt64($1) } & ((1 << 62) - 1)
        return keep(millis, high, low)
    }

    private mutating func keep(_ millis: UInt64, _ high: UInt64, _ low: UInt64) -> String {
        last = (millis, high, low)
        let first = millis << 16 | 0x7000 | high  // unix_ts_ms, version 7, rand_a
        let second = 0x8000_0000_0000_0000 | low   // RFC 9562 variant, rand_b
        var text = [UInt8](repeating: 0x2D, count: 36)
        var at = 0
        for (word, digits) in [(first, 16), (second, 16)] {
            for i in stride(from: digits - 1, through: 0, by: -1) {
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
