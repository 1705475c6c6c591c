import Foundation

/// Conversions and sums that clamp instead of trapping: a number read from a database row or
/// another device's file reaches them before any rule could refuse it (an older dosebar wrote
/// it, or a broken one), and one such value must not crash every command from then on.
extension Int {
    /// `d` rounded toward zero, or the nearest representable value when out of range; NaN is 0.
    public init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= 9.2e18 { self = .max } else if d <= -9.2e18 { self = .min } else { self = Int(d) }
    }

    /// Whole seconds since 1970 (rounded down) of `date`, clamped to the days a ``LocalDate`` can hold,
    /// so adding an offset or dividing into days stays in range.
    public init(unixSecondsOf date: Date) {
        let bound = Double(LocalDate.dayNumberBound) * 86400
        let s = date.timeIntervalSince1970.rounded(.down)
        self = s.isNaN ? 0 : Int(Swift.min(Swift.max(s, -bound), bound))
    }

    /// `self + other`, clamped to `Int.min…Int.max`.
    public func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to `Int.min…Int.max`.
    public func saturatingSubtracting(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self * other`, clamped to `Int.min…Int.max`.
    public func saturatingMultiplied(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
