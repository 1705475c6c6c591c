import DoseCore
import DoseTestSupport
import Foundation
import Testing
@testable import DoseStore

/// The store selects effective events in SQL (`StoreReader.effective`), the translation of
/// ``CountingEvents`` rules 1–3. Random small logs (takes, skips, undos, with and without the
/// operations and duplicates sync adds) are written through the store to a real database, and
/// what its queries call effective must be what ``CountingEvents/effective(_:duplicates:)`` says
/// (and what `events(days:)` reads of a long range, where it asks the rule itself).
@Suite("The store's effective events are CountingEvents'")
struct CountingEventsStoreTests {
    static let days = [day("2026-03-10"), day("2026-03-11")]
    static let times = [time("08:00"), time("20:00")]

    @Test func storeSelectsWhatTheRuleCounts() throws {
        // One database: each log has medicines of its own.
        let f = try Fixture()
        var effective: [Int64] = []
        for seed in UInt64(1)...500 { effective += try check(seed: seed, in: f) }
        #expect(try f.store.read { try $0.latestUndoable(medicationID: nil)?.id } == effective.max())
    }

    /// One random log: written, then read back through every query that uses `StoreReader.effective`.
    /// Its effective events' ids.
    private func check(seed: UInt64, in f: Fixture) throws -> [Int64] {
        var rng = SplitMix64(seed: seed)
        let (scheduled, extra) = try f.store.write { w in
            (try w.insertMedication(daily("Aspirin \(seed)", at: ["08:00", "20:00"])), try w.insertMedication(asNeeded("Ibuprofen \(seed)")))
        }
        // With sync on, doses have operations (zero to two each) and every slot is resolved; off, neither.
        let synced = rng.chance(0.8)
        var log: [DoseEvent] = []
        var firstOperation: [Int64: (stamp: String, id: String)] = [:]
        var opCount = 0
        try f.store.write { w in
            for step in 0..<rng.int(1...9) {
                let logged = instant(Double(step) * 60)
                let live = log.filter { CountingEvents.isDose($0.kind) && !CountingEvents.cancelled(in: log).contains($0.id) }
                if !live.isEmpty, rng.chance(0.3) {
                    let id = try w.insertUndo(of: rng.pick(live), at: logged)
                    log.append(try #require(try w.reader.event(id: id)))
                    continue
                }
                let date = rng.pick(Self.days)
                var e: DoseEvent
                if rng.chance(0.75) {
                    let slot = SlotKey(medicationID: scheduled, date: date, time: rng.pick(Self.times))
                    // Few distinct instants, so doses of one slot often tie on the time they were taken.
                    let at = instant(Double(date.dayNumber - Self.days[0].dayNumber) * 86_400
                                     + Double(slot.time.minuteOfDay - 480) * 60 + Double(rng.pick([-600, 0, 0, 600])))
                    e = DoseEvent(id: 0, medicationID: scheduled, kind: rng.chance(0.7) ? .taken : .skipped, slot: slot, at: at, loggedAt: logged)
                } else {
                    let at = instant(Double(date.dayNumber - Self.days[0].dayNumber) * 86_400 + Double(rng.int(0...3)) * 3_600)
                    e = DoseEvent(id: 0, medicationID: extra, kind: .taken, slot: nil, at: at, loggedAt: logged)
                }
                e.id = try w.insertEvent(e, day: e.slot?.date ?? date)
                log.append(e)
                guard synced else { continue }
                // Zero, one or two operations name the dose (one device's, or a take seen on two).
                for _ in 0..<rng.int(0...2) {
                    opCount += 1
                    let op = (stamp: "0000000000\(rng.int(1...4))", id: "op-\(rng.int(1...9))-\(seed)-\(opCount)")
                    try #require(try w.insertOperation(StoredOperation(id: op.id, device: "dev", stamp: op.stamp, kind: e.kind == .taken ? "take" : "skip",
                                                          medicine: nil, amount: nil, body: "", applied: true, eventID: e.id)))
                    if firstOperation[e.id].map({ SyncMerge.precedes(op, $0) }) ?? true { firstOperation[e.id] = op }
                }
            }
            guard synced else { return }
            for date in Self.days {
                for t in Self.times { try w.resolveSlot(medicationID: scheduled, day: date, slotTime: t) }
            }
        }

        // The rule: rule 3 splits each slot's live doses (when sync resolved them), rules 1–3 give the effective set.
        var duplicates = Set<Int64>()
        if synced {
            let cancelled = CountingEvents.cancelled(in: log)
            var bySlot: [SlotKey: [CountingEvents.MergeKey]] = [:]
            for e in log where CountingEvents.counts(e, cancelled: cancelled) {
                guard let slot = e.slot else { continue }
                bySlot[slot, default: []].append((e.at, firstOperation[e.id]?.id ?? "", e.id))
            }
            for doses in bySlot.values { duplicates.formUnion(doses.sorted(by: CountingEvents.keeps).dropFirst().map(\.event)) }
        }
        let effective = CountingEvents.effective(log, duplicates: duplicates)
        let context = "seed \(seed), synced \(synced): \(log.map { "#\($0.id) \($0.kind) \($0.slot?.description ?? "-") at \($0.at.timeIntervalSince1970) target \($0.target ?? 0)" })"

        let read = try f.store.read { r in
            (events: try r.events(days: Self.days[0]...Self.days[1]).filter { [scheduled, extra].contains($0.medicationID) },
             // A range long enough that the reader asks the rule itself instead of SQL.
             long: try r.events(days: Self.days[0].adding(days: -StoreReader.longRange)...Self.days[1])
                .filter { [scheduled, extra].contains($0.medicationID) },
             latestScheduled: try r.latestUndoable(medicationID: scheduled)?.id,
             latestExtra: try r.latestUndoable(medicationID: extra)?.id)
        }
        let dayOf = { (e: DoseEvent) in e.slot?.date ?? Self.days[0].adding(days: Int(e.at.timeIntervalSince(instant()) / 86_400)) }
        try #require(read.events.map(\.id) == effective.sorted { (dayOf($0), $0.id) < (dayOf($1), $1.id) }.map(\.id), "\(context)")
        try #require(read.long.map(\.id) == read.events.map(\.id), "\(context)")
        try #require(read.latestScheduled == effective.filter { $0.medicationID == scheduled }.map(\.id).max(), "\(context)")
        try #require(read.latestExtra == effective.filter { $0.medicationID == extra }.map(\.id).max(), "\(context)")
        return effective.map(\.id)
    }
}
