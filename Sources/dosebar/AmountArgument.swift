import ArgumentParser
import DoseCore

extension Amount {
    /// An amount given on the command line (`--per-dose 0.5`, `refill NAME 9.75`): a decimal to
    /// hundredths, not negative, within `range`; anything else is a usage error (exit 64) naming
    /// the rule.
    static func argument(_ flag: String, _ range: ClosedRange<Amount>) -> @Sendable (String) throws -> Amount {
        { text in
            let amount: Amount
            do { amount = try Amount.parse(text) } catch {
                throw ValidationError("\(flag) \((error as? ParseError)?.reason ?? ParseError.notANumber.reason)")
            }
            guard range.contains(amount) else {
                throw ValidationError("\(flag): give a number from \(range.lowerBound) to \(range.upperBound) (to hundredths, e.g. 0.5)")
            }
            return amount
        }
    }
}
