import DoseCore
import DoseTestSupport
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// `v12-event-kind-check`: `event.kind`'s check is written without `IN` (which SQLite coded as a
/// temporary B-tree per insert), in place, and still refuses what it refused.
@Suite("Schema v12: event.kind's check without IN, the same rule")
struct EventKindCheckMigrationTests {
    static let insert = """
        INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known, over_limit)
        VALUES (1, ?, 20400, 480, 1762560000, 1762560000, NULL, 0, 1, 0)
        """

    /// The opcodes SQLite runs for one insert of an event.
    static func opcodes(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "EXPLAIN " + insert, arguments: ["taken"]).map { $0["opcode"] as String }
    }

    @Test("a database at v11 with events: rewritten in place, rows kept, the rule kept, no temporary B-tree per insert, seen by a new connection")
    func migrated() throws {
        let dir = TemporaryDirectory(prefix: "dosestore")
        let path = dir.file("dosebar.sqlite")
        let queue = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
        try Schema.migrator.migrate(queue, upTo: "v11-synced-doses")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO medication (id, name, name_key, per_dose) VALUES (1, 'Aspirin', 'aspirin', 100)")
            for kind in ["taken", "skipped"] { try db.execute(sql: Self.insert, arguments: [kind]) }
            #expect(try Self.opcodes(db).contains("OpenEphemeral"), "v1's check, as SQLite codes it")
        }
        try Schema.migrator.migrate(queue)
        try queue.close()

        // A connection opened after: the new text, the rows, a sound file, the same rule.
        let again = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
        try again.write { db in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'event'") ?? ""
            #expect(sql.contains(Schema.eventKindOr) && !sql.contains(Schema.eventKindIn), "\(sql)")
            #expect(try String.fetchAll(db, sql: "SELECT kind FROM event ORDER BY id") == ["taken", "skipped"])
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(!(try Self.opcodes(db).contains("OpenEphemeral")))
            for kind in ["undone", "eaten", "Taken", ""] {
                // An undo needs a target (the table's other check): refused like the unknown kinds.
                #expect(throws: DatabaseError.self, "\(kind)") { try db.execute(sql: Self.insert, arguments: [kind]) }
            }
            try db.execute(sql: Self.insert, arguments: ["taken"])
            try db.execute(sql: """
                INSERT INTO event (medication_id, kind, day, at, logged_at, target) VALUES (1, 'undone', 20400, 1762560000, 1762560000, 3)
                """)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM event") == 4)
        }
        try again.close()
    }

    @Test("a new database has the check without IN; a table whose text differs is left as it is")
    func fresh() throws {
        let store = try DoseStore.inMemory(clock: { Date(timeIntervalSince1970: 1_773_200_000) })
        let sql = try store.read { r in try String.fetchOne(r.db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'event'") ?? "" }
        #expect(sql.contains(Schema.eventKindOr), "\(sql)")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, kind TEXT CHECK (kind IN ('a', 'b', 'c')))")
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version")
            try Schema.v12EventKindCheck(db)
            #expect(try Int.fetchOne(db, sql: "PRAGMA schema_version") == version)
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'event'")?.contains("IN ('a', 'b', 'c')") == true)
        }
    }
}
