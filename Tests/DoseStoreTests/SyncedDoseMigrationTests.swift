import DoseCore
import DoseTestSupport
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// `v11-synced-doses`: another device's applied takes and skips move from `operation` rows into
/// the events they wrote (``SyncedDose``), found again by their operation id.
@Suite("Sync storage: v11 moves other devices' applied doses into their events")
struct SyncedDoseMigrationTests {
    /// A database at `v10-tracked-from` (what the dosebar before this change left), with `rows`
    /// written in raw SQL as that dosebar would have.
    static func v10Database(_ dir: TemporaryDirectory, _ rows: String) throws -> String {
        let path = dir.file("dosebar.sqlite")
        let queue = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
        try Schema.migrator.migrate(queue, upTo: "v10-tracked-from")
        try queue.write { db in
            #expect(try !db.columns(in: "event").contains { $0.name == "op" })
            try db.execute(sql: rows)
        }
        try queue.close()
        return path
    }

    static let mine = "aaaaaaaaaaaaaaaa", theirs = "bbbbbbbbbbbbbbbb", third = "cccccccccccccccc"

    static func stamp(_ n: Int, _ device: String) -> String { "17731296000\(String(format: "%02d", n))-00000-\(device)" }

    @Test("another device's take whose units are out of range is refused at the store's gate, nothing written")
    func syncedUnitsPassTheGate() throws {
        let store = try DoseStore.inMemory(clock: { Date(timeIntervalSince1970: 1_773_200_000) })
        let id = try store.write { try $0.insertMedication(asNeeded("Ibuprofen")) }
        let day = day("2026-03-10")
        let event = DoseEvent(id: 0, medicationID: id, kind: .taken, slot: nil, at: Date(timeIntervalSince1970: 1_773_129_600),
                              loggedAt: Date(timeIntervalSince1970: 1_773_129_600))
        func synced(_ units: Int?) -> SyncedDose {
            SyncedDose(id: UUID().uuidString, device: Self.theirs, stamp: Self.stamp(1, Self.theirs), units: units, hash: 1)
        }
        for units in [-100, Int(Int32.max) * 1_000] {
            #expect(throws: FieldRules.Violation.self, "units \(units)") {
                _ = try store.write { try $0.insertEvent(event, day: day, synced: synced(units)) }
            }
        }
        #expect(try store.read { try $0.events(days: day...day) }.isEmpty)
        for units in [nil, 0, 150] {
            _ = try store.write { try $0.insertEvent(event, day: day, synced: synced(units)) }
        }
        #expect(try store.read { try $0.events(days: day...day) }.count == 3)
    }

    @Test("an applied take or skip of another device moves into its event; own, waiting, shared and other kinds stay")
    func migration() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let (mine, theirs, third) = (Self.mine, Self.theirs, Self.third)
        let path = try Self.v10Database(dir, """
            INSERT INTO meta (key, value) VALUES ('sync.device', '\(mine)');
            INSERT INTO medication (id, name, name_key, per_dose, stock) VALUES (1, 'Aspirin', 'aspirin', 100, 3000);
            INSERT INTO schedule_version (medication_id, effective, kind, times, window_seconds, start_day)
                VALUES (1, 20400, 'daily', '08:00,20:00', 7200, 20400);
            INSERT INTO sync_medicine (gid, medication_id, name_key, device, stamp) VALUES ('g1', 1, 'aspirin', '\(mine)', '\(Self.stamp(0, mine))');
            INSERT INTO event (id, medication_id, kind, day, slot_time, at, logged_at) VALUES
                (1, 1, 'taken', 20522, 480, 1773129600, 1773129600),
                (2, 1, 'skipped', 20522, 1200, 1773172800, 1773172800),
                (3, 1, 'taken', 20523, 480, 1773216000, 1773216000),
                (4, 1, 'taken', 20523, 1200, 1773259200, 1773259200);
            INSERT INTO operation (id, device, stamp, kind, medicine, amount, body, applied, event_id, hash) VALUES
                ('add', '\(mine)', '\(Self.stamp(0, mine))', 'add', 'g1', NULL, '{"kind":"add"}', 1, NULL, 1),
                ('t1', '\(theirs)', '\(Self.stamp(1, theirs))', 'take', 'g1', 150, '', 1, 1, 11),
                ('s2', '\(theirs)', '\(Self.stamp(2, theirs))', 'skip', 'g1', NULL, '', 1, 2, 12),
                ('t3', '\(third)', '\(Self.stamp(3, third))', 'take', 'g1', 100, '', 1, 3, 13),
                ('t3mine', '\(mine)', '\(Self.stamp(4, mine))', 'take', 'g1', 100, '{"kind":"take"}', 1, 3, 14),
                ('t4a', '\(theirs)', '\(Self.stamp(5, theirs))', 'take', 'g1', 100, '', 1, 4, 15),
                ('t4b', '\(third)', '\(Self.stamp(6, third))', 'take', 'g1', 100, '', 1, 4, 16),
                ('st', '\(theirs)', '\(Self.stamp(7, theirs))', 'stock', 'g1', 2000, '', 1, NULL, 17),
                ('w', '\(theirs)', '\(Self.stamp(8, theirs))', 'take', 'g9', 100, '{"kind":"take"}', 0, NULL, 18);
            """)
        let store = try DoseStore(path: path)
        let (rows, events, water) = try store.dbQueue.read { db in
            (Set(try String.fetchAll(db, sql: "SELECT id FROM operation")),
             Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, op, op_device, op_stamp, op_units, op_hash FROM event")
                .map { ($0[0] as Int64, "\($0[1] as String? ?? "-") \($0[2] as String? ?? "-") \($0[4] as Int? ?? -1) \($0[5] as Int64? ?? -1)") }),
             Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT device, stamp FROM sync_device").map { ($0[0] as String, $0[1] as String) }))
        }
        #expect(rows == ["add", "t3", "t3mine", "t4a", "t4b", "st", "w"],
                "own, waiting, other kinds, and an event named by two operations keep their rows")
        #expect(events[1] == "t1 \(theirs) 150 11")
        #expect(events[2] == "s2 \(theirs) -1 12")
        #expect(events[3] == "- - -1 -1" && events[4] == "- - -1 -1")
        #expect(water == [theirs: Self.stamp(2, theirs)], "the highest stamp of a device's doses kept in events")
        // Found again by their ids, the moved ones too.
        let found = try store.read { r in
            [try r.eventID(operation: "t1"), try r.eventID(operation: "s2"), try r.eventID(operation: "t4b")]
        }
        #expect(found == [1, 2, 4])
        let named = try store.read { r in [try r.operation(eventID: 1), try r.operation(eventID: 3)] }
        #expect(named == ["t1", "t3"])
        let hashes = try store.read { r in [try r.operationHash(id: "t1"), try r.operationHash(id: "nope")] }
        #expect(hashes[0] == .some(11) && hashes[1] == nil)
        #expect(try store.read { try $0.deviceProgress() }.first { $0.device == theirs }?.applied == 4)
        // Events stay append-only once moved.
        #expect(throws: (any Error).self) { try store.dbQueue.write { try $0.execute(sql: "UPDATE event SET op = NULL WHERE id = 1") } }
    }
}
