import Foundation

/// A hybrid logical clock: stamps that follow the wall clock but never go backwards and always
/// come after every stamp this device has seen, so "later" means the same on every device.
///
/// A stamp is `MMMMMMMMMMMMM-CCCCC-DEVICE`: milliseconds since 1970 (13 digits), a counter
/// (5 digits) for stamps within one millisecond, and the device id that breaks the last tie.
/// Fixed widths make the text order the stamp order.
public struct SyncClock: Sendable, Equatable {
    public var millis: Int64
    public var counter: Int

    public init(millis: Int64, counter: Int) { self.millis = millis; self.counter = counter }

    /// The state kept in `meta` (`MMM…-CCCCC`), or a stamp; nil when it does not parse or lies
    /// outside what the fixed widths can hold (milliseconds 0…``maxMillis``, counter 0…``maxCounter``).
    public init?(_ text: String) {
        // A stamp as written (13 digits, '-', 5 digits, '-' …) straight from its bytes: there is one
        // per line of another device's history, and the general split below is slow for that.
        var fast: (Int64, Int)?
        var copy = text
        copy.withUTF8 { b in
            guard b.count >= 19, b[13] == 0x2D, b.count == 19 || b[19] == 0x2D else { return }
            var m: Int64 = 0, c = 0
            for i in 0..<19 where i != 13 {
                let d = b[i]
                guard d >= 0x30 && d <= 0x39 else { return }
                if i < 13 { m = m * 10 + Int64(d &- 0x30) } else { c = c * 10 + Int(d &- 0x30) }
            }
            fast = (m, c)
        }
        if let (m, c) = fast {
            millis = m; counter = c
            return
        }
        let parts = text.split(separator: "-", maxSplits: 2)
        guard parts.count >= 2, let m = Int64(parts[0]), let c = Int(parts[1]),
              (0...Self.maxMillis).contains(m), (0...Self.maxCounter).contains(c) else { return nil }
        millis = m; counter = c
    }

    /// The largest millisecond count that fits the stamp's 13 digits (the year 2286): the clock never
    /// goes beyond it, so it cannot overflow whatever stamp it saw.
    public static let maxMillis: Int64 = 9_999_999_999_999

    /// The next local stamp at wall-clock `now`.
    /// Past 99,999 stamps in one millisecond (`sync init` stamps a whole history at one `now`) the
    /// clock runs a millisecond ahead instead: a sixth counter digit would sort before the fifth.
    /// At ``maxMillis`` with the counter full the stamp stays where it is (it cannot overflow).
    public mutating func tick(now: Date) {
        let ms = (now.timeIntervalSince1970 * 1000).rounded(.down)
        let wall = ms.isNaN ? 0 : Int64(min(max(ms, 0), Double(Self.maxMillis)))
        if wall > millis {
            millis = wall; counter = 0
        } else if counter < Self.maxCounter {
            counter += 1
        } else if millis < Self.maxMillis {
            millis += 1; counter = 0
        }
    }

    /// The largest counter that fits the stamp's five digits.
    public static let maxCounter = 99_999

    /// Seen a stamp from another device: later local stamps come after it.
    /// A stamp outside the fixed widths (negative, beyond ``maxMillis``, a counter past ``maxCounter``)
    /// is not adopted.
    public mutating func receive(_ other: SyncClock) {
        guard (0...Self.maxMillis).contains(other.millis), (0...Self.maxCounter).contains(other.counter) else { return }
        if (other.millis, other.counter) > (millis, counter) { self = other }
    }

    public var state: String { Self.padded(millis, 13) + "-" + Self.padded(Int64(counter), 5) }

    private static func padded(_ n: Int64, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    public func stamp(device: String) -> String { state + "-" + device }
}
