import DoseCore
import Foundation
import Testing
@testable import DoseStore

@Suite("Day summaries, meta and notifications")
struct SummaryTests {
    func summary(_ date: String, streak: Int, troubled: [String] = []) -> DaySummary {
        DaySummary(date: day(date), total: 4, taken: 3, onTime: 2, skipped: 1, missed: 0,
                   streak: streak, best: streak + 2, troubled: troubled)
    }

    @Test func summariesAreUpsertedAndReadInOrder() throws {
        let f = try Fixture()
        #expect(try f.store.read { try $0.lastSummary() } == nil)
        let days = [summary("2026-03-03", streak: 3, troubled: ["1@08:00", "12@21:30"]),
                    summary("2026-03-01", streak: 1),
                    summary("2026-03-02", streak: 2, troubled: ["2@07:00"])]
        try f.store.write { try $0.saveSummaries(days) }
        let read = try DoseStore(path: f.path).read { try $0.summaries(from: day("2026-02-01"), through: day("2026-03-31")) }
        #expect(read == days.sorted { $0.date < $1.date })
        #expect(try f.store.read { try $0.summaries(from: day("2026-03-02"), through: day("2026-03-02")) } == [days[2]])
        #expect(try f.store.read { try $0.lastSummary() } == days[0])

        let replaced = DaySummary(date: day("2026-03-02"), total: 2, taken: 0, onTime: 0, skipped: 0, missed: 2,
                                  streak: 0, best: 4, troubled: [])
        try f.store.write { try $0.saveSummaries([replaced]) }
        #expect(try f.store.read { try $0.summaries(from: day("2026-03-02"), through: day("2026-03-02")) } == [replaced])
    }

    @Test func invalidationDropsTheDayAndLaterOnes() throws {
        let f = try Fixture()
        try f.store.write { w in try w.saveSummaries((1...9).map { summary("2026-03-0\($0)", streak: $0) }) }
        try f.store.write { try $0.invalidateSummaries(from: day("2026-03-05")) }
        let left = try f.store.read { try $0.summaries(from: day("2026-01-01"), through: day("2026-12-31")) }
        #expect(left.map(\.date) == (1...4).map { day("2026-03-0\($0)") })
        #expect(try f.store.read { try $0.lastSummary() }?.date == day("2026-03-04"))
    }

    @Test func troubledItemsThatCannotRoundTripAreRefused() throws {
        let f = try Fixture()
        #expect(throws: DosebarError.self) { try f.store.write { try $0.saveSummaries([summary("2026-03-01", streak: 1, troubled: ["a,b"])]) } }
        #expect(try f.store.read { try $0.lastSummary() } == nil)
    }

    @Test func metaIsSetReplacedAndRemoved() throws {
        let f = try Fixture()
        #expect(try f.store.read { try $0.meta("best") } == nil)
        try f.store.write { try $0.setMeta("best", "12") }
        try f.store.write { try $0.setMeta("best", "13") }
        #expect(try f.store.read { try $0.meta("best") } == "13")
        try f.store.write { try $0.setMeta("best", nil) }
        #expect(try f.store.read { try $0.meta("best") } == nil)
    }

    @Test func notificationsAreRememberedAndForgotten() throws {
        let f = try Fixture()
        #expect(try !f.store.read { try $0.wasNotified("due:1:2026-03-10T08:00") })
        try f.store.write { w in
            try w.markNotified("due:1:2026-03-10T08:00", at: instant(0))
            try w.markNotified("due:1:2026-03-10T08:00", at: instant(5)) // second time: no error, first kept
            try w.markNotified("late:1:2026-03-10T08:00", at: instant(7_200))
        }
        #expect(try f.store.read { try $0.wasNotified("due:1:2026-03-10T08:00") })
        try f.store.write { try $0.forgetNotified(before: instant(3)) }
        #expect(try !f.store.read { try $0.wasNotified("due:1:2026-03-10T08:00") })
        #expect(try f.store.read { try $0.wasNotified("late:1:2026-03-10T08:00") })
    }
}
