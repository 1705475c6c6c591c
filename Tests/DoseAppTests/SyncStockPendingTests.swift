import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// A long file is applied in committed batches and the stock derived once, after the last; the
/// medicines still to derive are kept in `meta`, so a run cut short between batches derives them the
/// next time (`sync.stock-pending`).
@Suite("Sync: stock derived once after the batches, and after a run cut short")
struct SyncStockPendingTests {
    let sim = SyncSimulationTests()

    @Test func aPendingMedicineIsDerivedByTheNextRun() throws {
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
        func stock() throws -> Amount? { try b.store.read { try $0.medications(includeArchived: true).first { $0.name == "Aspirin" }?.stock } }
        #expect(try stock() == Amount(units: 29))
        let id = try b.store.read { try $0.medications(includeArchived: true).first { $0.name == "Aspirin" }!.id }

        // A stock that is wrong, as after a run cut short: without the pending mark nothing
        // derives it again …
        try b.store.write { try $0.setStock(medicationID: id, Amount(units: 5)) }
        _ = try b.sync.now()
        #expect(try stock() == Amount(units: 5))
        // … with it, the next run does, and forgets the mark.
        try b.store.write { try $0.setMeta("sync.stock-pending", "\(id)") }
        _ = try b.sync.now()
        #expect(try stock() == Amount(units: 29))
        #expect(try b.store.read { try $0.meta("sync.stock-pending") } == nil)
    }
}
