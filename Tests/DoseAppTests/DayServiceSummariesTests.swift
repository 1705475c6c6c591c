@testable import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// The first summaries of years of history (after an import or another device's first file): a
/// command summarises years on other threads while it reads the next, the daemon one year after
/// the other; both must store what summarising every day in one go gives, streaks across years included.
@Suite("the first summaries of years, a year at a time")
struct DayServiceSummariesTests {
    let root = NSTemporaryDirectory() + "dosebar-summaries-\(UUID().uuidString)"

    @Test("3.5 years of random takes, skips and misses: the same summaries for a command and the daemon as in one go")
    func sameAsInOneGo() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try AppContext.test(root: root)
        let store = try context.openStore(.create)
        let start = LocalDate("2023-06-01")!, yesterday = context.today.adding(days: -1)
        var m = Medication(id: 0, name: "Aspirin", versions: [ScheduleVersion(effective: start, schedule: Schedule(
            recurrence: .daily, times: [LocalTime("08:00")!, LocalTime("20:00")!], window: 7200, start: start, until: nil))])
        m.trackedFrom = context.zone.instant(start, LocalTime("00:00")!)
        try MedicationService(context: context, store: store).add(m)
        let id = try #require(try store.read { try $0.medications(includeArchived: true) }.first?.id)
        // Mostly taken (streaks run across years), some late, skipped or missed: a fixed sequence.
        var seed: UInt64 = 0x5DEECE66D
        func next() -> UInt64 { seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return seed >> 33 }
        try store.write { w in
            var day = start
            while day <= yesterday {
                for time in [LocalTime("08:00")!, LocalTime("20:00")!] {
                    let roll = next() % 100
                    guard roll >= 3 else { continue } // missed
                    let late = roll < 8 ? 10_800.0 : 300.0
                    let at = context.zone.instant(day, time).addingTimeInterval(late)
                    _ = try w.insertEvent(DoseEvent(id: 0, medicationID: id, kind: roll < 12 ? .skipped : .taken,
                                                    slot: SlotKey(medicationID: id, date: day, time: time), at: at, loggedAt: at), day: day)
                }
                day = day.adding(days: 1)
            }
        }
        let (medications, events) = try store.read { r in (try r.medications(includeArchived: true), try r.events(days: start...yesterday)) }
        let inOneGo = History.summaries(of: start...yesterday, medications: medications, events: events, zone: context.zone, after: nil)
        #expect(inOneGo.count > 3 * DayService.summaryChunk)
        // A streak runs across the first year's end, and the best is not the last streak: chaining matters.
        #expect(inOneGo[DayService.summaryChunk].streak > 1 && inOneGo.last!.best > inOneGo.last!.streak)

        for bulk in [BulkWork.command, .daemon] {
            try store.write { w in try w.invalidateSummaries(from: start) }
            _ = try DayService(store: store, context: context, bulk: bulk).load()
            let stored = try store.read { try $0.summaries(from: start, through: yesterday) }
            #expect(stored == inOneGo, "\(bulk)")
        }
    }
}
