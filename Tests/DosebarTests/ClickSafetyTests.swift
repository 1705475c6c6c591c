import Foundation
import Testing

/// Bar clicks never record what was not due; a slot is taken once whatever the clock says (issue 42).
@Suite("click safety (end to end)")
struct ClickSafetyEndToEndTests {
    static let added = "2026-11-22T07:00:00+09:00"

    func events(_ h: Harness) throws -> String {
        try Fault.sql(h.db, "SELECT count(*) FROM event WHERE kind IN ('taken', 'skipped')")
    }

    @Test("three bar clicks at 08:01 take Metformin 08:00 once, then name Warfarin 18:00 and the --slot way")
    func tripleClick() throws {
        let h = Harness(now: "2026-11-22T08:01:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Metformin", "--at", "08:00,20:00", now: Self.added)
        try h.ok("add", "Warfarin", "--at", "18:00", now: Self.added)
        let first = try h.ok("take", "--next")
        #expect(first.out.contains("Metformin") && !first.out.contains("Warfarin"), "\(first.out)")
        for _ in 0..<2 {
            let again = try h.run("take", "--next")
            #expect(again.status == 65, "\(again.out)")
            #expect(again.out.isEmpty)
            #expect(again.err == "dosebar: nothing is due now; next: Warfarin at 18:00 — to take it early on purpose: "
                + "'dosebar take Warfarin --slot 18:00'\n", "\(again.err)")
        }
        #expect(try events(h) == "1")
        #expect(try h.statuses() == ["Metformin:taken", "Warfarin:upcoming", "Metformin:upcoming"])
        // The way the line names works, on purpose.
        let early = try h.ok("take", "Warfarin", "--slot", "18:00")
        #expect(early.out.contains("Warfarin"), "\(early.out)")
        #expect(try events(h) == "2")
    }

    @Test("a take at 10:05, then the clock back at 08:05: no second take of the slot, stock down once")
    func clockStepsBack() throws {
        let h = Harness(now: "2026-11-22T10:05:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Warfarin", "--at", "08:00", "--stock", "10", now: Self.added)
        let stock = { try Fault.sql(h.db, "SELECT stock FROM medication WHERE name = 'Warfarin'") }
        let full = try stock()
        try h.ok("take", "Warfarin")
        let once = try stock()
        #expect(once != full)
        let back = "2026-11-22T08:05:00+09:00"
        let named = try h.run("take", "Warfarin", now: back)
        #expect(named.status == 65)
        #expect(named.err == "dosebar: Warfarin: the 08:00 dose was taken at 10:05 — 'dosebar undo Warfarin' first to record it again\n",
                "\(named.err)")
        for args in [["take"], ["take", "--next"], ["skip", "Warfarin"], ["take", "Warfarin", "--slot", "08:00"],
                     ["take", "Warfarin", "--at", "08:03"]] {
            let r = try h.run(args, now: back)
            #expect(r.status == 65, "\(args): \(r.status) \(r.out)")
        }
        #expect(try events(h) == "1")
        #expect(try stock() == once, "stock went down once")
        // Undo, then take again: still works (and the clock back does not stand in the way).
        try h.ok("undo", now: back)
        #expect(try stock() == full)
        try h.ok("take", "Warfarin", now: back)
        #expect(try stock() == once)
    }
}

/// `dosebar --lang en list`: global options before the command (issue 42).
@Suite("global options anywhere")
struct GlobalOptionsAnywhereTests {
    @Test("--db, --dir, --lang, --config and --color before the command work as after it")
    func beforeTheCommand() throws {
        let h = Harness(now: "2026-11-22T08:05:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let list = try h.ok("--lang", "en", "list")
        #expect(list.out.contains("Aspirin") && list.err.isEmpty, "\(list.out) \(list.err)")
        #expect(list.out == (try h.ok("list", "--lang", "en")).out)

        // Another database, named before the command (both spellings): the harness's is not touched.
        let other = h.root + "/data/other.sqlite"
        try h.ok("--db", other, "add", "Zinc", "--at", "09:00")
        let today = try h.ok("--db", other, "today")
        #expect(today.out.contains("Zinc") && !today.out.contains("Aspirin"), "\(today.out)")
        let took = try h.ok("--db=\(other)", "take", "Zinc")
        #expect(took.out.contains("Zinc"), "\(took.out)")
        #expect(try Fault.sql(other, "SELECT count(*) FROM event") == "1")
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM event") == "0")

        // --dir and --lang before a command, and before a two-word command.
        let dir = h.root + "/elsewhere"
        #expect(try h.ok("--dir", dir, "--lang", "ko", "status").out == (try h.ok("status", "--dir", dir, "--lang", "ko")).out)
        try h.ok("--dir", dir, "export")
        #expect(FileManager.default.fileExists(atPath: dir + "/waybar.json"))
        let korean = try h.ok("--dir", dir, "--lang", "ko", "today").out
        let ko = try h.ok("today", "--lang", "ko").out, en = try h.ok("today", "--lang", "en").out
        #expect(korean == ko && korean != en, "\(korean)")
        let config = h.root + "/config.toml"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        // Parsed as `sync status` (which says sync is not set up), not as `today` with stray words.
        let sync = try h.run("--config", config, "--color", "never", "sync", "status")
        #expect(sync.err.contains("sync is not set up"), "\(sync.err)")
        #expect(try h.run("--color=never", "history").status == 0)

        // Alone, they still mean `today`; help and the version still print.
        let bare = try h.ok("--db", other)
        let named = try h.ok("--db", other, "today").out
        #expect(bare.out == named && bare.out.contains("Zinc"), "\(bare.out)")
        #expect(try h.ok("--lang", "en", "--help").out.contains("USAGE"))
        #expect(try h.ok("--version").status == 0)
        #expect(try h.ok("-h").out.contains("USAGE"))
        #expect(try h.ok("--lang", "en", "take", "--help").out.contains("--next"))
        // A missing value is still a usage error, not a command.
        #expect(try h.run("list", "--lang").status == 64)
    }
}
