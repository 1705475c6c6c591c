import Foundation
import Testing

/// Migrations keep meaning: a database written by the dosebar of schema `v1` (made by
/// `Fixtures/migration/make-v1.sh`, which says how) gives, once the current binary has applied
/// every later migration to it, the same history, statistics and today as it gave then.
@Suite struct MigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/migration")
    /// The instant and zone the expected outputs were recorded at.
    static let now = "2026-03-22T20:00:00+09:00", zone = "Asia/Seoul"

    /// The outputs compared: expected file and command.
    static let outputs: [(file: String, args: [String])] = [
        ("v1-history.json", ["history", "--json", "--from", "2026-03-02"]),
        ("v1-stats.json", ["stats", "--json"]),
        ("v1-today.json", ["today", "--json"]),
    ]

    /// Keys a later dosebar legitimately added to an output (by file), removed at every depth before
    /// comparing. Empty: the outputs are compared byte for byte. Add a key here only with the change
    /// that adds it, never one whose meaning changed.
    /// Issue 21 added to schema 1 each dose's `day` and `time_known` and `counts.carried` (DESIGN §4);
    /// `day` is also the snapshot's own key, so `sameMeaning` checks the values of all three itself.
    /// History and stats are unchanged: the migrated medicines are tracked from their first event
    /// (Schema v10; v1 has no sync stamps), which is no later than their first slot's dose, and every
    /// slot closed before 03-22 20:00 under both the midnight rule and the cut-off.
    static let addedKeys: [String: Set<String>] = ["v1-today.json": ["day", "time_known", "carried"],
                                                   "v4-sync-today.json": ["day", "time_known", "carried"]]

    /// Arrays (by key, by file) whose order a later dosebar changed on purpose, compared as sets of
    /// their items. `stock`: most urgent first since two synced machines had to agree on it (it
    /// followed local row ids before).
    static let reordered: [String: Set<String>] = ["v1-today.json": ["stock"]]

    /// Texts a later dosebar words differently on purpose (by file): each old text of the expected
    /// output is replaced by the new one before comparing, and everything else still has to match.
    /// Issue 42: `missed_yesterday` names the doses (the ones yesterday's summary counts) and says
    /// not to double today's; the bar line names a medicine running low when nothing is due or late.
    /// Issue 46: each `cycle` item also says when its next phase starts and has the line the bars show
    /// (added to that item only: `next` and `text` are also top-level keys, compared as before). Yaz is on
    /// rest day 2 of 2 on Sunday 03-22, so it resumes on Monday 03-23 (the `rest_day` message's "Monday").
    static let reworded: [String: [(old: String, new: String)]] = [
        "v1-today.json": [("Yesterday 1 dose missed", "Yesterday: Metformin 19:30 missed — don't double today's dose"),
                          (#""cycle":[{"medication":"Yaz","phase":"rest","day":2,"length":2}]"#,
                           #""cycle":[{"medication":"Yaz","phase":"rest","day":2,"length":2,"next":"2026-03-23","text":"Yaz: rest day 2 of 2, resumes Mon 23 Mar"}]"#)],
        "v4-sync-today.json": [("Yesterday 1 dose missed", "Yesterday: Metformin 20:00 missed — don't double today's dose"),
                               ("\"text\":\"✅ 4/4 · streak 1\"", "\"text\":\"✅ 4/4 · streak 1 · Zinc low (5 days)\"")],
    ]

    /// The expected output `file` with its ``reworded`` texts.
    static func expected(_ file: String) throws -> String {
        var text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        for (old, new) in reworded[file] ?? [] {
            #expect(text.contains(old), "\(file) no longer holds '\(old)'")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    /// The fixture copied to a fresh harness's database path.
    static func harnessWithFixture() throws -> Harness {
        let h = Harness(tz: zone, now: now)
        try FileManager.default.createDirectory(atPath: h.root + "/data", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("v1.sqlite").path, toPath: h.db)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: h.db)
        return h
    }

    @Test("the fixture is a small database at schema v1, so the test really migrates")
    func fixtureIsV1() throws {
        let path = MigrationTests.fixtures.appendingPathComponent("v1.sqlite").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 200_000, "v1.sqlite is \(size) bytes")
        // Queried on a copy: opening the committed file would leave -wal/-shm in the source tree.
        let h = try MigrationTests.harnessWithFixture()
        #expect(try Fault.sql(h.db, "SELECT group_concat(identifier, ',') FROM grdb_migrations") == "v1")
        #expect(try Fault.sql(h.db, "PRAGMA application_id") == "\(0x444F_5345)")
        #expect(Int(try Fault.sql(h.db, "SELECT count(*) FROM event")) ?? 0 > 50)
    }

    @Test("the current binary migrates it and says the same: history, stats, today")
    func sameMeaning() throws {
        let h = try MigrationTests.harnessWithFixture()
        for (file, args) in MigrationTests.outputs {
            let expected = try MigrationTests.expected(file)
            let r = try h.run(args)
            #expect(r.status == 0, "dosebar \(args.joined(separator: " ")): \(r.err)")
            let keys = MigrationTests.addedKeys[file] ?? [], unordered = MigrationTests.reordered[file] ?? []
            if keys.isEmpty && unordered.isEmpty {
                #expect(r.out == expected, "dosebar \(args.joined(separator: " ")) on the migrated v1 database differs from \(file)")
            } else {
                #expect(try canonical(r.out, without: keys, unordered: unordered) == canonical(expected, without: keys, unordered: unordered),
                        "dosebar \(args.joined(separator: " ")) on the migrated v1 database differs from \(file) (less \(keys.sorted()), \(unordered.sorted()) in any order)")
            }
        }
        // The added keys say what DESIGN §4 says: today's doses only (none carried), each of today, their
        // take times known (logged with the clock or --at).
        let today = try #require(try h.run(["today", "--json"]).json as? [String: Any])
        #expect(today["day"] as? String == "2026-03-22")
        #expect((today["counts"] as? [String: Any])?["carried"] as? Int == 0)
        let doses = (today["doses"] as? [[String: Any]]) ?? []
        #expect(!doses.isEmpty && doses.allSatisfy { $0["day"] as? String == "2026-03-22" && $0["time_known"] as? Bool == true })
        // The binary did migrate the copy (and kept v1 as applied).
        let migrations = try Fault.sql(h.db, "SELECT group_concat(identifier, ',') FROM grdb_migrations").split(separator: ",")
        #expect(migrations.first == "v1")
        #expect(try Fault.sql(h.db, "PRAGMA integrity_check") == "ok")
    }

    /// The second fixture (`Fixtures/migration/make-v4-sync.sh`): device B's database at schema
    /// `v4-slot-index`, whose operations were linked to their events by `sync_event`, and device A's
    /// whole file, whose later lines name what B had applied: an undo of a take that beat B's dose of
    /// the same slot, a take, a refill. Once the current binary migrated B, B takes A's file in a
    /// new folder (the lines it had are skipped by id) and says what the old binary said.
    @Test("a synced database of schema v4 keeps its links: what another device sends after the migration applies as before")
    func syncLinksKept() throws {
        let h = Harness(tz: MigrationTests.zone, now: "2026-03-13T21:20:00+09:00")
        try FileManager.default.createDirectory(atPath: h.root + "/data", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: MigrationTests.fixtures.appendingPathComponent("v4-sync.sqlite").path, toPath: h.db)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: h.db)
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM sync_event") == "18", "the fixture links its doses in sync_event")

        let folder = h.root + "/folder2"
        try h.ok("sync", "init", folder)
        let fileA = MigrationTests.fixtures.appendingPathComponent("v4-sync-A.jsonl")
        let firstLine = try String(contentsOf: fileA, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        let deviceA = try #require((try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any])?["device"] as? String)
        try FileManager.default.copyItem(atPath: fileA.path, toPath: folder + "/dosebar/" + deviceA + ".jsonl")
        let applied = try h.ok("sync", "now", now: "2026-03-13T21:21:00+09:00")
        #expect(applied.out.contains("Applied 3 operations"), "A's three later lines, the others skipped by id: \(applied.out)")

        for (file, args) in [("v4-sync-history.json", ["history", "--json", "--from", "2026-03-09"]),
                             ("v4-sync-stats.json", ["stats", "--json"]), ("v4-sync-today.json", ["today", "--json"])] {
            let expected = try MigrationTests.expected(file)
            let r = try h.run(args, now: "2026-03-13T21:30:00+09:00")
            let keys = MigrationTests.addedKeys[file] ?? []
            #expect(r.status == 0, "dosebar \(args.joined(separator: " ")): \(r.err)")
            if keys.isEmpty {
                #expect(r.out == expected, "dosebar \(args.joined(separator: " ")) differs from \(file): \(r.out)")
            } else {
                #expect(try canonical(r.out, without: keys) == canonical(expected, without: keys),
                        "dosebar \(args.joined(separator: " ")) differs from \(file) (less \(keys.sorted())): \(r.out)")
                let today = try #require(r.json as? [String: Any])
                #expect(today["day"] as? String == "2026-03-13" && (today["counts"] as? [String: Any])?["carried"] as? Int == 0)
                #expect(((today["doses"] as? [[String: Any]]) ?? []).allSatisfy { $0["day"] as? String == "2026-03-13" })
            }
        }
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM sqlite_master WHERE name = 'sync_event'") == "0")
        #expect(try Fault.sql(h.db, "PRAGMA integrity_check") == "ok")
        #expect(try Fault.sql(h.db, "PRAGMA foreign_key_check") == "")
    }

    /// JSON text with `keys` removed at every depth, serialised with sorted keys.
    private func canonical(_ text: String, without keys: Set<String>, unordered: Set<String> = []) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                var kept = object.filter { !keys.contains($0.key) }.mapValues(strip)
                for key in unordered {
                    guard let items = kept[key] as? [Any] else { continue }
                    kept[key] = items.sorted { sortKey($0) < sortKey($1) }
                }
                return kept
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        func sortKey(_ item: Any) -> String {
            (try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys, .fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let value = strip(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }
}
