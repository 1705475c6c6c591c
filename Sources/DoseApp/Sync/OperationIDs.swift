import Foundation

/// Random (version 4) UUIDs in lowercase for operation ids, from random bytes read 4 KB at a time
/// (Foundation's `UUID()` opens `/dev/urandom` for each one: Benchmarks/README.md, "Measured reasons
/// in the code").
struct OperationIDs {
    private var pool: [UInt8] = []
    private var used = 0

    mutating func next() -> String {
        if used + 16 > pool.count { refill() }
        var b = Array(pool[used..<used + 16])
        used += 16
        b[6] = b[6] & 0x0F | 0x40 // version 4
        b[8] = b[8] & 0x3F | 0x80 // RFC 4122 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            .uuidString.lowercased()
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
