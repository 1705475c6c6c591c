import CSQLiteAuthorizer
import Foundation
import GRDB
import Testing

/// GRDB's statement authorizer runs behind dosebar's filter (CSQLiteAuthorizer): the columns a
/// statement reads are no longer recorded (GRDB's region for ValueObservation, unused here), and
/// every other action still reaches GRDB, as a schema change that must empty its schema cache.
@Suite struct AuthorizerTests {
    @Test("columns read are not recorded; an ALTER TABLE still empties GRDB's schema cache")
    func filtered() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let queue = try DatabaseQueue(path: dir.appendingPathComponent("t.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER)")
            #expect(try db.makeStatement(sql: "SELECT a FROM t").databaseRegion.isEmpty, "a column read was recorded")
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT")
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"], "the ALTER did not reach GRDB")
        }
        #expect(dosebar_authorizer_filtering() == 1)
    }
}
