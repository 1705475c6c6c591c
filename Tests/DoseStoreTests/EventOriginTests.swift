import DoseCore
import DoseTestSupport
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// `v15-event-origin` (DESIGN §2): every event records where it came from; rows from before keep
/// NULL (nobody knows); another device's dose is `device` whatever it claims; an unknown word is
/// refused by the table. (Fails on the code before: no column, no field.)
@Suite("Schema v15: event.origin")
struct EventOriginTests {
    @Test("each origin is stored and read back, by every way events are read; a synced dose is `device`")
    func roundTrip() throws {
        let store = try DoseStore.inMemory(clock: { instant(86400) })
        let (ids, synced, undo) = try store.write { w -> ([Int64], Int64, Int64) in
            let a = try w.insertMedication(daily("Aspirin", at: ["08:00", "12:00", "16:00", "20:00", "22:00"]))
            var ids: [Int64] = []
            for (i, origin) in DoseEvent.Origin.allCases.enumerated() {
                var e = taken(a, "2026-03-10", ["08:00", "12:00", "16:00", "20:00", "22:00"][i], at: instant(Double(i)))
                e.origin = origin
                ids.append(try w.insertEvent(e, day: day("2026-03-10")))
            }
            var claimed = taken(a, "2026-03-11", "08:00")
            claimed.origin = .terminal
            let synced = try w.insertEvent(claimed, day: day("2026-03-11"),
                                           synced: SyncedDose(id: "op-1", device: "dev-b", stamp: "s", units: 0, hash: 1))
            let target = try w.reader.event(id: ids[1])!
            let undo = try w.insertUndo(of: target, at: instant(60), origin: .notification)
            return (ids, synced, undo)
        }
        try store.read { r in
            for (id, origin) in zip(ids, DoseEvent.Origin.allCases) {
                #expect(try r.event(id: id)?.origin == origin, "by id")
            }
            #expect(try r.event(id: synced)?.origin == .device, "another device's dose")
            #expect(try r.event(id: undo)?.origin == .notification)
            // By days (positional reading), short and long ranges.
            let byDays = try r.events(days: day("2026-03-10")...day("2026-03-11"))
            #expect(Set(byDays.compactMap(\.origin)) == [.terminal, .import, .device, .notification], "the click's take was undone")
            let long = try r.events(days: day("2026-01-01")...day("2026-06-01"))
            #expect(long.map(\.origin) == byDays.map(\.origin))
            // The daemon's look-up: click takes in force after an id.
            #expect(try r.clickTakes(after: 0).isEmpty, "the only click was undone")
            #expect(try r.lastEventID() == undo)
        }
    }

    @Test("clickTakes: only takes with origin click, in force, after the id")
    func clickTakes() throws {
        let store = try DoseStore.inMemory(clock: { instant(86400) })
        let ids = try store.write { w -> [Int64] in
            let a = try w.insertMedication(daily("Aspirin", at: ["08:00", "12:00", "16:00"]))
            var one = taken(a, "2026-03-10", "08:00"); one.origin = .click
            var two = skipped(a, "2026-03-10", "12:00"); two.origin = .click
            var three = taken(a, "2026-03-10", "16:00", at: instant(5)); three.origin = .click
            return [try w.insertEvent(one, day: day("2026-03-10")), try w.insertEvent(two, day: day("2026-03-10")),
                    try w.insertEvent(three, day: day("2026-03-10"))]
        }
        let (all, later) = try store.read { r in (try r.clickTakes(after: 0).map(\.id), try r.clickTakes(after: ids[0]).map(\.id)) }
        #expect(all == [ids[0], ids[2]])
        #expect(later == [ids[2]])
    }

    @Test("a database at v12 with events: migrated, its rows keep no origin; the column refuses an unknown word")
    func migrated() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let path = dir.file("dosebar.sqlite")
        let queue = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
        try Schema.migrator.migrate(queue, upTo: "v12-event-kind-check")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO medication (id, name, name_key, per_dose) VALUES (1, 'Aspirin', 'aspirin', 100)")
            try db.execute(sql: EventKindCheckMigrationTests.insert, arguments: ["taken"])
        }
        try Schema.migrator.migrate(queue)
        try queue.write { db in
            #expect(try String?.fetchAll(db, sql: "SELECT origin FROM event") == [nil])
            let insert = """
                INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, stock_delta, time_known, over_limit, origin)
                VALUES (1, 'taken', 20401, 480, 1762560000, 1762560000, 0, 1, 0, ?)
                """
            #expect(throws: DatabaseError.self) { try db.execute(sql: insert, arguments: ["keyboard"]) }
            try db.execute(sql: insert, arguments: ["click"])
        }
        try queue.close()
        let store = try DoseStore(path: path)
        #expect(try store.read { try $0.event(id: 1)?.origin } == nil)
        #expect(try store.read { try $0.event(id: 2)?.origin } == .click)
    }
}
