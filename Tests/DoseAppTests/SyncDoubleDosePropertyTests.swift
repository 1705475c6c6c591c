import DoseApp
import DoseCore
import DoseStore
import DoseTestSupport
import Foundation
import Testing

/// Random takes (by name and by bar click), undos, confirmations, clocks moving forward and back
/// and syncs among two or three devices (DESIGN §10 Merge rules, issue 42): no take is ever lost,
/// and after a final full sync every device has the same history, the same takes (a dose taken on
/// two devices kept twice) and the same `double_dose` messages; no device holds two live takes of
/// its own of one slot.
@Suite("Sync: doses taken on several devices, clocks moving both ways: nothing lost, every device alike")
struct SyncDoubleDosePropertyTests {
    typealias Device = SyncSimulationTests.Device
    let sim = SyncSimulationTests()
    static let day = LocalDate("2026-11-22")!

    /// Every take of every slot of the 21st to the 23rd a device keeps, undone ones too:
    /// `name date time at-second undone`, sorted.
    func allTakes(_ d: Device) throws -> [String] {
        try d.store.read { r in
            var out: [String] = []
            for m in try r.medications(includeArchived: true) {
                let times = Set(m.versions.flatMap(\.schedule.times))
                for day in [Self.day.adding(days: -1), Self.day, Self.day.adding(days: 1)] {
                    for time in times {
                        for e in try r.slotEvents(medicationID: m.id, day: day, slotTime: time) where e.kind == .taken {
                            out.append("\(m.name) \(day) \(time) \(Int(e.at.timeIntervalSince1970)) \(try r.isUndone(eventID: e.id))")
                        }
                    }
                }
            }
            return out.sorted()
        }
    }

    /// The slots where device `d` holds two live takes of its own.
    func localDoubles(_ d: Device) throws -> [SlotKey] {
        let me = try d.sync.setup()!.device
        let rows = try d.store.read { try $0.doubleDoseTakes(days: nil, medicationID: nil) }
        return Dictionary(grouping: rows.filter { $0.device == me }, by: \.slot).filter { $0.value.count > 1 }.map(\.key).sorted()
    }

    /// The instant `minutes` into the day, at `second` of its minute. Each step of a run gets its
    /// own second: two takes at one second are one dose by the merge rule (``SyncMerge/isSameDose(at:as:)``,
    /// so that the same imported history on two devices duplicates nothing), which a device's own
    /// take does not follow — a known gap, outside this test.
    func at(_ minutes: Int, second: Int) -> String {
        let m = min(max(minutes, 0), 24 * 60 - 1)
        return String(format: "2026-11-22T%02d:%02d:%02d+09:00", m / 60, m % 60, second)
    }

    @Test("nothing lost, every device alike, no two local takes of a slot", arguments: Array(UInt64(1)...UInt64(12)))
    func randomDays(seed: UInt64) throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        var rng = SplitMix64(seed: seed) // a failing seed can be replayed
        let all = try sim.devices(seed % 2 == 0 ? 2 : 3)
        let first = try all[0].context()
        try MedicationService(context: first, store: all[0].store).add(sim.daily("Warfarin", ["18:00"], stock: 30))
        try MedicationService(context: first, store: all[0].store).add(sim.daily("Metformin", ["08:00", "20:00"], stock: 60))
        for d in all { _ = try d.sync.initialise(dir: d.folder) }
        for d in all.dropFirst() { try sim.deliver(all[0], to: d); _ = try d.sync.now() }
        var clocks = all.map { _ in 7 * 60 + 50 }
        // Each take a device recorded: `name date time at-second`.
        var recorded = Set<String>()
        var steppedBack = false
        for step in 0..<50 {
            let i = rng.int(0...(all.count - 1)), d = all[i]
            // Mostly forward; now and then a clock steps back (NTP, a dual boot) up to three hours.
            if rng.chance(0.2) { clocks[i] -= rng.int(10...180); steppedBack = true } else { clocks[i] += rng.int(0...120) }
            d.now = at(clocks[i], second: step)
            let context = try d.context()
            do {
                switch rng.int(0...9) {
                case 0, 1, 2:
                    let name = rng.pick(["Warfarin", "Metformin"])
                    for r in try DoseRecorder(context: context, store: d.store).record(.taken, names: [name], at: nil, next: false) {
                        if let slot = r.slot { recorded.insert("\(r.medication.name) \(slot.key.date) \(slot.key.time) \(Int(r.at.timeIntervalSince1970))") }
                    }
                case 3, 4:
                    // A bar click, sometimes a double one.
                    for _ in 0..<rng.int(1...2) {
                        for r in try DoseRecorder(context: context, store: d.store).record(.taken, names: [], at: nil, next: true) {
                            if let slot = r.slot { recorded.insert("\(r.medication.name) \(slot.key.date) \(slot.key.time) \(Int(r.at.timeIntervalSince1970))") }
                        }
                    }
                case 5:
                    _ = try UndoService(context: context, store: d.store).undo(name: rng.chance(0.5) ? "Warfarin" : nil)
                case 6:
                    try DoubleDoseService(context: context, store: d.store).confirm(rng.pick(["Warfarin", "Metformin"]))
                default:
                    // A sync: this device's file goes to some others, and some apply what they have.
                    try d.sync.flush()
                    for other in all where other !== d && rng.chance(0.6) { try sim.deliver(d, to: other) }
                    for other in all where rng.chance(0.5) { _ = try other.sync.now() }
                }
            } catch is DosebarError {}
            try d.sync.flush()
        }
        // The final full sync: every file to every device, twice (an undo or confirm applied late).
        for _ in 0..<2 {
            for d in all { try d.sync.flush() }
            for from in all { for to in all where to !== from { try sim.deliver(from, to: to) } }
            for d in all { _ = try d.sync.now() }
        }
        let takes = try all.map { try allTakes($0) }
        for (i, t) in takes.enumerated() {
            let kept = Set(t.map { $0.split(separator: " ").dropLast().joined(separator: " ") })
            #expect(recorded.isSubset(of: kept), "device \(i) lost takes: \(recorded.subtracting(kept).sorted())")
            #expect(t == takes[0], "device \(i) keeps other takes than device 0:\n\(t)\n---\n\(takes[0])")
        }
        let histories = try all.map { try sim.history($0) }
        for h in histories.dropFirst() { #expect(h == histories[0], "\(h)\n---\n\(histories[0])") }
        let doubles = try all.map { d -> [String] in
            d.now = "2026-11-22T23:30:00+09:00"
            return try DayService(store: d.store, context: try d.context()).snapshot().messages
                .filter { $0.id == MessageID.doubleDose }.map(\.text)
        }
        for m in doubles.dropFirst() { #expect(m == doubles[0], "double_dose messages differ: \(m) vs \(doubles[0])") }
        // A slot is taken at most once on one device (issue 42). A second local take after the clock
        // stepped back is refused by DoseRecorder/DoseResolver on branch `clicks`, not here: until
        // that is merged, such a run is a known issue, any other is a failure.
        for (i, d) in all.enumerated() {
            let local = try localDoubles(d)
            // Whether or not a clock stepped back: a slot is taken once on each device.
            #expect(local.isEmpty, "device \(i) took one slot twice itself\(steppedBack ? " (a clock stepped back)" : ""): \(local)")
        }
    }
}
