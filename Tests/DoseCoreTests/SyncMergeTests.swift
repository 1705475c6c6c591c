import DoseCore
import Foundation
import Testing

/// `SyncMerge`: the merge rules of sync (DESIGN §10), each alone, with ties and every order of
/// the same operations.
@Suite struct SyncMergeTests {
    /// A stamp of `SyncClock` at millisecond `ms`, counter `c`, on `device`.
    func stamp(_ ms: Int64, _ c: Int = 0, _ device: String = "a") -> String {
        SyncClock(millis: 1_790_000_000_000 + ms, counter: c).stamp(device: device)
    }

    /// Every order of `items` (a handful: all permutations).
    func orders<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i -> [[T]] in
            var rest = items
            let first = rest.remove(at: i)
            return orders(rest).map { [first] + $0 }
        }
    }

    // MARK: - Order

    @Test("stamps order by clock, then counter, then device; equal stamps by operation id")
    func order() {
        #expect(stamp(1) < stamp(2) && stamp(1, 1) < stamp(2, 0) && stamp(1, 0, "a") < stamp(1, 0, "b"))
        // The text order is the value order, past a power of ten too.
        #expect(stamp(9) < stamp(10) && stamp(1, 9) < stamp(1, 10))
        #expect(SyncMerge.precedes((stamp(1), "z"), (stamp(2), "a")))
        #expect(SyncMerge.precedes((stamp(1), "a"), (stamp(1), "b")))
        #expect(!SyncMerge.precedes((stamp(1), "a"), (stamp(1), "a")))
    }

    // MARK: - Registers

    @Test("a register goes to the later stamp, whatever order the writes come in; a tie between devices goes to the device id")
    func registers() {
        #expect(SyncMerge.wins(stamp(1), over: nil))
        #expect(SyncMerge.wins(stamp(2), over: stamp(1)))
        #expect(!SyncMerge.wins(stamp(1), over: stamp(2)))
        #expect(!SyncMerge.wins(stamp(1), over: stamp(1)), "the same write again changes nothing")
        #expect(SyncMerge.wins(stamp(1, 0, "b"), over: stamp(1, 0, "a")), "same millisecond and counter: the device id decides")

        // Schedule versions are keyed by medicine and effective day.
        let d23 = SyncMerge.versionRegister(effective: LocalDate("2026-11-23")!)
        let d24 = SyncMerge.versionRegister(effective: LocalDate("2026-11-24")!)
        #expect(d23 == "v:2026-11-23" && d23 != d24)
        let writes: [(key: String, stamp: String, value: String)] = [
            (d23, stamp(5, 0, "a"), "07:00"), (d23, stamp(9, 0, "b"), "09:00"), (d24, stamp(1, 0, "b"), "12:00"),
            (d23, stamp(9, 0, "a"), "08:00"), ("dose", stamp(3), "100 mg"),
        ]
        for order in orders(writes) {
            #expect(SyncMerge.registers(order) == [d23: "09:00", d24: "12:00", "dose": "100 mg"])
        }
    }

    // MARK: - Doses

    func dose(_ event: Int64, _ at: Double, _ op: String, undone: Bool = false) -> SyncMerge.SlotDose {
        SyncMerge.SlotDose(event: event, at: Date(timeIntervalSince1970: 1_790_000_000 + at), operation: op, undone: undone)
    }

    @Test("a slot taken on two devices is taken once, at the earlier time; the other is a duplicate")
    func slotTakenTwice() {
        let early = dose(2, 600, "op-b"), late = dose(1, 1200, "op-a")
        for order in orders([early, late]) {
            let r = SyncMerge.resolve(order)
            #expect(r.effective == early && r.duplicates == [late])
        }
        #expect(SyncMerge.resolve([]).effective == nil)
        #expect(SyncMerge.resolve([late]) == (late, []))
    }

    @Test("doses at the same time: the smaller operation id is effective, in any order")
    func slotTie() {
        let doses = [dose(7, 600, "op-c"), dose(3, 600, "op-a"), dose(9, 600, "op-b")]
        for order in orders(doses) {
            let r = SyncMerge.resolve(order)
            #expect(r.effective?.operation == "op-a")
            #expect(r.duplicates.map(\.operation) == ["op-b", "op-c"])
        }
    }

    @Test("an undone dose is neither effective nor a duplicate: undoing the winner makes the next one the dose")
    func slotUndone() {
        let r = SyncMerge.resolve([dose(1, 600, "op-a", undone: true), dose(2, 1200, "op-b"), dose(3, 1800, "op-c")])
        #expect(r.effective?.event == 2 && r.duplicates.map(\.event) == [3])
        #expect(SyncMerge.resolve([dose(1, 600, "op-a", undone: true)]) == (nil, []))
    }

    @Test("doses are a set by the second: the same second is the same dose, the next one is not")
    func sameDose() {
        let at = Date(timeIntervalSince1970: 1_790_000_000.4)
        #expect(SyncMerge.isSameDose(at: 1_790_000_000, as: at))
        #expect(SyncMerge.isSameDose(at: 1_790_000_000.9, as: at))
        #expect(!SyncMerge.isSameDose(at: 1_790_000_001, as: at))
        #expect(!SyncMerge.isSameDose(at: 1_789_999_999.9, as: at))
    }

    // MARK: - Undo

    @Test("an undo reverts the operation it names; one naming an unknown operation waits; twice is once")
    func undo() {
        #expect(SyncMerge.undo(of: nil, undone: false) == .wait)
        #expect(SyncMerge.undo(of: 42, undone: false) == .revert(42))
        #expect(SyncMerge.undo(of: 42, undone: true) == .nothing)
    }

    // MARK: - Stock

    typealias Op = SyncMerge.StockOperation

    @Test("refill --set is absolute at its stamp; later refills and takes apply on top")
    func setThenDelta() {
        let ops = [Op(stamp: stamp(1), id: "1", .set(30)), Op(stamp: stamp(2), id: "2", .take(units: 2, event: 10)),
                   Op(stamp: stamp(3), id: "3", .refill(5)), Op(stamp: stamp(4), id: "4", .take(units: 1, event: 11))]
        for order in orders(ops) {
            #expect(SyncMerge.stock(order, effective: [10, 11], maximum: 1_000_000) == .units(32))
        }
    }

    @Test("deltas before a set count for nothing after it; a refill before any set starts from 0; a take before any counts nothing")
    func deltaBeforeSet() {
        let before = [Op(stamp: stamp(1), id: "1", .refill(10)), Op(stamp: stamp(2), id: "2", .take(units: 1, event: 10))]
        let set = Op(stamp: stamp(3), id: "3", .set(20))
        for order in orders(before + [set]) {
            #expect(SyncMerge.stock(order, effective: [10], maximum: 1_000_000) == .units(20))
        }
        #expect(SyncMerge.stock(before, effective: [10], maximum: 1_000_000) == .units(9))
        #expect(SyncMerge.stock(Array(before.reversed()), effective: [10], maximum: 1_000_000) == .units(9))
        #expect(SyncMerge.stock([Op(stamp: stamp(1), id: "1", .take(units: 1, event: 10)), Op(stamp: stamp(2), id: "2", .refill(3))],
                                effective: [10], maximum: 1_000_000) == .units(3))
    }

    @Test("only effective takes count, each event once; stock stays within 0 and the maximum; a set to nothing stops tracking")
    func stockBounds() {
        let takes = [Op(stamp: stamp(1), id: "0", .set(2)),
                     // The same dose seen on two devices (one event), a duplicate (11), an undone one (12), one not applied.
                     Op(stamp: stamp(2), id: "1", .take(units: 1, event: 10)), Op(stamp: stamp(3), id: "2", .take(units: 1, event: 10)),
                     Op(stamp: stamp(4), id: "3", .take(units: 1, event: 11)), Op(stamp: stamp(5), id: "4", .take(units: 1, event: 12)),
                     Op(stamp: stamp(6), id: "5", .take(units: 1, event: nil))]
        #expect(SyncMerge.stock(takes, effective: [10], maximum: 1_000_000) == .units(1))
        #expect(SyncMerge.stock(takes, effective: [10, 11, 12], maximum: 1_000_000) == .units(0), "never below 0")
        #expect(SyncMerge.stock([Op(stamp: stamp(1), id: "1", .set(8)), Op(stamp: stamp(2), id: "2", .refill(5))],
                                effective: [], maximum: 10) == .units(10))
        #expect(SyncMerge.stock([Op(stamp: stamp(1), id: "1", .set(8)), Op(stamp: stamp(2), id: "2", .set(nil))],
                                effective: [], maximum: 10) == .untracked)
        #expect(SyncMerge.stock([Op(stamp: stamp(1), id: "1", .take(units: 1, event: 10))], effective: [10], maximum: 10) == .untouched,
                "takes alone do not make a stock")
        #expect(SyncMerge.stock([], effective: [], maximum: 10) == .untouched)
    }

    @Test("two operations with one stamp apply in id order, in any order of arrival")
    func stockTie() {
        let ops = [Op(stamp: stamp(1), id: "b", .set(5)), Op(stamp: stamp(1), id: "a", .set(7)), Op(stamp: stamp(1), id: "c", .refill(1))]
        for order in orders(ops) {
            #expect(SyncMerge.stock(order, effective: [], maximum: 100) == .units(6))
        }
    }

    // MARK: - Medicines

    typealias Add = SyncMerge.MedicineAdd
    typealias Known = SyncMerge.KnownMedicine

    @Test("a name added on two devices is one medicine: the one first added under it by another device, renames since or not")
    func addSameName() {
        let zincA = Known(id: 1, adds: [Add(gid: "g1", nameKey: "zinc", device: "a", stamp: stamp(5, 0, "a"))], activeNameKey: "zinc")
        let zincC = Known(id: 2, adds: [Add(gid: "g2", nameKey: "zinc", device: "c", stamp: stamp(3, 0, "c"))], activeNameKey: nil)
        let renamed = Known(id: 3, adds: [Add(gid: "g3", nameKey: "zinc", device: "d", stamp: stamp(1, 0, "d"))],
                            activeNameKey: "zinc forte")
        let add = Add(gid: "new", nameKey: "zinc", device: "b", stamp: stamp(9, 0, "b"))
        for order in orders([zincA, zincC, renamed]) {
            #expect(SyncMerge.match(add, among: order) == .same(3), "added first (by stamp), though renamed since")
        }
        #expect(SyncMerge.match(add, among: []) == .new)
        // Equal stamps (two devices' clocks and counters alike): decided by the global id.
        let tie = [Known(id: 8, adds: [Add(gid: "gb", nameKey: "zinc", device: "c", stamp: stamp(1, 0, "c"))], activeNameKey: nil),
                   Known(id: 9, adds: [Add(gid: "ga", nameKey: "zinc", device: "c", stamp: stamp(1, 0, "c"))], activeNameKey: nil)]
        for order in orders(tie) { #expect(SyncMerge.match(add, among: order) == .same(9)) }
    }

    @Test("an add is never a medicine its own device added under that name, nor one it names as distinct")
    func addDistinct() {
        let ownAdd = Known(id: 1, adds: [Add(gid: "g1", nameKey: "zinc", device: "b", stamp: stamp(1, 0, "b"))], activeNameKey: nil)
        let fromA = Known(id: 2, adds: [Add(gid: "g2", nameKey: "zinc", device: "a", stamp: stamp(2, 0, "a"))], activeNameKey: nil)
        let readded = Add(gid: "g9", nameKey: "zinc", device: "b", stamp: stamp(9, 0, "b"), distinctFrom: ["g2"])
        #expect(SyncMerge.match(readded, among: [ownAdd, fromA]) == .new)
        #expect(SyncMerge.match(readded, among: [ownAdd]) == .wait, "the medicine it is not is not here yet")
        // Named as distinct by one of its global ids: the whole medicine is out.
        let merged = Known(id: 2, adds: fromA.adds + [Add(gid: "g3", nameKey: "zinc", device: "c", stamp: stamp(3, 0, "c"))],
                           activeNameKey: "zinc")
        let other = Add(gid: "g8", nameKey: "zinc", device: "d", stamp: stamp(8, 0, "d"), distinctFrom: ["g3"])
        #expect(SyncMerge.match(other, among: [merged]) == .new)
        #expect(SyncMerge.match(Add(gid: "g8", nameKey: "zinc", device: "d", stamp: stamp(8, 0, "d")), among: [merged]) == .same(2))
    }

    @Test("an add of a name no device added is the active medicine renamed to it, if any")
    func addRenamedTo() {
        let renamedTo = Known(id: 4, adds: [Add(gid: "g4", nameKey: "aspirin", device: "a", stamp: stamp(1, 0, "a"))],
                              activeNameKey: "zinc")
        let add = Add(gid: "g5", nameKey: "zinc", device: "b", stamp: stamp(2, 0, "b"))
        #expect(SyncMerge.match(add, among: [renamedTo]) == .same(4))
        var distinct = add
        distinct.distinctFrom = ["g4"]
        #expect(SyncMerge.match(distinct, among: [renamedTo]) == .new)
    }

    // MARK: - Clock

    @Test("the hybrid logical clock never goes back and comes after every stamp it received")
    func clock() {
        var c = SyncClock(millis: 0, counter: 0)
        c.tick(now: Date(timeIntervalSince1970: 1_790_000_000))
        c.tick(now: Date(timeIntervalSince1970: 1_789_999_000))
        #expect(c == SyncClock(millis: 1_790_000_000_000, counter: 1))
        c.receive(SyncClock(millis: 1_790_000_000_000, counter: 0))
        #expect(c.counter == 1, "an older stamp changes nothing")
        c.receive(SyncClock(millis: 1_790_000_000_500, counter: 2))
        c.tick(now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(c.state == "1790000000500-00003")
    }

    @Test("a whole history stamped at one instant keeps the text order: past 99,999 the clock runs a millisecond ahead")
    func clockCounterFull() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        var c = SyncClock(millis: 0, counter: 0)
        var previous = ""
        for _ in 0..<(SyncClock.maxCounter + 3) {
            c.tick(now: now)
            let stamp = c.stamp(device: "a")
            #expect(stamp > previous && stamp.count == 21)
            previous = stamp
        }
        #expect(c == SyncClock(millis: 1_790_000_000_001, counter: 1))
    }

    @Test("a slot's live takes are a double dose when two operations of two devices took it; confirmed once every take is named")
    func doubleDose() {
        let laptop = SyncMerge.SlotTake(operation: "op-a", device: "laptop")
        let desktop = SyncMerge.SlotTake(operation: "op-b", device: "desktop")
        let laptopAgain = SyncMerge.SlotTake(operation: "op-c", device: "laptop")
        #expect(SyncMerge.doubleDose([], confirmed: []) == .none)
        #expect(SyncMerge.doubleDose([laptop], confirmed: []) == .none)
        // One device's two takes are not another device's dose (a local second take is refused where it is made).
        #expect(SyncMerge.doubleDose([laptop, laptopAgain], confirmed: []) == .none)
        // One operation seen twice is one take.
        #expect(SyncMerge.doubleDose([laptop, laptop], confirmed: []) == .none)
        for order in [[laptop, desktop], [desktop, laptop]] {
            #expect(SyncMerge.doubleDose(order, confirmed: []) == .open)
            #expect(SyncMerge.doubleDose(order, confirmed: ["op-a"]) == .open, "a confirmation names every take")
            #expect(SyncMerge.doubleDose(order, confirmed: ["op-a", "op-b"]) == .confirmed)
        }
        // A third take after a confirmation is a new warning.
        #expect(SyncMerge.doubleDose([laptop, desktop, laptopAgain], confirmed: ["op-a", "op-b"]) == .open)
    }

    @Test("double_dose: after late doses, before due ones; a confirmed one is no message; words in both languages")
    func doubleDoseMessage() {
        let slot = SlotKey(medicationID: 1, date: LocalDate("2026-11-22")!, time: LocalTime("18:00")!)
        let zone = Zone(TimeZone(identifier: "Asia/Seoul")!)
        let takes = [DoubleDose.Take(device: "laptop", at: ISO8601.parse("2026-11-22T18:10:00+09:00")!, operation: "op-a"),
                     DoubleDose.Take(device: "desktop", at: ISO8601.parse("2026-11-22T18:00:00+09:00")!, operation: "op-b")]
        let d = DoubleDose(medication: "Warfarin", slot: slot, takes: takes, confirmed: false)
        #expect(d.takes.map(\.device) == ["desktop", "laptop"], "earliest first")
        let today = LocalDate("2026-11-22")!
        #expect(Catalog.english.render(d.message(today: today, zone: zone)).text == "Warfarin 18:00 taken twice: desktop 18:00, laptop 18:10")
        #expect(Catalog.korean.render(d.message(today: today, zone: zone)).text == "Warfarin 18:00 두 번 복용됨: desktop 18:00, laptop 18:10")
        #expect(Catalog.english.render(d.message(today: today.adding(days: 1), zone: zone)).text
                == "Warfarin 2026-11-22 18:00 taken twice: desktop 18:00, laptop 18:10", "another day's slot names its day")
        let order = MessageID.all
        #expect(order.firstIndex(of: MessageID.late)! < order.firstIndex(of: MessageID.doubleDose)!
                && order.firstIndex(of: MessageID.doubleDose)! < order.firstIndex(of: MessageID.dueNow)!)
    }
}
