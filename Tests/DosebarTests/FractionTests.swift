import Foundation
import Testing

/// Half tablets (DESIGN §3 Stock): amounts to hundredths, kept exactly, written as the decimal.
@Suite struct FractionTests {
    /// The `list --json` object of `name`, as its raw JSON text (compared byte for byte, never
    /// through a float).
    static func listed(_ h: Harness, _ name: String, now: String? = nil) throws -> String {
        object(in: try h.ok("list", "--json", now: now).out, name)
    }

    /// The object of `name` in a `list --json` text, as printed (its nested objects, `schedule`, whole).
    static func object(in out: String, _ name: String) -> String {
        guard let start = out.range(of: "\"name\":\"\(name)\"") else { return out }
        let open = out[..<start.lowerBound].lastIndex(of: "{") ?? out.startIndex
        var depth = 0, inString = false, escaped = false
        for i in out[open...].indices {
            let ch = out[i]
            if inString {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                continue
            }
            switch ch {
            case "\"": inString = true
            case "{": depth += 1
            case "}": depth -= 1; if depth == 0 { return String(out[open...i]) }
            default: break
            }
        }
        return String(out[open...])
    }

    @Test("half tablets: stock and per dose stay exact through takes, undo and refills")
    func halfTablets() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Warfarin", "--at", "08:00,20:00", "--per-dose", "0.5", "--stock", "9.75")
        try h.ok("take", "Warfarin", now: "2026-11-22T08:05:00+09:00")
        try h.ok("take", "Warfarin", now: "2026-11-22T20:05:00+09:00")
        let row = try Self.listed(h, "Warfarin", now: "2026-11-22T20:10:00+09:00")
        #expect(row.contains("\"per_dose\":0.5,") && row.contains("\"stock\":8.75,"), "\(row)")
        let today = try h.ok("today", now: "2026-11-22T20:10:00+09:00").out
        #expect(today.contains("Warfarin: 8.75 left"), "\(today)")
        #expect(try h.ok("today", "--json", now: "2026-11-22T20:10:00+09:00").out.contains("\"remaining\":8.75,"))

        try h.ok("undo", "Warfarin", now: "2026-11-22T20:11:00+09:00")
        #expect(try Self.listed(h, "Warfarin").contains("\"stock\":9.25,"))
        let refilled = try h.ok("refill", "Warfarin", "0.25")
        #expect(refilled.out == "Warfarin: 9.5 on hand · 9 days.\n", "\(refilled.out)")
        #expect(try Self.listed(h, "Warfarin").contains("\"stock\":9.5,"))
        try h.ok("refill", "Warfarin", "--set", "2.5")
        #expect(try Self.listed(h, "Warfarin").contains("\"stock\":2.5,"))
        // Whole amounts stay integers in JSON, as before.
        try h.ok("refill", "Warfarin", "--set", "30")
        #expect(try Self.listed(h, "Warfarin").contains("\"stock\":30,"))
        // The text table shows the plain decimal.
        try h.ok("refill", "Warfarin", "0.05")
        #expect(try h.ok("list").out.contains("30.05"))
    }

    @Test("more than two decimals, a negative or a non-number amount is a usage error naming the rule", arguments: [
        ["add", "Iron", "--at", "08:00", "--per-dose", "0.125"],
        ["add", "Iron", "--at", "08:00", "--stock", "9.755"],
        ["add", "Iron", "--at", "08:00", "--stock", "-1"],
        ["add", "Iron", "--at", "08:00", "--per-dose", "0"],
        ["add", "Iron", "--at", "08:00", "--per-dose", "1e2"],
        ["refill", "Zinc", "0.001"],
        ["refill", "Zinc", "--set", "0.333"],
    ])
    func refused(_ args: [String]) throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Zinc", "--at", "09:00", "--stock", "5")
        let r = try h.run(args)
        #expect(r.status == 64, "\(args): \(r.status) \(r.err)")
        if args.contains(where: { $0.contains(".") && $0.count > 4 }) {
            #expect(r.err.contains("two decimals"), "\(r.err)")
        }
        #expect(try Self.listed(h, "Zinc").contains("\"stock\":5,"), "nothing written")
    }

    @Test("days left divide exactly: 3 units at 2 × 0.5 a day is 3 days; 0.3 at 0.1 a day is 3 days, not 2.999…")
    func daysLeftExact() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Half", "--at", "08:00,20:00", "--per-dose", "0.5", "--stock", "3")
        try h.ok("add", "Tenth", "--at", "08:00", "--per-dose", "0.1", "--stock", "0.3")
        let stock = (try h.today()["stock"] as? [[String: Any]]) ?? []
        let days = Dictionary(uniqueKeysWithValues: stock.map { ($0["medication"] as? String ?? "", $0["days_left"] as? Int ?? -1) })
        #expect(days["Half"] == 3 && days["Tenth"] == 3, "\(stock)")
    }

    @Test("a half tablet taken on one device shows the same stock on the other; the line carries 0.5")
    func syncPair() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Warfarin", "--at", "08:00", "--per-dose", "0.5", "--stock", "9.75", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        try a.ok("sync", "now")
        try b.ok("sync", "now")
        let now = "2026-11-22T08:10:00+09:00"
        try a.ok("take", "Warfarin", now: now)
        try a.ok("sync", "now", now: now)
        try b.ok("sync", "now", now: now)
        #expect(try Self.listed(a, "Warfarin", now: now).contains("\"stock\":9.25,"))
        let row = try Self.listed(b, "Warfarin", now: now)
        #expect(row.contains("\"stock\":9.25,") && row.contains("\"per_dose\":0.5,"), "\(row)")
        let file = try String(contentsOfFile: shared + "/dosebar/" + a.syncDevice() + ".jsonl", encoding: .utf8)
        #expect(file.contains("\"units\":0.5") && file.contains("\"per_dose\":0.5") && file.contains("\"stock\":9.75"), "\(file)")
        // B refills a quarter; A sees it.
        try b.ok("refill", "Warfarin", "0.25", now: now)
        try b.ok("sync", "now", now: now)
        try a.ok("sync", "now", now: now)
        #expect(try Self.listed(a, "Warfarin", now: now).contains("\"stock\":9.5,"))
    }

    @Test("a migrated old database shows the stock it stored: every amount column is now in hundredths")
    func migrationKeepsStock() throws {
        let h = try MigrationTests.harnessWithFixture()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let before = try Fault.sql(h.db, "SELECT name || '=' || stock || '/' || per_dose FROM medication WHERE stock IS NOT NULL ORDER BY name")
        #expect(!before.isEmpty)
        let out = try h.ok("list", "--json", "--all", now: MigrationTests.now).out
        for line in before.split(separator: "\n") {
            let parts = line.split(separator: "=")
            let amounts = parts[1].split(separator: "/")
            let row = Self.object(in: out, String(parts[0]))
            #expect(row.contains("\"stock\":\(amounts[0]),") && row.contains("\"per_dose\":\(amounts[1]),"), "\(line): \(row)\n\(out)")
        }
        #expect(try Fault.sql(h.db, "SELECT count(*) FROM grdb_migrations WHERE identifier = 'v8-hundredths'") == "1")
        let deltas = try Fault.sql(h.db, "SELECT count(*) FROM event WHERE stock_delta != 0 AND stock_delta % 100 != 0")
        #expect(deltas == "0")
    }
}
