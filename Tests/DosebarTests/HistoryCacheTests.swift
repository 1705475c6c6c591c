import Foundation
import Testing

/// The cache of finished days (`day_outcome`) behind `history`, `stats` and `report`: what they print
/// from it is what they print when every day is judged again from its events, after every kind of
/// change to the past.
@Suite struct HistoryCacheTests {
    static let noon = "2026-11-21T12:00:00+09:00"

    /// What the three commands print over the last 3 weeks.
    func outputs(_ h: Harness, now: String = noon) throws -> String {
        try ["history --from 2026-11-01 --json", "stats --days 10 --json", "report --from 2026-11-01 --format csv",
             "report --from 2026-11-01 --format json", "history Metformin --from 2026-11-01 --json"].map { command in
            try h.run(command.split(separator: " ").map(String.init), now: now).out
        }.joined(separator: "\n---\n")
    }

    func sql(_ h: Harness, _ statement: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, statement]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The outputs judged from the events alone: the same database without its cache.
    func uncached(_ h: Harness, now: String = noon) throws -> String {
        let copy = Harness(now: now)
        try FileManager.default.createDirectory(atPath: copy.root + "/data", withIntermediateDirectories: true)
        _ = try sql(h, "PRAGMA wal_checkpoint(TRUNCATE)")
        try FileManager.default.copyItem(atPath: h.db, toPath: copy.db)
        _ = try sql(copy, "DELETE FROM day_outcome")
        return try outputs(copy, now: now)
    }

    @Test("cached days print what judging them again prints, after back-dated doses, undo, edits in the past, remove and a zone change")
    func cacheFollowsEveryChange() throws {
        let h = Harness(now: "2026-11-01T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try h.ok("add", "Metformin", "--at", "08:00,20:00", "--dose", "500 mg", "--from", "2026-11-01")
        try h.ok("add", "Yaz", "--cycle", "5/2", "--at", "21:00", "--from", "2026-11-01")
        try h.ok("add", "Ibuprofen", "--as-needed", "--from", "2026-11-01")
        for day in 1...15 where day % 3 != 0 {
            let d = String(format: "2026-11-%02d", day)
            try h.ok("take", "Aspirin", "--at", "\(d)T0\(day % 2 == 0 ? 8 : 9):3\(day % 5)", now: "\(d)T22:00:00+09:00")
            if day % 4 != 0 { try h.ok("take", "Metformin", "--at", "\(d)T08:10", now: "\(d)T22:00:00+09:00") }
            if day % 5 == 0 { try h.ok("skip", "Metformin", "--at", "\(d)T20:00", now: "\(d)T22:00:00+09:00") }
            if day % 7 == 0 { try h.ok("take", "Ibuprofen", "--at", "\(d)T13:00", now: "\(d)T22:00:00+09:00") }
        }
        let first = try outputs(h)
        let cached = Int(try sql(h, "SELECT count(*) FROM day_outcome")) ?? 0
        #expect(cached == 20, "11-01 … 11-20 are finished and kept: \(cached)")
        #expect(try outputs(h) == first, "read back from the cache")
        #expect(first == (try uncached(h)))

        // Each change to the past, then the cached output against a fresh judgement.
        let changes: [[String]] = [
            ["take", "Aspirin", "--at", "2026-11-03T10:00"],                 // a back-dated dose on a cached day
            ["skip", "Metformin", "--at", "2026-11-06T20:00"],
            ["undo", "Aspirin"],                                              // takes the back-dated dose away again
            ["edit", "Aspirin", "--at", "07:00", "--effective", "2026-11-10"], // a schedule change in the past
            ["take", "Ibuprofen", "--at", "2026-11-12T18:00"],               // an as-needed dose on a cached day
            ["remove", "Yaz"],
        ]
        var previous = first
        for change in changes {
            let r = try h.run(change, now: Self.noon)
            #expect(r.status == 0, "\(change): \(r.err)")
            let now = try outputs(h)
            if change[0] != "remove" { #expect(now != previous, "\(change) changes what history shows") }
            #expect(now == (try uncached(h)), "after \(change)")
            #expect(try outputs(h) == now)
            previous = now
        }

        // A flight to New York appends to the zone log (DESIGN §3): the outcomes kept are those of
        // the log with the change, and judging the same database without its cache agrees.
        var ny = h
        ny.env["TZ"] = "America/New_York"
        let nyNow = "2026-11-20T22:00:00-05:00"
        let inNewYork = try outputs(ny, now: nyNow)
        // The same database without its cache, judged in New York.
        let copy = Harness(tz: "America/New_York", now: nyNow)
        try FileManager.default.createDirectory(atPath: copy.root + "/data", withIntermediateDirectories: true)
        _ = try sql(h, "PRAGMA wal_checkpoint(TRUNCATE)")
        try FileManager.default.copyItem(atPath: h.db, toPath: copy.db)
        _ = try sql(copy, "DELETE FROM day_outcome")
        #expect(inNewYork == (try outputs(copy, now: nyNow)))
        let kept = try sql(h, "SELECT value FROM meta WHERE key = 'outcome_zone'")
        #expect(kept.hasPrefix("Asia/Seoul|") && kept.hasSuffix("=America/New_York"), "\(kept)")
    }

    @Test("the cache is what is read: a day's kept outcome is printed, and an unreadable one is judged again")
    func cacheIsRead() throws {
        let h = Harness(now: "2026-11-01T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try h.ok("take", "Aspirin", "--at", "2026-11-02T08:00", now: "2026-11-02T09:00:00+09:00")
        let judged = try h.ok("history", "--from", "2026-11-01", "--json", now: Self.noon).out
        #expect(judged.contains(#""day":"2026-11-01","state":"missed","total":1,"taken":0"#))
        // Give 11-01 the outcome kept for 11-02 (a taken dose), relabelled: history must print it.
        let day1 = 20758, day2 = 20759   // 2026-11-01 and 2026-11-02 as day numbers
        let hex2 = try sql(h, "SELECT hex(data) FROM day_outcome WHERE day = \(day2)")
        #expect(hex2.count > 20)
        let relabelled = String(hex2.prefix(2)) + littleEndianHex(Int64(day1)) + String(hex2.dropFirst(18))
        _ = try sql(h, "UPDATE day_outcome SET data = x'\(relabelled)' WHERE day = \(day1)")
        let fromCache = try h.ok("history", "--from", "2026-11-01", "--json", now: Self.noon).out
        #expect(fromCache.contains(#""day":"2026-11-01","state":"done","total":1,"taken":1"#), "11-01 read from the cache")
        // A damaged blob is ignored: 11-01 is judged from its events again.
        _ = try sql(h, "UPDATE day_outcome SET data = x'01ff' WHERE day = \(day1)")
        #expect(try h.ok("history", "--from", "2026-11-01", "--json", now: Self.noon).out == judged)
    }

    func littleEndianHex(_ v: Int64) -> String {
        withUnsafeBytes(of: v.littleEndian) { $0.map { String(format: "%02X", $0) }.joined() }
    }
}
