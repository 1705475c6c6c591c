import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// Another device's doses are kept only in the events they wrote (schema `v11-synced-doses`): an
/// undo finds its target through the event's operation id, and a device file that shrinks or is
/// rewritten is read again by id, never from a stale offset.
@Suite("Sync: another device's doses kept in their events")
struct SyncSyncedDoseTests {
    let sim = SyncSimulationTests()

    func aspirin(_ d: SyncSimulationTests.Device) throws -> Medication? {
        try d.store.read { try $0.medications(includeArchived: true).first { $0.name == "Aspirin" } }
    }

    func takes(_ d: SyncSimulationTests.Device) throws -> [DoseEvent] {
        try d.store.read { r in try r.events(days: LocalDate("2026-11-01")!...LocalDate("2026-11-30")!).filter { $0.kind == .taken } }
    }

    @Test func anUndoOnEitherDeviceFindsTheOtherDevicesDoseThroughItsEvent() throws {
        let d = try sim.devices(2)
        let (a, b) = (d[0], d[1])
        _ = try a.sync.initialise(dir: a.folder)
        _ = try b.sync.initialise(dir: b.folder)
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Aspirin", ["08:00", "20:00"], stock: 30))
        a.now = "2026-11-22T08:10:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Aspirin"], at: nil, next: false)
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try aspirin(b)?.stock == Amount(units: 29))
        #expect(try takes(b).count == 1)

        // B undoes A's dose: its undo names A's operation, found through B's event.
        b.now = "2026-11-22T08:20:00+09:00"
        _ = try UndoService(context: try b.context(), store: b.store).undo(name: "Aspirin")
        #expect(try aspirin(b)?.stock == Amount(units: 30))
        _ = try b.sync.now()
        let undo = try String(contentsOfFile: try b.ownFile, encoding: .utf8).split(separator: "\n").last { $0.contains("\"kind\":\"undo\"") }
        let target = try #require(undo.flatMap { SyncOperation.parse($0)?.target })
        let original = try String(contentsOfFile: try a.ownFile, encoding: .utf8).split(separator: "\n")
            .compactMap { SyncOperation.parse($0) }.first { $0.kind == "take" }
        #expect(target == original?.id, "the undo names A's take")
        try sim.deliver(b, to: a)
        _ = try a.sync.now()
        #expect(try aspirin(a)?.stock == Amount(units: 30), "A applied B's undo of A's own dose")
        #expect(try takes(a).isEmpty, "the dose is undone on A")

        // A takes again and undoes it there: B finds the dose to revert through its event.
        a.now = "2026-11-22T20:05:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Aspirin"], at: nil, next: false)
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try aspirin(b)?.stock == Amount(units: 29))
        a.now = "2026-11-22T20:06:00+09:00"
        _ = try UndoService(context: try a.context(), store: a.store).undo(name: "Aspirin")
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try aspirin(b)?.stock == Amount(units: 30), "A's undo reverted A's dose on B")
        #expect(try sim.history(a) == sim.history(b))
        // Nothing waits: every undo found its target.
        #expect(try b.sync.status().waiting.isEmpty && a.sync.status().waiting.isEmpty)
    }

    @Test func aShrunkOrRewrittenFileIsReadAgainByID() throws {
        let d = try sim.devices(2)
        let (a, b) = (d[0], d[1])
        _ = try a.sync.initialise(dir: a.folder)
        _ = try b.sync.initialise(dir: b.folder)
        a.now = "2026-11-20T07:00:00+09:00"
        let meds = MedicationService(context: try a.context(), store: a.store)
        try meds.add(sim.daily("Aspirin", ["08:00", "20:00"], stock: 30))
        try meds.add(sim.daily("Magnesium", ["08:00", "12:00", "20:00"], stock: nil))
        for (day, time) in [("21", "08:10"), ("21", "12:10"), ("21", "20:10"), ("22", "08:10")] {
            a.now = "2026-11-\(day)T\(time):00+09:00"
            let recorder = DoseRecorder(context: try a.context(), store: a.store)
            if time != "12:10" { _ = try recorder.record(.taken, names: ["Aspirin"], at: nil, next: false) }
            _ = try recorder.record(.taken, names: ["Magnesium"], at: nil, next: false)
        }
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try sim.history(a) == sim.history(b))
        let before = try Data(contentsOf: URL(fileURLWithPath: try a.ownFile)).count

        // A purges Magnesium: its file is rewritten without its lines, shorter than where B stopped
        // reading once A has added a dose (appended after the rewrite).
        let purger = MedicationService(context: try a.context(), store: a.store)
        try purger.purge(try purger.purgeTarget("Magnesium"))
        _ = try a.sync.now()
        a.now = "2026-11-22T20:10:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Aspirin"], at: nil, next: false)
        _ = try a.sync.now()
        let after = try Data(contentsOf: URL(fileURLWithPath: try a.ownFile)).count
        #expect(after < before, "the rewritten file is shorter than what B read")
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try takes(b).count == 4, "A's three Aspirin doses once each and the new one, nothing twice")
        #expect(try aspirin(b)?.stock == Amount(units: 26))
        #expect(try aspirin(a)?.stock == Amount(units: 26))
        #expect(try sim.history(a) == sim.history(b))

        // The same file delivered again, and again rewritten in place with its lines in another
        // order (a restore on another machine): read by id, nothing applied twice.
        let lines = try String(contentsOfFile: try a.ownFile, encoding: .utf8).split(separator: "\n")
        let target = SyncFolder(shared: b.folder).file(of: try a.sync.setup()!.device)
        try (lines.reversed().joined(separator: "\n") + "\n").write(toFile: target, atomically: true, encoding: .utf8)
        _ = try b.sync.now()
        #expect(try takes(b).count == 4)
        #expect(try sim.history(a) == sim.history(b))
    }
}
