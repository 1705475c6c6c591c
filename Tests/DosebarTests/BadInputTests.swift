import Foundation
import Testing

/// DESIGN §9: bad input gets one clear line on stderr, the documented exit code, and changes nothing.
@Suite struct BadInputTests {
    static let cases: [(args: [String], code: Int32)] = [
        (["add", "X", "--at", "25:00"], 64),
        (["add", "X", "--at", "8"], 64),
        (["add", "X", "--at", "08:00", "--every", "0d"], 64),
        (["add", "X", "--at", "08:00", "--cycle", "0/7"], 64),
        (["add", "X", "--at", "08:00", "--days", "mon,funday"], 64),
        (["add", "X", "--at", "08:00", "--window", "forever"], 64),
        (["add", "X", "--at", "08:00", "--days", "mon", "--every", "2d"], 64),
        (["add", "X", "--at", "08:00", "--from", "2026-11-30", "--until", "2026-11-01"], 64),
        (["add", "X", "--at", "08:00", "--from", "3026-01-01"], 64),
        (["add", "X"], 64),
        (["add", "X", "--as-needed", "--at", "08:00"], 64),
        (["add", "", "--at", "08:00"], 64),
        (["add", "Aspirin", "--at", "09:00"], 65),
        (["take", "Unknown"], 65),
        (["take", "Aspirin", "--at", "2030-01-01T08:00"], 65),
        (["take", "Aspirin", "--at", "yesterday-ish"], 64),
        (["skip"], 64),
        (["undo", "Unknown"], 65),
        (["refill", "Aspirin"], 64),
        (["refill", "Aspirin", "-5"], 64),
        (["refill", "Unknown", "5"], 65),
        (["edit", "Aspirin"], 64),
        (["edit", "Unknown", "--at", "09:00"], 65),
        (["remove", "Unknown"], 65),
        (["status", "--format", "html"], 64),
        (["frobnicate"], 64),
    ]

    @Test(arguments: 0..<cases.count)
    func rejectsAndChangesNothing(_ i: Int) throws {
        let (args, code) = BadInputTests.cases[i]
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--stock", "5")
        let before = h.dump()
        let r = try h.run(args)
        #expect(r.status == code, "dosebar \(args): \(r.err)")
        let lines = r.err.split(separator: "\n")
        if code != 64 || !args.contains("frobnicate") {
            #expect(lines.count >= 1)
        }
        #expect(!r.err.contains("Fatal error") && !r.err.contains("Stack dump"))
        if code == 65 { #expect(lines.count == 1, "one line: \(r.err)") }
        #expect(h.dump() == before, "dosebar \(args) changed the database")
    }

    @Test func badClockAndTimeZone() throws {
        let h = Harness()
        let r = try h.run(["today"], now: "tomorrow")
        #expect(r.status == 64)
        #expect(r.err.contains("DOSEBAR_NOW"))
        let tz = try h.run(["doctor"], extraEnv: ["TZ": "Mars/Olympus"])
        #expect(tz.out.contains("not a known time zone"))
    }

    @Test func corruptAndForeignDatabasesAreRefusedUntouched() throws {
        let h = Harness()
        try FileManager.default.createDirectory(atPath: h.root + "/data", withIntermediateDirectories: true)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        FileManager.default.createFile(atPath: h.db, contents: garbage)
        let r = try h.run("today")
        #expect(r.status == 65, "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
        #expect(FileManager.default.contents(atPath: h.db) == garbage)

        let foreign = h.root + "/foreign.sqlite"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [foreign, "CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('x');"]
        try p.run(); p.waitUntilExit()
        let bytes = FileManager.default.contents(atPath: foreign)
        let f = try h.run(["list", "--db", foreign])
        #expect(f.status == 65)
        #expect(f.err.contains("not a dosebar database"))
        #expect(FileManager.default.contents(atPath: foreign) == bytes)
    }

    @Test func configTypoNamesTheLine() throws {
        let h = Harness()
        try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
        try "language = \"en\"\n\n[colors]\nlate = \"#ff0000\"\nlatte = \"#00ff00\"\n"
            .write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        let r = try h.run("today")
        #expect(r.status == 78)
        #expect(r.err.contains("config.toml:5"), "\(r.err)")
        #expect(r.err.contains("latte"))
    }

    @Test func sharedDirectoryOwnedBySomeoneElseIsRefused() throws {
        let h = Harness()
        try h.ok("add", "Aspirin", "--at", "08:00")
        try FileManager.default.removeItem(atPath: h.dir)
        try FileManager.default.createDirectory(atPath: h.dir, withIntermediateDirectories: true)
        chown(h.dir, 65534, 65534)
        let r = try h.run("export")
        #expect(r.status == 78, "\(r.err)")
        // A take still records the dose, and says the bar was not updated.
        let t = try h.run("take", "Aspirin", now: "2026-11-22T08:00:00+09:00")
        #expect(t.status == 0)
        #expect(t.err.contains("warning"))
        let link = h.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: h.root + "/data")
        #expect(try h.run(["export", "--dir", link]).status == 78)
    }
}
