import Foundation
import Testing

/// A medicine's tracking start through the binary (DESIGN §3 Tracking start): `add` sets it to the
/// command's now, an import to its earliest imported dose when earlier, `edit`, `remove`/`resume`
/// and `backup`/`restore` keep it, an old database gets it from its first event; `list --json`
/// shows it as `tracked_from` with the local offset.
@Suite struct TrackingStartTests {
    static func trackedFrom(_ h: Harness, _ name: String, now: String? = nil) throws -> Any? {
        let list = try #require(try h.ok("list", "--all", "--json", now: now).json as? [[String: Any]])
        let row = try #require(list.first { ($0["name"] as? String)?.lowercased() == name.lowercased() }, "\(name) in \(list)")
        return row["tracked_from"]
    }

    @Test("add: tracked from the command's now, shown with the local offset; edit, remove/resume, backup/restore keep it")
    func addAndKeep() throws {
        let h = Harness(tz: "America/New_York", now: "2026-11-20T13:45:10-05:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Yaz", "--at", "22:00", "--cycle", "21/7", "--from", "2026-11-01")
        let start = "2026-11-20T13:45:10-05:00"
        #expect(try Self.trackedFrom(h, "Yaz") as? String == start)
        // Seen from Seoul later (the laptop flew): the add was lived in New York and keeps its offset
        // (DESIGN §3 "Where the person is"); the flight back changes nothing either.
        var seoul = h
        seoul.env["TZ"] = "Asia/Seoul"
        #expect(try Self.trackedFrom(seoul, "Yaz", now: "2026-11-21T03:50:00+09:00") as? String == start)
        try h.ok("edit", "Yaz", "--dose", "3 mg", now: "2026-11-21T09:00:00-05:00")
        try h.ok("edit", "Yaz", "--at", "21:00", now: "2026-11-21T09:00:00-05:00")
        #expect(try Self.trackedFrom(h, "Yaz", now: "2026-11-21T09:00:00-05:00") as? String == start)
        try h.ok("remove", "Yaz", now: "2026-11-22T09:00:00-05:00")
        try h.ok("resume", "Yaz", now: "2026-11-25T09:00:00-05:00")
        #expect(try Self.trackedFrom(h, "Yaz", now: "2026-11-25T09:00:00-05:00") as? String == start)
        let backup = h.root + "/backup.sqlite"
        try h.ok("backup", backup, now: "2026-11-25T09:00:00-05:00")
        try h.ok("purge", "Yaz", "--yes", now: "2026-11-25T09:01:00-05:00")
        try h.ok("restore", backup, now: "2026-11-25T09:02:00-05:00")
        #expect(try Self.trackedFrom(h, "Yaz", now: "2026-11-25T09:03:00-05:00") as? String == start)
    }

