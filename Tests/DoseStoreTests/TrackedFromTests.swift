import DoseCore
import DoseTestSupport
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// A medicine's tracking start (DESIGN §3 Tracking start): stored, read, moved only earlier, and
/// derived by `v10-tracked-from` for a database an older dosebar wrote.
@Suite("Tracking start")
struct TrackedFromTests {
    /// A database at `v9-over-limit` (what the dosebar before this change left), built by the
    /// migrator of the time on a real file, then `rows` written in raw SQL as that dosebar would have.
    static func v9Database(_ dir: TemporaryDirectory, _ rows: String) throws -> String {
        let path = dir.file("dosebar.sqlite")
        let queue = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
        try Schema.migrator.migrate(queue, upTo: "v9-over-limit")
        try queue.write { db in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").last == "v9-over-limit")
            #expect(try !db.columns(in: "medication").contains { $0.name == "tracked_from" })
            try db.execute(sql: rows)
        }
        try queue.close()
        return path
    }

    static func medicine(_ id: Int, _ name: String) -> String {
        """
        INSERT INTO medication (id, name, name_key, per_dose) VALUES (\(id), '\(name)', '\(name.lowercased())', 100);
        INSERT INTO schedule_version (medication_id, effective, kind, times, window_seconds, start_day)
            VALUES (\(id), 20400, 'daily', '08:00', 7200, 20400);
        """
    }

    /// 2026-03-10T08:00:00Z + seconds, as the raw rows store it.
    static func at(_ seconds: Double) -> Double { instant(seconds).timeIntervalSince1970 }

    static func stamp(_ seconds: Double, device: String = "0123456789abcdef") -> String {
        String(Int64(at(seconds) * 1000)) + "-00000-" + device
    }

    @Test("v10 on a v9 database: the add's stamp, else the earliest taken or skipped event (an undone one too), else NULL")
    func migration() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let path = try Self.v9Database(dir, [
            // 1: events only, the earliest a skip; a later take undone; the undo itself is not an event of a dose.
            Self.medicine(1, "Events"),
            """
            INSERT INTO event (id, medication_id, kind, day, slot_time, at, logged_at) VALUES
                (1, 1, 'taken', 20522, 480, \(Self.at(0)), \(Self.at(0))),
                (2, 1, 'skipped', 20521, 480, \(Self.at(-86_400)), \(Self.at(0)));
            INSERT INTO event (id, medication_id, kind, day, slot_time, at, logged_at) VALUES
                (3, 1, 'taken', 20520, 480, \(Self.at(-3 * 86_400)), \(Self.at(0)));
            INSERT INTO event (id, medication_id, kind, day, slot_time, at, logged_at, target) VALUES
                (4, 1, 'undone', 20520, NULL, \(Self.at(-5 * 86_400)), \(Self.at(0)), 3);
            """,
            // 2: nothing known.
            Self.medicine(2, "Nothing"),
            // 3: added on a synced device (two global ids: the earlier add wins) before its first event.
            Self.medicine(3, "Synced"),
            """
            INSERT INTO sync_medicine (gid, medication_id, name_key, device, stamp) VALUES
                ('a', 3, 'synced', '0123456789abcdef', '\(Self.stamp(-7_200))'),
                ('b', 3, 'synced', 'fedcba9876543210', '\(Self.stamp(-9_000, device: "fedcba9876543210"))');
            INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at) VALUES (3, 'taken', 20522, 480, \(Self.at(60)), \(Self.at(60)));
            """,
            // 4: `sync init` stamped its add after its history: the first event is earlier.
            Self.medicine(4, "Initialised"),
            """
            INSERT INTO sync_medicine (gid, medication_id, name_key, device, stamp) VALUES ('c', 4, 'initialised', 'x', '\(Self.stamp(0))');
            INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at) VALUES (4, 'skipped', 20511, 480, \(Self.at(-10 * 86_400)), \(Self.at(0)));
            """,
            // 5: a stamp that does not parse, no events.
            Self.medicine(5, "Garbled"),
            "INSERT INTO sync_medicine (gid, medication_id, name_key, device, stamp) VALUES ('d', 5, 'garbled', 'x', 'not-a-stamp');",
            // Caches judged with every slot tracked.
            "INSERT INTO day_summary (day, total, taken, on_time, skipped, missed, streak, best) VALUES (20520, 5, 1, 1, 0, 4, 0, 0);",
            "INSERT INTO day_outcome (day, data) VALUES (20520, x'00');",
        ].joined(separator: "\n"))

