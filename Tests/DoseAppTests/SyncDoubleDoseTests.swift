import DoseApp
import DoseCore
import DoseExport
import DoseStore
import DoseTestSupport
import Foundation
import Testing

/// A slot taken on two devices before they synced (DESIGN §10 Merge rules): both takes are kept,
/// the stock moves twice, and every device warns `double_dose` until one take is undone or the
/// person confirms both.
@Suite("Sync: a dose taken on two devices is kept twice and shown")
struct SyncDoubleDoseTests {
    typealias Device = SyncSimulationTests.Device
    let sim = SyncSimulationTests()

    /// Warfarin 18:00 with 10 in stock on two devices that synced it; laptop (A) takes at 18:10 and
    /// desktop (B) at 18:00, both before they sync again.
    func twoTakes() throws -> (Device, Device) {
        let d = try sim.devices(2)
        let (a, b) = (d[0], d[1])
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Warfarin", ["18:00"], stock: 10))
        _ = try a.sync.initialise(dir: a.folder)
        _ = try b.sync.initialise(dir: b.folder)
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        a.now = "2026-11-22T18:10:00+09:00"; b.now = "2026-11-22T18:00:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Warfarin"], at: nil, next: false)
        _ = try DoseRecorder(context: try b.context(), store: b.store).record(.taken, names: ["Warfarin"], at: nil, next: false)
        try a.sync.flush(); try b.sync.flush()
        return (a, b)
    }

    func snapshot(_ d: Device, at now: String = "2026-11-22T18:30:00+09:00") throws -> Snapshot {
        d.now = now
        return try DayService(store: d.store, context: try d.context()).snapshot()
    }

    func stock(_ d: Device) throws -> Amount? {
        try d.store.read { try $0.medications(includeArchived: true).first { $0.name == "Warfarin" }?.stock }
    }

    /// Every take event of Warfarin kept (undone or not), as `at` seconds.
    func takes(_ d: Device) throws -> [Int] {
        try d.store.read { r in
            let id = try #require(try r.medications(includeArchived: true).first { $0.name == "Warfarin" }?.id)
            return try r.slotEvents(medicationID: id, day: LocalDate("2026-11-22")!, slotTime: LocalTime("18:00")!)
                .filter { $0.kind == .taken }.map { Int($0.at.timeIntervalSince1970) }.sorted()
        }
    }

    func device(_ d: Device) throws -> String { try d.sync.setup()!.device }

    static let at1800 = Int(ISO8601.parse("2026-11-22T18:00:00+09:00")!.timeIntervalSince1970)
    static let at1810 = Int(ISO8601.parse("2026-11-22T18:10:00+09:00")!.timeIntervalSince1970)

    @Test("both takes kept, stock counted twice, double_dose after late doses only, the same on both devices in either order",
          arguments: [false, true])
    func keptAndShown(bFirst: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try twoTakes()
        try sim.deliver(a, to: b); try sim.deliver(b, to: a)
        if bFirst { _ = try b.sync.now(); _ = try a.sync.now() } else { _ = try a.sync.now(); _ = try b.sync.now() }
        let (laptop, desktop) = (try device(a), try device(b))
        for d in [a, b] {
            let h = try sim.history(d)
            // The earlier take (desktop, 18:00) resolves the slot.
            #expect(h.contains("Warfarin taken 2026-11-22 18:00 at \(Self.at1800)"), "\(h)")
            #expect(try takes(d) == [Self.at1800, Self.at1810], "both takes kept")
            #expect(try stock(d) == Amount(units: 8), "stock counted twice")
            let s = try snapshot(d)
            #expect(s.message.id == MessageID.doubleDose, "\(s.message)")
            #expect(s.message.text == "Warfarin 18:00 taken twice: \(desktop) 18:00, \(laptop) 18:10", "\(s.message.text)")
            #expect(s.messages.map(\.id).contains(MessageID.doubleDose))
            #expect(s.tooltip.contains("taken twice"), "\(s.tooltip)")
            #expect(s.doses.first?.status == .taken && s.doses.first?.takenAt?.clock == "18:00")
        }
        #expect(try snapshot(a).messages == snapshot(b).messages)
        #expect(try sim.history(a) == sim.history(b))
    }

    @Test("a late dose outranks double_dose; double_dose outranks a due one")
    func priority() throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try twoTakes()
        // Tracked from the morning (a medicine is tracked from when it was added).
        a.now = "2026-11-22T07:00:00+09:00"
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Zinc", ["15:00"], stock: nil))
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Iron", ["19:00"], stock: nil))
        try a.sync.flush()
        try sim.deliver(b, to: a)
        _ = try a.sync.now()
        // 19:05: Zinc (15:00) is 4 h late, Iron due.
        let late = try snapshot(a, at: "2026-11-22T19:05:00+09:00").messages.map(\.id)
        #expect(late.prefix(3) == [MessageID.late4h, MessageID.doubleDose, MessageID.dueNow], "\(late)")
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.skipped, names: ["Zinc"], at: nil, next: false)
        let due = try snapshot(a, at: "2026-11-22T19:06:00+09:00")
        #expect(due.message.id == MessageID.doubleDose && due.messages.map(\.id).prefix(2) == [MessageID.doubleDose, MessageID.dueNow],
                "\(due.messages)")
        #expect(due.message.severity == .critical)
    }

    @Test("an undo of either take clears the warning on both devices; the stock counts one take", arguments: [0, 1])
    func undoClears(which: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try twoTakes()
        try sim.deliver(a, to: b); try sim.deliver(b, to: a)
        _ = try a.sync.now(); _ = try b.sync.now()
        let undoer = which == 0 ? a : b, other = which == 0 ? b : a
        undoer.now = "2026-11-22T18:20:00+09:00"
        _ = try UndoService(context: try undoer.context(), store: undoer.store).undo(name: "Warfarin")
        try undoer.sync.flush()
        #expect(try snapshot(undoer).message.id != MessageID.doubleDose)
        #expect(try snapshot(other).message.id == MessageID.doubleDose, "the other device warns until it syncs")
        try sim.deliver(undoer, to: other)
        _ = try other.sync.now()
        for d in [a, b] {
            let s = try snapshot(d)
            #expect(!s.messages.map(\.id).contains(MessageID.doubleDose), "\(s.messages)")
            #expect(try stock(d) == Amount(units: 9))
            #expect(s.doses.first?.status.isTaken == true)
        }
        #expect(try sim.history(a) == sim.history(b))
    }

    @Test("confirm on either device clears the warning on both; the double dose stays, marked confirmed", arguments: [0, 1])
    func confirmClears(which: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try twoTakes()
        try sim.deliver(a, to: b); try sim.deliver(b, to: a)
        _ = try a.sync.now(); _ = try b.sync.now()
        let confirmer = which == 0 ? a : b, other = which == 0 ? b : a
        confirmer.now = "2026-11-22T18:20:00+09:00"
        let done = try DoubleDoseService(context: try confirmer.context(), store: confirmer.store).confirm("warf", time: LocalTime("18:00"))
        #expect(done.confirmed && done.takes.count == 2)
        try confirmer.sync.flush()
        // Nothing left to confirm.
        #expect(throws: DosebarError.self) {
            try DoubleDoseService(context: try confirmer.context(), store: confirmer.store).confirm("Warfarin")
        }
        try sim.deliver(confirmer, to: other)
        _ = try other.sync.now()
        for d in [a, b] {
            let s = try snapshot(d)
            #expect(!s.messages.map(\.id).contains(MessageID.doubleDose), "\(s.messages)")
            #expect(try stock(d) == Amount(units: 8), "both still taken")
            let doubles = try DoubleDoseService(context: try d.context(), store: d.store).doubles()
            #expect(doubles.count == 1 && doubles[0].confirmed, "\(doubles)")
        }
    }

    @Test("confirm with nothing taken twice is refused")
    func confirmRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, _) = try twoTakes()
        #expect(throws: DosebarError.self) {
            try DoubleDoseService(context: try a.context(), store: a.store).confirm("Warfarin")
        }
    }
}
