@testable import DoseCore
import Foundation
import Testing

/// ``Amount``: exact decimals to hundredths, parsed, printed and summed without a float.
@Suite struct AmountTests {
    @Test("text to hundredths and back: 30, 0.5, 0.25, 9.75, .5, 0.500; the description is the plain decimal")
    func parseAndPrint() throws {
        let cases: [(String, Int, String)] = [("30", 3_000, "30"), ("0.5", 50, "0.5"), ("0.25", 25, "0.25"), ("9.75", 975, "9.75"),
                                              (".5", 50, "0.5"), ("0.500", 50, "0.5"), ("1000000", 100_000_000, "1000000"),
                                              ("0.01", 1, "0.01"), ("0", 0, "0"), ("2.05", 205, "2.05"), ("007.10", 710, "7.1")]
        for (text, hundredths, printed) in cases {
            let a = try Amount.parse(text)
            #expect(a.hundredths == hundredths, "\(text)")
            #expect(a.description == printed, "\(text)")
            #expect(try Amount.parse(a.description) == a)
        }
        #expect(Amount(hundredths: -150).description == "-1.5")
        #expect(Amount(hundredths: -5).description == "-0.05")
    }

    @Test("more than two decimals, a sign, an exponent or no digits are refused, each with its reason")
    func refused() {
        let cases: [(String, Amount.ParseError)] = [("0.125", .tooManyDecimals), ("9.755", .tooManyDecimals), ("-1", .negative),
                                                    ("-0.5", .negative), ("1e2", .notANumber), ("", .notANumber), (".", .notANumber),
                                                    ("1.", .notANumber), ("+1", .notANumber), ("1,5", .notANumber), ("nan", .notANumber),
                                                    ("99999999999999999999", .tooLarge)]
        for (text, reason) in cases {
            #expect(throws: reason, "\(text)") { try Amount.parse(text) }
        }
    }

    @Test("a double is an amount only when it is one to hundredths; huge ones clamp, NaN is none")
    func fromDouble() {
        #expect(Amount(exactly: 9.75) == Amount(hundredths: 975))
        #expect(Amount(exactly: 0.1 + 0.2) == Amount(hundredths: 30), "float noise of a two-decimal value is the value")
        #expect(Amount(exactly: 0.125) == nil && Amount(exactly: 0.001) == nil && Amount(exactly: .nan) == nil)
        #expect(Amount(exactly: .infinity) == nil)
        #expect(Amount(exactly: 1e300) == Amount(hundredths: .max) && Amount(exactly: -1e300) == Amount(hundredths: .min))
        // Hundredths up to 10,000 units survive the trip through a double and back.
        for h in stride(from: 0, through: 1_000_000, by: 37) {
            #expect(Amount(exactly: Double(h) / 100) == Amount(hundredths: h))
        }
    }

    @Test("sums saturate; a whole literal is whole units")
    func arithmetic() {
        let max = Amount(hundredths: .max), min = Amount(hundredths: .min)
        #expect(max + 1 == max && min - 1 == min)
        #expect(Amount(hundredths: 975) - Amount(hundredths: 50) - Amount(hundredths: 50) == Amount(hundredths: 875))
        let thirty: Amount = 30
        #expect(thirty.hundredths == 3_000 && thirty.isWhole && !Amount(hundredths: 50).isWhole)
        #expect(Amount(units: .max) == max)
    }
}
