import DoseCore
import Foundation
import Testing

/// Take-then-undo is the identity on state and stock (DESIGN §2, §3 Stock), at the DoseCore level:
/// an append-only event log with DoseStore's "effective" rule and the CLI's stock arithmetic.
@Suite struct PropertyUndoTests {
    /// An in-memory stand-in for the event table: events are appended, an undo is an event that
    /// cancels another, and what DoseCore sees are the taken/skipped events not cancelled
    /// (`StoreReader.effective`). Stock moves as `DoseLogger` and `Undo` move it.
    struct Log {
        var all: [DoseEvent] = []
        var stock: [Int64: Int]
        var nextID: Int64 = 1

        var effective: [DoseEvent] {
            let cancelled = Set(all.compactMap(\.target))
            return all.filter { $0.kind != .undone && !cancelled.contains($0.id) }
        }

        /// `take`: subtract min(stock, per dose), never below 0, and remember how much.
        mutating func take(_ m: Medication, slot: SlotKey?, kind: DoseEvent.Kind, at: Date) {
            var delta = 0
            if kind == .taken, let s = stock[m.id] {
                delta = min(s, m.perDose)
                stock[m.id] = s - delta
            }
            all.append(DoseEvent(id: nextID, medicationID: m.id, kind: kind, slot: slot, at: at, loggedAt: at, stockDelta: delta))
            nextID += 1
        }

        /// `undo [NAME]`: cancel the newest effective event (of that medicine) and restore its stock.
        @discardableResult
        mutating func undo(_ medicationID: Int64? = nil, at: Date) -> Bool {
            guard let e = effective.last(where: { medicationID == nil || $0.medicationID == medicationID }) else { return false }
            all.append(DoseEvent(id: nextID, medicationID: e.medicationID, kind: .undone, slot: nil, at: at, loggedAt: at, target: e.id))
            nextID += 1
            if e.stockDelta > 0, let s = stock[e.medicationID] { stock[e.medicationID] = s + e.stockDelta }
            return true
        }
    }

    /// Everything a snapshot shows at `t` and at the end of the day, plus stock.
    static func state(_ w: World, _ log: Log, at t: Date) -> [Snapshot] {
        var meds = w.medications
        for i in meds.indices { if let s = log.stock[meds[i].id] { meds[i].stock = s } }
        let plan = DayPlan(date: w.day, medications: meds, events: log.effective, zone: w.zone)
        let b = SnapshotBuilder(plan: plan, history: History(today: w.day, recent: []), medications: meds)
        return [b.snapshot(at: t, validUntil: t), b.snapshot(at: plan.dayEnd.addingTimeInterval(-1), validUntil: plan.dayEnd)]
    }

    @Test(arguments: Property.seeds(150, salt: 20))
    func takeThenUndoIsTheIdentity(seed: UInt64) throws {
        var g = Gen(seed: seed)
        var w = g.world(seed: seed)
        w.events = []
        var log = Log(stock: Dictionary(uniqueKeysWithValues: w.medications.compactMap { m in m.stock.map { (m.id, $0) } }))
        let initial = log.stock
        let plan0 = w.plan
        let active = w.medications.filter { $0.archivedOn.map { $0 > w.day } ?? true }
        guard !active.isEmpty else { return }
        // A day of random operations at increasing instants; before each, a take + undo round trip.
        var t = plan0.dayStart
        var roundTrips = 0
        for _ in 0..<g.rng.int(4...14) {
            t = g.instant(t, plan0.dayEnd)
            let m = g.rng.pick(active)
            let plan = DayPlan(date: w.day, medications: w.medications, events: log.effective, zone: w.zone)
            guard let target = try? DoseResolver.target(for: m, plan: plan, now: t, allowExtra: true) else { continue }
            let slot: SlotKey? = if case .slot(let s) = target { s.key } else { nil }

            let before = PropertyUndoTests.state(w, log, at: t)
            let stockBefore = log.stock, effectiveBefore = log.effective
            var probe = log
            probe.take(m, slot: slot, kind: .taken, at: t)
            let during = PropertyUndoTests.state(w, probe, at: t)
            // The take is visible (so the round trip below is not vacuous) …
            if let slot {
                let d = during[0].doses.first { $0.medicationID == m.id && $0.scheduled.date == plan.slots.first { $0.key == slot }!.instant }
                #expect(d?.status.isTaken == true, "the take shows; \(Property.label(seed))")
            } else {
                #expect(during[0].asNeeded.first { $0.medication == m.name }?.takenToday
                        == before[0].asNeeded.first { $0.medication == m.name }!.takenToday + 1, "\(Property.label(seed))")
            }
            // … and undoing it gives back exactly the state and stock of before.
            let undid = probe.undo(at: t)
            #expect(undid)
            #expect(probe.effective == effectiveBefore, "\(Property.label(seed))")
            #expect(probe.stock == stockBefore, "stock after take+undo; \(Property.label(seed))")
            #expect(PropertyUndoTests.state(w, probe, at: t) == before, "snapshot after take+undo at \(w.zone.local(t).iso8601); \(Property.label(seed))")
            roundTrips += 1

            // Then really do something: take, skip, or undo something older.
            switch g.rng.int(0...5) {
            case 0...2: log.take(m, slot: slot, kind: .taken, at: t)
            case 3: if slot != nil { log.take(m, slot: slot, kind: .skipped, at: t) }
            case 4: log.undo(at: t)
            default: log.undo(g.rng.pick(active).id, at: t)
            }
            // Stock is never negative and always equals initial − Σ stock_delta of effective events.
            for (id, s) in log.stock {
                let used = log.effective.filter { $0.medicationID == id }.map(\.stockDelta).reduce(0, +)
                #expect(s >= 0 && s == initial[id]! - used, "stock of \(id): \(s), initial \(initial[id]!), used \(used); \(Property.label(seed))")
            }
        }
        _ = roundTrips
    }
}
