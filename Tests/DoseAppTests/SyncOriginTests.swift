import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// DESIGN §2: a take's origin on the device that recorded it is where it came from there (a
/// click, a notification); applied on another device by sync it is `device`, and so is an undo
/// sync applies. Sync lines do not carry it. (Fails on the code before: no origin.)
@Suite("Sync: another device's events have origin device")
struct SyncOriginTests {
    let sim = SyncSimulationTests()

    func events(_ d: SyncSimulationTests.Device) throws -> [DoseEvent] {
        try d.store.read { r in try (1...20).compactMap { try r.event(id: Int64($0)) } }
    }

    @Test func aClickOnOneDeviceIsADeviceEventOnTheOther() throws {
        let d = try sim.devices(2)
        let (a, b) = (d[0], d[1])
        _ = try a.sync.initialise(dir: a.folder)
        _ = try b.sync.initialise(dir: b.folder)
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Aspirin", ["08:00", "20:00"], stock: 30))
        a.now = "2026-11-22T08:10:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Aspirin"], at: nil, next: false, origin: .click)
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try events(a).filter { $0.kind == .taken }.map(\.origin) == [.click])
        #expect(try events(b).filter { $0.kind == .taken }.map(\.origin) == [.device])
        let line = try String(contentsOfFile: try a.ownFile, encoding: .utf8)
        #expect(!line.contains("click"), "sync lines do not carry the origin")

        // A undoes it (a notification's Undo): B applies the undo as another device's.
        a.now = "2026-11-22T08:12:00+09:00"
        let take = try #require(try events(a).first { $0.kind == .taken })
        #expect(try UndoService(context: try a.context(), store: a.store).undo(events: [take.id]).map(\.id) == [take.id])
        _ = try a.sync.now()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try events(a).filter { $0.kind == .undone }.map(\.origin) == [.notification])
        #expect(try events(b).filter { $0.kind == .undone }.map(\.origin) == [.device])
        #expect(try sim.history(a) == sim.history(b))
    }
}
