/// The one home of stock arithmetic: every move of a medicine's stock — a take, its undo, a refill,
/// a set, and sync's stock derived from operations — goes through these, so they all keep to
/// 0…`maximum` the same way. Amounts are exact hundredths (`Amount`); a value an older dosebar
/// stored out of range is brought back into it first, never refused (a take must not fail on it).
public enum Stock {
    /// The most a medicine can hold (`FieldRules.stockRange`).
    public static let maximum = FieldRules.stockRange.upperBound

    /// `units` in 0…maximum.
    public static func clamped(_ units: Amount) -> Amount { units.clamped(to: FieldRules.stockRange) }

    /// A take from `stock` of a dose of `perDose`: the stock after it and what it used (never below
    /// 0: what was not there was not used; undo gives back exactly `used`).
    public static func take(from stock: Amount, perDose: Amount) -> (after: Amount, used: Amount) {
        let current = clamped(stock)
        let used = min(current, FieldRules.clampedPerDose(perDose))
        return (current - used, used)
    }

    /// The stock after an undo gives back `used`.
    public static func giveBack(_ used: Amount, to stock: Amount) -> Amount { clamped(clamped(stock) + used) }

    /// The stock after a refill of `units` (an untracked stock starts from 0), capped at `maximum`.
    public static func refill(_ stock: Amount?, adding units: Amount) -> Amount { clamped((stock.map(clamped) ?? .zero) + units) }
}
