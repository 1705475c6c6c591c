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
                let key = switch (error as? ParseError) ?? .notANumber {
                case .notANumber: "usage.amount.not_a_number"
                case .negative: "usage.amount.negative"
                case .tooManyDecimals: "usage.amount.decimals"
                case .tooLarge: "usage.amount.too_large"
                }
                throw ValidationError(Catalog.english.text(key, ["flag": flag]))
            }
            guard range.contains(amount) else {
                throw ValidationError(Catalog.english.text("usage.amount.range", ["flag": flag, "min": range.lowerBound.description,
                                                                                   "max": range.upperBound.description]))
            }
            return amount
        }
    }

    /// A comma-separated list of amounts (`--per-dose 0.5,1`), each as ``argument(_:_:)`` reads
    /// one; an empty entry or more entries than a day has times is a usage error.
    static func list(_ flag: String, _ range: ClosedRange<Amount>) -> @Sendable (String) throws -> [Amount] {
        { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= FieldRules.timesRange.upperBound,
                  !parts.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                throw ValidationError(Catalog.english.text("usage.per_dose_list", ["value": text]))
            }
            return try parts.map(argument(flag, range))
        }
    }
}
