import Foundation

/// An amount of a medicine (stock, a dose, a refill): an exact decimal to hundredths, kept as an
/// integer of hundredths, never a float (DESIGN §3 Stock). `0.5` is half a tablet, `9.75` nine
/// and three quarters. An integer literal means whole units (`let a: Amount = 30` is 30 units).
///
/// Arithmetic saturates (an amount read from a row or another device's file may be anything),
/// and the text forms are the plain decimal without float noise: `9.5`, `0.25`, `30`.
public struct Amount: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible, Codable {
    /// The amount in hundredths of a unit.
    public var hundredths: Int

    public init(hundredths: Int) { self.hundredths = hundredths }

    /// `n` whole units.
    public init(units n: Int) { hundredths = n.saturatingMultiplied(by: 100) }

    public init(integerLiteral value: Int) { self.init(units: value) }

    public static let zero = Amount(hundredths: 0)

    /// Why a text is not an amount, in words for a usage error.
    public enum ParseError: Error, Equatable, Sendable {
        case notANumber, negative, tooManyDecimals, tooLarge
        public var reason: String {
            switch self {
            case .notANumber: "is not a number (give e.g. 30, 0.5 or 2.25)"
            case .negative: "must not be negative"
            case .tooManyDecimals: "takes at most two decimals (hundredths, e.g. 0.25)"
            case .tooLarge: "is too large"
            }
        }
    }

    /// Parses `30`, `0.5`, `9.75`, `.5`: digits with at most two decimals; no sign, no exponent.
    public static func parse(_ text: String) throws(ParseError) -> Amount {
        let s = text.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("-") {
            if (try? parse(String(s.dropFirst()))) != nil { throw .negative }
            throw .notANumber
        }
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              whole.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              fraction.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              parts.count == 1 || !fraction.isEmpty || !whole.isEmpty else { throw .notANumber }
        if parts.count > 1 && fraction.isEmpty { throw .notANumber }
        // Trailing zeros beyond the hundredths say nothing more ("0.500").
        var digits = Array(fraction.utf8)
        while digits.count > 2, digits.last == 0x30 { digits.removeLast() }
        guard digits.count <= 2 else { throw .tooManyDecimals }
        let wholeDigits = whole.drop { $0 == "0" }
        guard wholeDigits.count <= 15 else { throw .tooLarge }
        var h = (Int(wholeDigits) ?? 0) * 100
        if digits.count >= 1 { h += Int(digits[0] - 0x30) * 10 }
        if digits.count == 2 { h += Int(digits[1] - 0x30) }
        return Amount(hundredths: h)
    }

    /// The amount `d` stands for, when it is one to hundredths (a JSON number of another device's
    /// line, a Dosage file's value): nil for NaN, infinity or more decimals; clamped when huge.
    public init?(exactly d: Double) {
        guard d.isFinite else { return nil }
        if abs(d) >= 9e15 { self.init(hundredths: d < 0 ? .min : .max); return }
        let scaled = d * 100
        let rounded = scaled.rounded()
        // A decimal with two places is the nearest double to it; ×100 lands within a few ulps.
        guard abs(scaled - rounded) <= abs(scaled) * 1e-12 + 1e-9 else { return nil }
        self.init(hundredths: Int(rounded))
    }

    /// The plain decimal: `30`, `9.5`, `0.25`, `-1.5`.
    public var description: String {
        let negative = hundredths < 0
        let magnitude = hundredths.magnitude
        let whole = magnitude / 100
        let rest = Int(magnitude % 100)
        var text = (negative ? "-" : "") + String(whole)
        if rest != 0 {
            text += "." + (rest % 10 == 0 ? String(rest / 10) : (rest < 10 ? "0" : "") + String(rest))
        }
        return text
    }

    /// The amount as a double, for ratios (days left), never for storing.
    public var doubleValue: Double { Double(hundredths) / 100 }

    public var isWhole: Bool { hundredths % 100 == 0 }

    public static func < (a: Amount, b: Amount) -> Bool { a.hundredths < b.hundredths }
    public static func + (a: Amount, b: Amount) -> Amount { Amount(hundredths: a.hundredths.saturatingAdding(b.hundredths)) }
    public static func - (a: Amount, b: Amount) -> Amount { Amount(hundredths: a.hundredths.saturatingSubtracting(b.hundredths)) }
    public static func += (a: inout Amount, b: Amount) { a = a + b }
    public static func -= (a: inout Amount, b: Amount) { a = a - b }

    /// `self` clamped to `range`.
    public func clamped(to range: ClosedRange<Amount>) -> Amount { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }

    /// A JSON number: whole amounts as integers (`1`, what older dosebars read), fractions as
    /// their decimal (`0.5`). Reads either; a number with more than two decimals is refused.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { self.init(units: n); return }
        let d = try c.decode(Double.self)
        guard let a = Amount(exactly: d) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "an amount takes at most two decimals")
        }
        self = a
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if isWhole { try c.encode(hundredths / 100) } else { try c.encode(doubleValue) }
    }
}
