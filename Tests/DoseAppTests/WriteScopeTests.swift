@testable import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// The one way a change is written (``WriteScope``): the journal opened and finished once, history
/// marked from the earliest day named, and one refresh owed, paid after the command's work.
@Suite("The write scope")
struct WriteScopeTests {
    let root = NSTemporaryDirectory() + "dosebar-scope-\(UUID().uuidString)"

    func context(_ now: String = "2026-11-22T08:05:00+09:00") throws -> AppContext { try .test(root: root, now: now) }

    func aspirin(_ context: AppContext) -> Medication {
        var m = Medication(id: 0, name: "Aspirin", versions: [ScheduleVersion(effective: context.today, schedule: Schedule(
            recurrence: .daily, times: [LocalTime("08:00")!], window: 7200, start: context.today, until: nil))])
        m.stock = 10
        m.trackedFrom = context.now.addingTimeInterval(-86400)
        return m
    }

    /// A store with sync set up and the summaries of the five days before today cached.
    func syncedStore(_ context: AppContext) throws -> (DoseStore, device: String) {
        let store = try context.openStore(.create)
        _ = try SyncService(context: context, store: store).initialise(dir: root + "/sync")
        context.settle { _, _, _, _ in }
        let device = try #require(try SyncService(context: context, store: store).setup()).device
        try store.write { w in
            try w.saveSummaries((1...5).map { DaySummary(date: context.today.adding(days: -$0), total: 1, taken: 1, onTime: 1,
                                                         skipped: 0, missed: 0) })
        }
        return (store, device)
    }

    func summarised(_ store: DoseStore, _ context: AppContext) throws -> [LocalDate] {
        try store.read { try $0.summaries(from: context.today.adding(days: -9), through: context.today) }.map(\.date)
    }

    @Test("a change journals and finishes, marks history from its earliest day, and owes one refresh")
    func oneChange() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let (store, device) = try syncedStore(context)
        let operations = try store.read { try $0.operationCount(device: device, after: 0) }
        let clock = try store.read { try $0.meta(SyncMeta.clock) }
        var refreshes: [String] = []
        let count: (AppContext, DoseStore, WorkProgress, Bool) -> Void = { _, s, _, flushed in refreshes.append("\(s.path) \(flushed)") }

        try context.change(store) { scope in
            let id = try scope.writer.insertMedication(aspirin(context))
            let added = try #require(try scope.writer.reader.medication(id: id))
            try #require(try scope.journal()).added(added)
            // Marked twice, the later day last: history changes from the earlier one.
            scope.historyChanged(on: context.today.adding(days: -4))
            scope.historyChanged(on: context.today.adding(days: -2))
        }
        #expect(try summarised(store, context) == [context.today.adding(days: -5)])
        #expect(try store.read { try $0.operationCount(device: device, after: 0) } > operations)
        #expect(try store.read { try $0.meta(SyncMeta.clock) } != clock, "the journal was finished: its clock kept")

        // A second change in the same command: still one refresh, of the store, flushing the sync file.
        try context.change(store) { scope in scope.scheduleChanged(on: context.today) }
        #expect(refreshes.isEmpty, "owed, not paid, until the command ends")
        context.settle(refresh: count)
        context.settle(refresh: count)
        #expect(refreshes == ["\(store.path) false"])
    }

    @Test("a change that throws leaves no journal line, no mark and no refresh")
    func throwing() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        struct Refused: Error {}
        let context = try context()
        let (store, device) = try syncedStore(context)
        let operations = try store.read { try $0.operationCount(device: device, after: 0) }
        var refreshes = 0
        #expect(throws: Refused.self) {
            try context.change(store) { scope in
                let id = try scope.writer.insertMedication(aspirin(context))
                try scope.journal()?.added(try #require(try scope.writer.reader.medication(id: id)))
                scope.historyChanged(on: context.today.adding(days: -5))
                throw Refused()
            }
        }
        #expect(try store.read { try $0.operationCount(device: device, after: 0) } == operations)
        #expect(try store.read { try $0.medications(includeArchived: true) }.isEmpty)
        #expect(try summarised(store, context).count == 5)
        context.settle { _, _, _, _ in refreshes += 1 }
        #expect(refreshes == 0)
    }

    @Test("a command's refresh comes after its work, once: the shared directory is written when it ends")
    func finishing() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try context.openStore(.create)
        let snapshot = root + "/shared/snapshot.json"
        var seenInside = true
        try context.finishing {
            try MedicationService(context: context, store: store).add(aspirin(context))
            _ = try DoseRecorder(context: context, store: store).record(.taken, names: ["Aspirin"], at: nil, next: false)
            seenInside = FileManager.default.fileExists(atPath: snapshot)
        }
        #expect(!seenInside, "not while the command still works")
        let written = try String(contentsOfFile: snapshot, encoding: .utf8)
        #expect(written.contains("Aspirin") && written.contains("\"taken\""))
    }

    @Test("a dry run commits nothing and owes nothing")
    func dryRun() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try context.openStore(.create)
        var plan = ImportPlan()
        plan.medicines = [ImportPlan.Medicine(name: "Aspirin", template: aspirin(context), origin: .treatment)]
        let summary = try ImportService(context: context, store: store).apply(plan, dryRun: true)
        #expect(summary.dryRun)
        var refreshes = 0
        context.settle { _, _, _, _ in refreshes += 1 }
        #expect(refreshes == 0)
        #expect(try store.read { try $0.medications(includeArchived: true) }.isEmpty)
    }
}
