import Testing
@testable import DoseCore

/// The one flat form of a recurrence (database and sync lines), with the forms written by hand.
@Suite struct RecurrenceFlatTests {
    @Test func everyKindHasItsFlatFormAndBack() throws {
        let cases: [(Recurrence, Recurrence.Flat)] = [
            (.daily, .init(kind: "daily")),
            (.weekdays([.monday, .friday]), .init(kind: "weekdays", weekdays: [.monday, .friday])),
            (.everyDays(3), .init(kind: "every_days", a: 3)),
            (.everyWeeks(2), .init(kind: "every_weeks", a: 2)),
            (.everyMonths(1), .init(kind: "every_months", a: 1)),
            (.cycle(active: 21, rest: 7), .init(kind: "cycle", a: 21, b: 7)),
            (.asNeeded(maxPerDay: 3, minInterval: 21_600), .init(kind: "as_needed", a: 3, b: 21_600)),
            (.asNeeded(maxPerDay: nil, minInterval: nil), .init(kind: "as_needed")),
        ]
        for (recurrence, flat) in cases {
            #expect(recurrence.flat == flat)
            #expect(try Recurrence(flat: flat) == recurrence)
        }
    }

    @Test func anUnknownKindOrAMissingParameterIsUnreadable() {
        #expect(throws: Recurrence.Unreadable(description: "kind 'fortnightly'")) { try Recurrence(flat: .init(kind: "fortnightly")) }
        #expect(throws: Recurrence.Unreadable(description: "cycle without rest")) { try Recurrence(flat: .init(kind: "cycle", a: 21)) }
        #expect(throws: Recurrence.Unreadable(description: "every_days without N")) { try Recurrence(flat: .init(kind: "every_days")) }
    }
}
