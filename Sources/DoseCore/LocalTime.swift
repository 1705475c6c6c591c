/// A wall-clock time of day (hour and minute), as written on a schedule.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes after midnight, 0 ..< 1440.
    public let minuteOfDay: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// A minute outside 0 ..< 1440 (a row from a broken file) is clamped into the day.
    public init(minuteOfDay: Int) { self.minuteOfDay = Swift.min(Swift.max(minuteOfDay, 0), 1439) }

    /// Parses `HH:MM` or `H:MM` (24-hour).
    public init?(_ text: String) {
        // Digits only (every stored time, most typed ones): read from the bytes, without splitting
        // into characters; anything else (a sign, a stray character) goes the general way below.
        let u = Array(text.utf8)
        func digit(_ i: Int) -> Int? { u[i] >= 0x30 && u[i] <= 0x39 ? Int(u[i] - 0x30) : nil }
        if (u.count == 4 || u.count == 5), u[u.count - 3] == UInt8(ascii: ":"),
           let m1 = digit(u.count - 2), let m2 = digit(u.count - 1), let h2 = digit(u.count - 4) {
            let h1 = u.count == 5 ? digit(0) : 0
            if let h1 {
                self.init(hour: h1 * 10 + h2, minute: m1 * 10 + m2)
                return
            }
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minuteOfDay < b.minuteOfDay }

    /// `HH:MM`.
    public var description: String {
        let h = hour, m = minute
        let bytes: [UInt8] = [48 + UInt8(h / 10), 48 + UInt8(h % 10), 58, 48 + UInt8(m / 10), 48 + UInt8(m % 10)]
        return String(decoding: bytes, as: UTF8.self)
    }
}
