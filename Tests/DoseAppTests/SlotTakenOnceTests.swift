import DoseApp
import DoseCore
import DoseStore
import DoseTestSupport
import Foundation
import Testing

/// A slot is taken at most once whatever the clock says (issue 42): any sequence of clock moves
/// (forward and back) and takes, skips, clicks, notification answers and undos on one device
/// leaves no slot with two live events.
@Suite("a slot taken once")
struct SlotTakenOnceTests {
    static let first = ISO8601.parse("2026-11-21T12:00:00+09:00")!
    static let last = ISO8601.parse("2026-11-24T12:00:00+09:00")!

    static func medicine(_ name: String, _ times: [String], window: Int) -> Medication {
        var m = Medication(id: 0, name: name, versions: [ScheduleVersion(effective: LocalDate("2026-11-20")!, schedule: Schedule(
            recurrence: .daily, times: times.map { LocalTime($0)! }, window: window, start: LocalDate("2026-11-20")!, until: nil))])
        m.stock = 500
        return m
    }

    static func stamp(_ d: Date) -> String { ISO8601.format(d, offset: 9 * 3600) }

    @Test("random clocks and commands never leave two live events on one slot", arguments: [UInt64(42), 7, 2026])
    func neverTwice(seed: UInt64) throws {
        let root = NSTemporaryDirectory() + "dosebar-once-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var g = SplitMix64(seed: seed)
        var now = Self.first.addingTimeInterval(Double(g.int(0...86400)))
        var store = try AppContext.test(root: root, now: Self.stamp(now)).openStore(.create)
        let meds = [Self.medicine("Metformin", ["08:00", "20:00"], window: 7200), Self.medicine("Warfarin", ["18:00"], window: 3600),
                    Self.medicine("Night Pill", ["23:30"], window: 3600)]
        var ids: [Int64] = []
        for m in meds { ids.append(try store.write { try $0.insertMedication(m) }) }
        let names = meds.map(\.name)
        var recorded = 0, undone: Set<SlotKey> = [], again = 0

        for step in 0..<160 {
            // The clock moves forward most of the time, and back (NTP, a dual boot, a replay) now and then.
            let move = g.chance(0.3) ? -g.int(60...(6 * 3600)) : g.int(60...(5 * 3600))
            now = min(Self.last, max(Self.first, now.addingTimeInterval(Double(move))))
            let context = try AppContext.test(root: root, now: Self.stamp(now))
            // Opened at each step, as each command opens it: the store's write gate reads the context's clock.
            store = try context.openStore()
            let recorder = DoseRecorder(context: context, store: store)
            let name = g.pick(names)
            var got: [DoseRecorder.Recorded] = []
            let what: String
            do {
                switch g.int(0...8) {
                case 0: what = "take \(name)"; got = try recorder.record(.taken, names: [name], at: nil, next: false)
                case 1: what = "take"; got = try recorder.record(.taken, names: [], at: nil, next: false)
                case 2: what = "take --next"; got = try recorder.record(.taken, names: [], at: nil, next: true)
                case 3: what = "skip \(name)"; got = try recorder.record(.skipped, names: [name], at: nil, next: false)
                case 4:
                    let at = now.addingTimeInterval(-Double(g.int(0...(3 * 3600))))
                    what = "take \(name) --at \(Self.stamp(at))"
                    got = try recorder.record(.taken, names: [name], at: at, next: false)
                case 5:
                    let m = meds[names.firstIndex(of: name)!]
                    let time = g.pick(m.versions[0].schedule.times)
                    what = "take \(name) --slot \(time)"
                    got = try recorder.record(.taken, names: [name], at: nil, next: false, slot: (nil, time))
                case 6:
                    // A notification's answer on a slot of yesterday, today or tomorrow.
                    let i = names.firstIndex(of: name)!
                    let day = context.today.adding(days: g.int(-1...0))
                    let key = SlotKey(medicationID: ids[i], date: day, time: g.pick(meds[i].versions[0].schedule.times))
                    let kind: DoseEvent.Kind = g.chance(0.7) ? .taken : .skipped
                    what = "notification \(kind) \(key)"
                    got = try recorder.record(kind, slots: [key])
                default:
                    let byName = g.chance(0.5)
                    what = byName ? "undo \(name)" : "undo"
                    let u = try UndoService(context: context, store: store).undo(name: byName ? name : nil)
                    if let key = u.event.slot { undone.insert(key) }
                }
            } catch let error as DosebarError {
                #expect(error.exitCode == 65 || error.exitCode == 64, "\(error) (seed \(seed), step \(step))")
                continue
            }
            recorded += got.count
            again += got.compactMap(\.slot?.key).filter { undone.contains($0) }.count

            let live = try store.read { try $0.events(days: LocalDate("2026-11-20")!...LocalDate("2026-11-25")!) }
            var seen: [SlotKey: Date] = [:]
            for e in live {
                guard let key = e.slot else { continue }
                if let earlier = seen[key] {
                    Issue.record("\(key) has two live events (\(Self.stamp(earlier)), \(Self.stamp(e.at))) after \(what) at \(Self.stamp(now)), seed \(seed), step \(step)")
                    return
                }
                seen[key] = e.at
            }
        }
        #expect(recorded > 10, "seed \(seed): only \(recorded) doses recorded")
        #expect(again > 0, "seed \(seed): no slot taken again after an undo")
    }
}