    @Test("sync between two homes: an add arrives with its start; one name added on both is tracked from the earlier add on both")
    func syncTwoHomes() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01", now: "2026-11-20T07:00:00+09:00")
        try b.ok("add", "aspirin", "--at", "08:00", "--from", "2026-11-01", now: "2026-11-21T07:30:00+09:00")
        try b.ok("add", "Zinc", "--at", "21:00", now: "2026-11-21T19:15:00+09:00")
        try a.ok("sync", "init", shared, now: "2026-11-22T07:00:00+09:00")
        try b.ok("sync", "init", shared, now: "2026-11-22T07:01:00+09:00")
        try a.ok("sync", "now", now: "2026-11-22T07:02:00+09:00")
        for h in [a, b] {
            #expect(try Self.trackedFrom(h, "Aspirin") as? String == "2026-11-20T07:00:00+09:00")
            #expect(try Self.trackedFrom(h, "Zinc") as? String == "2026-11-21T19:15:00+09:00")
        }
        // A medicine added once sync runs.
        try a.ok("add", "Iron", "--at", "12:00", now: "2026-11-22T09:10:00+09:00")
        try b.ok("sync", "now", now: "2026-11-22T09:11:00+09:00")
        #expect(try Self.trackedFrom(b, "Iron") as? String == "2026-11-22T09:10:00+09:00")
    }

    @Test("import csv: a new medicine from its earliest imported dose, an existing one moved earlier, never later")
    func importCSV() throws {
        let h = Harness(tz: "Asia/Seoul", now: "2026-11-20T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        let file = h.root + "/doses.csv"
        func write(_ rows: [String]) throws {
            try ("date,scheduled,medication,dose,status,taken_at,late_minutes\r\n" + rows.joined(separator: "\r\n") + "\r\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
        }
        try write([
            "2026-11-19,2026-11-19T08:00:00+09:00,Aspirin,,taken,2026-11-19T08:20:00+09:00,",
            "2026-11-15,2026-11-15T08:00:00+09:00,Aspirin,,taken,2026-11-15T09:30:00+09:00,",
            "2026-11-12,,Ibuprofen,,as_needed,2026-11-12T15:00:00+09:00,",
            "2026-11-14,,Ibuprofen,,as_needed,2026-11-14T15:00:00+09:00,",
            // A miss the file records is a dose of the record too: a medicine the import creates is tracked from it.
            "2026-11-09,2026-11-09T08:00:00+09:00,Zinc,,missed,,",
            "2026-11-13,,Zinc,,as_needed,2026-11-13T08:00:00+09:00,",
        ])
        try h.ok("import", "csv", file, now: "2026-11-22T12:00:00+09:00")
        #expect(try Self.trackedFrom(h, "Aspirin") as? String == "2026-11-15T09:30:00+09:00")
        #expect(try Self.trackedFrom(h, "Ibuprofen") as? String == "2026-11-12T15:00:00+09:00")
        #expect(try Self.trackedFrom(h, "Zinc") as? String == "2026-11-09T08:00:00+09:00")
        // A later dose moves nothing.
        try write(["2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,,taken,2026-11-21T08:00:00+09:00,"])
        try h.ok("import", "csv", file, now: "2026-11-22T12:00:00+09:00")
        #expect(try Self.trackedFrom(h, "Aspirin") as? String == "2026-11-15T09:30:00+09:00")
        // A dry run moves nothing either.
        try write(["2026-11-10,2026-11-10T08:00:00+09:00,Aspirin,,taken,2026-11-10T08:00:00+09:00,"])
        try h.ok("import", "csv", file, "--dry-run", now: "2026-11-22T12:00:00+09:00")
        #expect(try Self.trackedFrom(h, "Aspirin") as? String == "2026-11-15T09:30:00+09:00")
    }

    @Test("import dosage: each medicine it creates is tracked from min(now, its earliest imported dose)")
    func importDosage() throws {
        let now = "2026-11-22T12:00:00+09:00"
        let h = Harness(tz: "Asia/Seoul", now: now)
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("import", "dosage", ImportTests.fixtures + "/current")
        // What to expect, from the events table (not from the code that sets it).
        let earliest = try Fault.sql(h.db, """
            SELECT m.name || '=' || COALESCE((SELECT MIN(e.at) FROM event e WHERE e.medication_id = m.id), '') FROM medication m ORDER BY m.name
            """)
        let nowSeconds = ISO8601DateFormatter().date(from: now)!.timeIntervalSince1970
        let stored = try Fault.sql(h.db, "SELECT name || '=' || tracked_from FROM medication ORDER BY name")
        var withDoses = 0
        let earliestLines = earliest.split(separator: "\n").map(String.init), storedLines = stored.split(separator: "\n").map(String.init)
        for (e, s) in zip(earliestLines, storedLines) {
            let parts = e.components(separatedBy: "=")
            let first: Double? = Double(parts[parts.count - 1])
            if first != nil { withDoses += 1 }
            let expected: Double = min(first ?? nowSeconds, nowSeconds)
            let got: Double? = Double(s.components(separatedBy: "=").last ?? "")
            #expect(got == expected, "\(parts[0]): tracked from \(got.map { String($0) } ?? "NULL"), expected \(expected)")
        }
        #expect(withDoses >= 3 && earliest.split(separator: "\n").count == stored.split(separator: "\n").count)
    }

    @Test("an old database (schema v1, no sync): each medicine is tracked from its first taken or skipped event, NULL without one")
    func migratedFromFirstEvent() throws {
        let h = try MigrationTests.harnessWithFixture()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let expected = try Fault.sql(h.db, """
            SELECT m.name || '=' || COALESCE((SELECT MIN(e.at) FROM event e WHERE e.medication_id = m.id AND e.kind IN ('taken', 'skipped')), 'NULL')
            FROM medication m ORDER BY m.id
            """)
        #expect(expected.contains("="))
        try h.ok("list", "--all", "--json")
        let migrated = try Fault.sql(h.db, "SELECT name || '=' || COALESCE(tracked_from, 'NULL') FROM medication ORDER BY id")
        func parsed(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in
                let parts = line.split(separator: "=", maxSplits: 1)
                return String(parts[0]) + "=" + (Double(parts[1]).map { String(Int64(($0 * 1000).rounded())) } ?? String(parts[1]))
            }
        }
        #expect(parsed(migrated) == parsed(expected))
    }

    @Test("an old synced database (schema v4): the earlier of the add's stamp and the first event; a `sync init` add after its history yields to the event")
    func migratedSynced() throws {
        let h = Harness(tz: MigrationTests.zone, now: "2026-03-13T21:20:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try FileManager.default.copyItem(atPath: MigrationTests.fixtures.appendingPathComponent("v4-sync.sqlite").path, toPath: h.db)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: h.db)
        // The raw values, read before the binary migrates: each add's stamp and the first dose event.
        let raw = try Fault.sql(h.db, """
            SELECT m.name || '|' || COALESCE((SELECT group_concat(s.stamp) FROM sync_medicine s WHERE s.medication_id = m.id), '')
                || '|' || COALESCE((SELECT MIN(e.at) FROM event e WHERE e.medication_id = m.id AND e.kind IN ('taken', 'skipped')), '')
            FROM medication m ORDER BY m.id
            """)
        var expected: [String: Double] = [:]
        var stampWon = 0, eventWon = 0
        for line in raw.split(separator: "\n") {
            let parts = line.components(separatedBy: "|")
            let stamps = parts[1].split(separator: ",").compactMap { Double($0.prefix(13)).map { $0 / 1000 } }
            let event = Double(parts[2])
            guard let first = (stamps + [event].compactMap { $0 }).min() else { continue }
            if let s = stamps.min(), s == first { stampWon += 1 }
            if let event, event == first { eventWon += 1 }
            expected[parts[0].lowercased()] = first
        }
        #expect(stampWon >= 1 && eventWon >= 1, "the fixture has both cases: \(raw)")
        let list = try #require(try h.ok("list", "--all", "--json").json as? [[String: Any]])
        #expect(list.count == expected.count)
        for row in list {
            let name = (row["name"] as? String ?? "").lowercased()
            let shown = (row["tracked_from"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }?.timeIntervalSince1970
            #expect(shown.map { Int64($0) } == expected[name].map { Int64($0.rounded(.down)) }, "\(name): \(row)")
        }
    }
}
