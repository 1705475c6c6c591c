@testable import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// `today` and `status` as DoseApp calls (``DayService/snapshot()``, ``DayService/current()``): the
/// day at the context's now, from a real store, before and after a take.
@Suite("the day now as a service")
struct DayServiceNowTests {
    let root = NSTemporaryDirectory() + "dosebar-daynow-\(UUID().uuidString)"

    func context() throws -> AppContext { try .test(root: root) }

    func daily(_ name: String, at time: String, _ context: AppContext) -> Medication {
        let start = LocalDate("2026-11-01")!
        var m = Medication(id: 0, name: name, versions: [ScheduleVersion(effective: start, schedule: Schedule(
            recurrence: .daily, times: [LocalTime(time)!], window: 7200, start: start, until: nil))])
        m.trackedFrom = context.now.addingTimeInterval(-3600)  // today 07:05: no slot of yesterday carried
        return m
    }

    @Test("08:05: Aspirin (08:00) due and Iron (20:00) upcoming; after the take, Aspirin taken; status's entry agrees")
    func dueThenTaken() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try context.openStore(.create)
        try MedicationService(context: context, store: store).add(daily("Aspirin", at: "08:00", context))
        try MedicationService(context: context, store: store).add(daily("Iron", at: "20:00", context))
        context.settle { _, _, _, _ in }
        let service = DayService(store: store, context: context)

        func statuses(_ s: Snapshot) -> [String: SlotStatus] {
            Dictionary(uniqueKeysWithValues: s.doses.map { ($0.medication, $0.status) })
        }
        let before = try service.snapshot()
        #expect(before.day == context.today)
        #expect(statuses(before) == ["Aspirin": .due, "Iron": .upcoming])
        #expect(statuses(try service.current()) == statuses(before))

        _ = try DoseRecorder(context: context, store: store).record(.taken, names: ["Aspirin"], at: nil, next: false)
        context.settle { _, _, _, _ in }
        let after = try service.snapshot()
        #expect(statuses(after) == ["Aspirin": .taken, "Iron": .upcoming])
        #expect(after.counts.taken == 1 && after.counts.total == 2)
        let current = try service.current()
        #expect(statuses(current) == statuses(after) && current.counts.taken == 1)
        #expect(current.message.text == after.message.text)
    }
}
