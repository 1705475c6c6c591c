import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// One way to record a dose, whoever asks: `take` (names), a notification's answer (slots), undo.
@Suite("Recording doses")
struct DoseRecorderTests {
    let root = NSTemporaryDirectory() + "dosebar-app-\(UUID().uuidString)"

    func context(_ now: String) throws -> AppContext { try .test(root: root, now: now) }

    func addAspirin(_ context: AppContext, stock: Amount) throws -> (DoseStore, Int64) {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let store = try context.openStore(.create)
        var m = Medication(id: 0, name: "Aspirin", versions: [ScheduleVersion(effective: context.today, schedule: Schedule(
            recurrence: .daily, times: [LocalTime("08:00")!, LocalTime("20:00")!], window: 7200, start: context.today, until: nil))])
        m.stock = stock
        m.perDose = 2
        let id = try store.write { try $0.insertMedication(m) }
        return (store, id)
    }

    @Test("take by name and a notification's Taken write the same event and move stock alike")
    func sameRecord() throws {
        let morning = try context("2026-11-22T08:05:00+09:00")
        let (store, id) = try addAspirin(morning, stock: 3)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let byName = try DoseRecorder(context: morning, store: store).record(.taken, names: ["asp"], at: nil, next: false)
        #expect(byName.count == 1 && byName[0].slot?.key.time == LocalTime("08:00"))
        #expect(try store.read { try $0.medication(id: id)?.stock } == 1)

        let evening = try context("2026-11-22T20:01:00+09:00")
        let key = SlotKey(medicationID: id, date: evening.today, time: LocalTime("20:00")!)
        let bySlot = try DoseRecorder(context: evening, store: store).record(.taken, slots: [key])
        #expect(bySlot.count == 1)
        #expect(try store.read { try $0.medication(id: id)?.stock } == 0, "never below 0")
        // Already resolved: a second answer records nothing.
        #expect(try DoseRecorder(context: evening, store: store).record(.taken, slots: [key]).isEmpty)

        let undone = try UndoService(context: evening, store: store).undo(name: nil)
        #expect(undone.event.slot == key && undone.others == 0)
        #expect(try store.read { try $0.medication(id: id)?.stock } == 1, "undo gives back what the take used")
    }

    @Test("an archived medicine is named as archived, not unknown")
    func archived() throws {
        let now = try context("2026-11-22T08:05:00+09:00")
        let (store, id) = try addAspirin(now, stock: 3)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try store.write { w in
            var m = try #require(try w.reader.medication(id: id))
            m.archivedOn = now.today
            try w.updateMedication(m)
        }
        #expect(throws: DosebarError.badData("Aspirin was removed on 2026-11-22 (archived; 'dosebar list --all' shows it)")) {
            try RefillService(context: now, store: store).refill("Aspirin", adding: 5, setTo: nil)
        }
    }
}