        let store = try DoseStore(path: path)
        let tracked = try store.read { r in
            Dictionary(uniqueKeysWithValues: try r.medications(includeArchived: true).map { ($0.name, $0.trackedFrom) })
        }
        #expect(tracked["Events"] == .some(instant(-3 * 86_400)), "the earliest dose event, undone or not")
        #expect(tracked["Nothing"] == .some(nil))
        #expect(tracked["Synced"] == .some(instant(-9_000)), "the earliest add of its global ids")
        #expect(tracked["Initialised"] == .some(instant(-10 * 86_400)), "an add stamped after an event is no creation")
        #expect(tracked["Garbled"] == .some(nil))
        #expect(try store.dbQueue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
                .contains("v10-tracked-from"))
        #expect(try store.dbQueue.read { try Int.fetchOne($0, sql: "SELECT (SELECT count(*) FROM day_summary) + (SELECT count(*) FROM day_outcome)") }
                == 0, "the caches are judged again")
    }

    @Test("stored and read to the millisecond; an update keeps it; nil stays nil")
    func roundTrip() throws {
        let f = try Fixture()
        var m = daily("Yaz")
        m.trackedFrom = instant(0.25)
        let id = try f.store.write { try $0.insertMedication(m) }
        let loaded = try DoseStore(path: f.path).read { try $0.medication(id: id) }
        #expect(loaded?.trackedFrom == instant(0.25))
        try f.store.write { w in
            var edited = try #require(try w.reader.medication(id: id))
            edited.dose = "3 mg"
            try w.updateMedication(edited)
        }
        #expect(try f.store.read { try $0.medication(id: id) }?.trackedFrom == instant(0.25))
        let bare = try f.store.write { try $0.insertMedication(daily("Zinc")) }
        #expect(try f.store.read { try $0.medication(id: bare) }?.trackedFrom == nil)
    }

    @Test("trackFrom moves the start earlier only; a medicine tracked from its first schedule day stays so")
    func onlyEarlier() throws {
        let f = try Fixture()
        var m = daily("Yaz")
        m.trackedFrom = instant(0)
        let id = try f.store.write { try $0.insertMedication(m) }
        let bare = try f.store.write { try $0.insertMedication(daily("Zinc")) }
        #expect(try f.store.write { try $0.trackFrom(medicationID: id, noLaterThan: instant(3_600)) } == false)
        #expect(try f.store.read { try $0.medication(id: id) }?.trackedFrom == instant(0))
        #expect(try f.store.write { try $0.trackFrom(medicationID: id, noLaterThan: instant(-3_600)) } == true)
        #expect(try f.store.read { try $0.medication(id: id) }?.trackedFrom == instant(-3_600))
        #expect(try f.store.write { try $0.trackFrom(medicationID: bare, noLaterThan: instant(-86_400)) } == false)
        #expect(try f.store.read { try $0.medication(id: bare) }?.trackedFrom == nil)
        #expect(try f.store.write { try $0.trackFrom(medicationID: id, noLaterThan: nil) } == true)
        #expect(try f.store.read { try $0.medication(id: id) }?.trackedFrom == nil)
    }

    @Test("the gate: a tracking start more than a day after the store's clock, or before 1970, is refused and nothing is written")
    func gate() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let store = try DoseStore(path: dir.file("db.sqlite"), clock: { instant(0) })
        for bad in [instant(86_401), Date(timeIntervalSince1970: -1)] {
            var m = daily("Yaz")
            m.trackedFrom = bad
            #expect(throws: FieldRules.Violation.self) { try store.write { try $0.insertMedication(m) } }
        }
        #expect(try store.read { try $0.medications(includeArchived: true) }.isEmpty)
        let id = try store.write { try $0.insertMedication(daily("Yaz")) }
        #expect(throws: FieldRules.Violation.self) { try store.write { try $0.trackFrom(medicationID: id, noLaterThan: instant(90_000)) } }
        #expect(throws: FieldRules.Violation.self) {
            try store.write { w in
                var m = try #require(try w.reader.medication(id: id))
                m.trackedFrom = instant(90_000)
                try w.updateMedication(m)
            }
        }
        #expect(try store.read { try $0.medication(id: id) }?.trackedFrom == nil)
    }
}
