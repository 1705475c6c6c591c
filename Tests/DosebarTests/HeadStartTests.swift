import Foundation
import Testing

/// `take`, `skip` and `undo` open their context and database on the other core while ArgumentParser
/// parses (HeadStart, in DoseApp). The head start may only be begun where the arguments name no
/// other database, and it may change nothing: a command that fails to parse leaves an old database
/// unmigrated, and one that names another database with `--db` leaves the default one alone.
@Suite struct HeadStartTests {
    /// When the medicines are added: before the 08:00 doses, so those are tracked.
    static let added = "2026-11-22T07:00:00+09:00"

    /// The bytes of a file, and whether its -wal and -shm are beside it.
    static func state(_ path: String) -> (bytes: Data?, wal: Bool, shm: Bool) {
        let fm = FileManager.default
        return (fm.contents(atPath: path), fm.fileExists(atPath: path + "-wal"), fm.fileExists(atPath: path + "-shm"))
    }

    @Test("a usage error of undo on a database of schema v1 leaves it unmigrated; the next command migrates it")
    func oldDatabaseUntouchedByAFailedParse() throws {
        let h = try MigrationTests.harnessWithFixture()
        let before = Self.state(h.db)
        // `undo` takes at most one name: the head start begins (no option), ArgumentParser then refuses.
        let r = try h.run("undo", "Aspirin", "Magnesium")
        #expect(r.status == 64, "\(r.err)")
        #expect(Self.state(h.db).bytes == before.bytes)
        #expect(try Fault.sql(h.db, "SELECT group_concat(identifier, ',') FROM grdb_migrations") == "v1")
        // A command that does run migrates it as before (the head start left it to the command).
        let list = try h.run("list", "--json")
        #expect(list.status == 0, "\(list.err)")
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM grdb_migrations") != "1")
    }

    @Test("take on a database of schema v1: the head start declines, the command migrates and records")
    func oldDatabaseTakeStillWorks() throws {
        let h = try MigrationTests.harnessWithFixture()
        let names = try Fault.sql(h.db, "SELECT group_concat(name, ',') FROM medication").split(separator: ",")
        let first = try #require(names.first.map(String.init))
        let events = Int(try Fault.sql(h.db, "SELECT count(*) FROM event")) ?? 0
        // No option: the head start begins, finds the database unmigrated and leaves it to the command.
        let r = try h.run("take", first)
        // Whatever it decides for that medicine at the fixture's instant, it migrated and ran.
        #expect(r.status == 0 || r.status == 65, "\(r.err)")
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM grdb_migrations") != "1")
        if r.status == 0 { #expect(Int(try Fault.sql(h.db, "SELECT count(*) FROM event")) ?? 0 == events + 1) }
    }

    @Test("take --db OTHER: the default database (DOSEBAR_DB) is not opened")
    func otherDatabaseNamed() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-22T08:05:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", now: Self.added)
        let other = h.root + "/data/other.sqlite"
        try h.ok("add", "Aspirin", "--at", "08:00", "--db", other, now: Self.added)
        // The default database as a checkpointed file alone: any open would leave -wal/-shm beside it.
        _ = try Fault.sql(h.db, "PRAGMA wal_checkpoint(TRUNCATE)")
        try? FileManager.default.removeItem(atPath: h.db + "-wal")
        try? FileManager.default.removeItem(atPath: h.db + "-shm")
        let before = Self.state(h.db)
        #expect(!before.wal && !before.shm)
        let r = try h.run("take", "Aspirin", "--db", other)
        #expect(r.status == 0, "\(r.err)")
        let after = Self.state(h.db)
        #expect(after.bytes == before.bytes && !after.wal && !after.shm)
        #expect(try Fault.sql(other, "SELECT count(*) FROM event") == "1")
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM event") == "0")
    }

    @Test("take, take --next, skip and undo with the head start record and undo as they did")
    func recordsAsBefore() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-22T08:05:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "10", now: Self.added)
        try h.ok("add", "Magnesium", "--at", "08:00", now: Self.added)
        let took = try h.ok("take", "Aspirin")
        #expect(took.out.contains("Took Aspirin") && took.out.contains("9 left"), "\(took.out)")
        let click = try h.ok("take", "--next")
        #expect(click.out.contains("Took Magnesium") && !click.out.contains("Aspirin"), "\(click.out)")
        try h.ok("undo")
        let skipped = try h.ok("skip", "Magnesium")
        #expect(skipped.out.contains("Magnesium"), "\(skipped.out)")
        let statuses = try h.statuses()
        #expect(statuses.sorted() == ["Aspirin:taken", "Magnesium:skipped"], "\(statuses)")
        // The bar files were written by the take that used the head start.
        let waybar = try String(contentsOfFile: h.dir + "/waybar.json", encoding: .utf8)
        #expect(waybar.contains("2/2") || waybar.contains("\"class\":\"done\""), "\(waybar)")
    }
}
