import Testing
@testable import DoseCore

/// `Stock`, the one home of stock arithmetic, with amounts written by hand.
@Suite struct StockTests {
    @Test func aTakeUsesTheDoseAndNeverGoesBelowZero() {
        #expect(Stock.take(from: Amount(units: 10), perDose: Amount(hundredths: 50)) == (Amount(hundredths: 950), Amount(hundredths: 50)))
        #expect(Stock.take(from: Amount(hundredths: 25), perDose: Amount(units: 1)) == (.zero, Amount(hundredths: 25)))
        // Stored out of range by an older dosebar: brought into range, not refused.
        #expect(Stock.take(from: Amount(hundredths: -300), perDose: Amount(units: 1)) == (.zero, .zero))
        #expect(Stock.take(from: Amount(hundredths: .max), perDose: Amount(units: 2)).after == Stock.maximum - Amount(units: 2))
    }

    @Test func anUndoGivesBackWhatTheTakeUsed() {
        let take = Stock.take(from: Amount(hundredths: 25), perDose: Amount(units: 1))
        #expect(Stock.giveBack(take.used, to: take.after) == Amount(hundredths: 25))
        #expect(Stock.giveBack(Amount(units: 5), to: Stock.maximum) == Stock.maximum)
    }

    @Test func aRefillStartsFromZeroWhenUntrackedAndStopsAtTheMaximum() {
        #expect(Stock.refill(nil, adding: Amount(units: 30)) == Amount(units: 30))
        #expect(Stock.refill(Amount(hundredths: 625), adding: Amount(hundredths: 50)) == Amount(hundredths: 675))
        #expect(Stock.refill(Stock.maximum - Amount(units: 1), adding: Amount(units: 5)) == Stock.maximum)
    }
}
