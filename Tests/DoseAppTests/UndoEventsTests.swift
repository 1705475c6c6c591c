import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// The Undo of a click's confirmation (DESIGN §2): `UndoService.undo(events:)` reverts exactly the
/// events it names, stock back, whatever was recorded since, and only once. Each event keeps the
/// origin it was recorded with. (Fails on the code before: no origin, no undo of given events.)
@Suite("Undo of given events, and origins through DoseRecorder")
struct UndoEventsTests {
    let root = NSTemporaryDirectory() + "dosebar-app-\(UUID().uuidString)"

    func context(_ now: String) throws -> AppContext { try .test(root: root, now: now) }

    @Test func undoesExactlyTheClicksTakeAfterMoreWasRecorded() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let morning = try context("2026-11-22T08:05:00+09:00")
        let store = try morning.openStore(.create)
        func add(_ name: String, stock: Amount) throws -> Int64 {
            var m = Medication(id: 0, name: name, versions: [ScheduleVersion(effective: morning.today, schedule: Schedule(
                recurrence: .daily, times: [LocalTime("08:00")!], window: 7200, start: morning.today, until: nil))])
            m.stock = stock
            return try store.write { try $0.insertMedication(m) }
        }
        let metformin = try add("Metformin", stock: 30), iron = try add("Iron", stock: 10)
        let click = try DoseRecorder(context: morning, store: store).record(.taken, names: ["Metformin"], at: nil, next: false, origin: .click)
        #expect(click.count == 1)
        let later = try context("2026-11-22T08:06:00+09:00")
        _ = try DoseRecorder(context: later, store: store).record(.taken, names: ["Iron"], at: nil, next: false, origin: .terminal)
        let events = try store.read { try $0.events(days: morning.today...morning.today) }
        #expect(events.map(\.origin) == [.click, .terminal])
        #expect(try store.read { try $0.clickTakes(after: 0) }.map(\.medicationID) == [metformin])

        let undoAt = try context("2026-11-22T08:07:00+09:00")
        let reverted = try UndoService(context: undoAt, store: store).undo(events: [events[0].id])
        #expect(reverted.map(\.id) == [events[0].id])
        #expect(try store.read { try $0.medication(id: metformin)?.stock } == 30, "stock back")
        #expect(try store.read { try $0.medication(id: iron)?.stock } == 9, "the later take stays")
        #expect(try store.read { try $0.events(days: morning.today...morning.today) }.map(\.medicationID) == [iron])
        // A second Undo (the notification shown again after a restart) does nothing.
        #expect(try UndoService(context: undoAt, store: store).undo(events: [events[0].id]).isEmpty)
        #expect(try store.read { try $0.medication(id: metformin)?.stock } == 30)
    }
}
