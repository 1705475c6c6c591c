import DoseCore
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// Another device's doses go in through ``RawStatement`` (SQLite's C API, values bound by
/// position): every column as GRDB would have written it, NULL for what a dose lacks, the id found
/// again, and SQLite's errors mapped as before.
@Suite struct RawStatementTests {
    @Test("a synced dose's columns, NULLs included, and its id and hash found again; an unknown medicine refused")
    func syncedDoses() throws {
        let f = try Fixture()
        let (a, b) = try f.store.write { w in (try w.insertMedication(daily("Aspirin")), try w.insertMedication(asNeeded("Ibuprofen"))) }
        let take = DoseEvent(id: 0, medicationID: a, kind: .taken,
                             slot: SlotKey(medicationID: a, date: day("2026-03-10"), time: time("08:00")),
                             at: instant(-600.5), loggedAt: instant(-600.5), timeKnown: false)
        let skip = DoseEvent(id: 0, medicationID: b, kind: .skipped, slot: nil, at: instant(30), loggedAt: instant(30), overLimit: true)
        let (i, j) = try f.store.write { w in
            (try w.insertEvent(take, day: day("2026-03-10"),
                               synced: SyncedDose(id: "op-1", device: "0123456789abcdef", stamp: "s1", units: 150, hash: -7)),
             try w.insertEvent(skip, day: day("2026-03-10"),
                               synced: SyncedDose(id: "op-2", device: "0123456789abcdef", stamp: "s2", units: nil, hash: Int64.max)))
        }
        let rows = try f.store.read { r in
            try Row.fetchAll(r.db, sql: """
                SELECT id, medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known, over_limit,
                       op, op_device, op_stamp, op_units, op_hash, typeof(at) AS at_type FROM event ORDER BY id
                """)
        }
        #expect(rows.count == 2)
        #expect(rows[0]["id"] as Int64 == i && rows[0]["medication_id"] as Int64 == a && rows[0]["kind"] as String == "taken")
        #expect(rows[0]["day"] as Int == day("2026-03-10").dayNumber && rows[0]["slot_time"] as Int? == 480)
        #expect(rows[0]["at"] as Double == take.at.timeIntervalSince1970 && rows[0]["at_type"] as String == "real")
        #expect(rows[0]["time_known"] as Int == 0 && rows[0]["over_limit"] as Int == 0 && rows[0]["target"] as Int64? == nil)
        #expect(rows[0]["op"] as String == "op-1" && rows[0]["op_stamp"] as String == "s1" && rows[0]["op_units"] as Int? == 150)
        #expect(rows[0]["op_hash"] as Int64 == -7)
        #expect(rows[1]["id"] as Int64 == j && rows[1]["slot_time"] as Int? == nil && rows[1]["op_units"] as Int? == nil)
        #expect(rows[1]["over_limit"] as Int == 1 && rows[1]["op_hash"] as Int64 == Int64.max)
        let found = try f.store.read { r in
            [try r.operationHash(id: "op-1"), try r.operationHash(id: "op-2"), try r.operationHash(id: "op-3"),
             try r.operationHash(id: "op-1", stamp: "s3", highWater: "s2"), try r.operationHash(id: "op-1", stamp: "s1", highWater: "s2")]
        }
        #expect(found == [.some(-7), .some(Int64.max), nil, nil, .some(-7)])
        // The same id twice: SQLite's unique index refuses it, and nothing of it is written.
        #expect(throws: (any Error).self) {
            try f.store.write { w in
                try w.insertEvent(take, day: day("2026-03-10"), synced: SyncedDose(id: "op-1", device: "d", stamp: "s9", units: 1, hash: 1))
            }
        }
        // An unknown medicine: the foreign key's error maps to the store's own, as with GRDB.
        var unknown = take
        unknown.medicationID = 999
        unknown.slot = SlotKey(medicationID: 999, date: day("2026-03-10"), time: time("08:00"))
        #expect(throws: DosebarError.badData("no medicine with id 999")) {
            try f.store.write { w in
                try w.insertEvent(unknown, day: day("2026-03-10"), synced: SyncedDose(id: "op-4", device: "d", stamp: "s4", units: 1, hash: 1))
            }
        }
        #expect(try f.store.read { r in try Int.fetchOne(r.db, sql: "SELECT count(*) FROM event") } == 2)
    }
}
