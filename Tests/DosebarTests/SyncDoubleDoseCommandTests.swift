import Foundation
import Testing

/// Two dosebar homes (the real binary) sharing one sync folder: a dose taken on both before they
/// sync is kept twice and warned about on both (DESIGN §10 Merge rules), until `confirm` or `undo`.
@Suite("sync: a dose taken on two devices, end to end")
struct SyncDoubleDoseCommandTests {
    static let evening = "2026-11-22T18:30:00+09:00"

    /// Laptop (A) and desktop (B) share `Sync`; Warfarin 18:00 with 10 in stock. A takes at 18:10,
    /// B at 18:00, before either syncs; then both `sync now`.
    func twoTakes() throws -> (Harness, Harness) {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        try a.ok("add", "Warfarin", "--dose", "5 mg", "--at", "18:00", "--stock", "10", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        try a.ok("take", "Warfarin", now: "2026-11-22T18:10:00+09:00")
        try b.ok("take", "Warfarin", now: "2026-11-22T18:00:00+09:00")
        try a.ok("sync", "now", now: Self.evening)
        try b.ok("sync", "now", now: Self.evening)
        return (a, b)
    }

    func status(_ h: Harness, at now: String = evening) throws -> [String: Any] {
        let r = try h.run(["status", "--format", "json"], now: now)
        #expect(r.status == 0, "\(r.err)")
        return try #require(r.json as? [String: Any])
    }

    func message(_ s: [String: Any]) -> (id: String?, text: String?) {
        let m = s["message"] as? [String: Any]
        return (m?["id"] as? String, m?["text"] as? String)
    }

    func stock(_ h: Harness) throws -> Double? {
        let list = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        return list.first?["stock"] as? Double
    }

    @Test("both takes kept, stock counted twice, double_dose on both bars; confirm on one clears both")
    func confirmClears() throws {
        let (a, b) = try twoTakes()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let (laptop, desktop) = (try a.syncDevice(), try b.syncDevice())
        let expected = "Warfarin 18:00 taken twice: \(desktop) 18:00, \(laptop) 18:10"
        for h in [a, b] {
            let s = try status(h)
            #expect(message(s).id == "double_dose" && message(s).text == expected, "\(s)")
            let all = (s["messages"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(all.contains("double_dose"))
            let today = try h.today(at: Self.evening)
            let doses = today["doses"] as? [[String: Any]] ?? []
            #expect(doses.first?["status"] as? String == "taken" && (doses.first?["taken_at"] as? String)?.contains("18:00") == true,
                    "the earlier take resolves the slot: \(doses)")
            #expect(try stock(h) == 8, "stock counted twice")
        }
        // Nothing to confirm for a slot that was not taken twice.
        let wrong = try a.run(["confirm", "Warfarin", "--slot", "2026-11-21 18:00"], now: Self.evening)
        #expect(wrong.status == 65 && wrong.err.split(separator: "\n").count == 1, "\(wrong)")
        let confirmed = try b.ok("confirm", "Warfarin", now: Self.evening)
        #expect(confirmed.out.contains("Confirmed: Warfarin 18:00 was taken twice"), "\(confirmed.out)")
        #expect(message(try status(b)).id != "double_dose")
        try a.ok("sync", "now", now: Self.evening)
        for h in [a, b] {
            let s = try status(h)
            #expect(message(s).id != "double_dose", "\(s)")
            #expect(try stock(h) == 8, "both still taken")
        }
        #expect(try a.run(["confirm", "Warfarin"], now: Self.evening).status == 65, "nothing left to confirm")
    }

    @Test("an undo on the other device clears the warning on both, and gives the stock back")
    func undoClears() throws {
        let (a, b) = try twoTakes()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("undo", "Warfarin", now: Self.evening)
        try b.ok("sync", "now", now: Self.evening)
        for h in [a, b] {
            let s = try status(h)
            #expect(message(s).id != "double_dose", "\(s)")
            #expect(try stock(h) == 9)
            #expect(try h.statuses(at: Self.evening) == ["Warfarin:taken"])
        }
    }

    @Test("history and every report format mark the dose taken twice, before and after confirm")
    func historyAndReport() throws {
        let (a, b) = try twoTakes()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        func check(confirmed: Bool) throws {
            for h in [a, b] {
                let days = try #require(try h.run(["history", "--json", "--from", "2026-11-21", "--to", "2026-11-22"], now: Self.evening).json
                    as? [[String: Any]])
                #expect(days.count == 2 && days[0]["double_dose"] == nil && days[1]["double_dose"] as? Int == 1, "\(days)")
                let calendar = try h.ok("history", "--from", "2026-11-16", "--to", "2026-11-22", now: Self.evening).out
                #expect(calendar.contains("Warfarin 2026-11-22 18:00 taken twice:"), "\(calendar)")
                #expect(calendar.contains("(confirmed)") == confirmed, "\(calendar)")
                let csv = try h.ok("report", "--from", "2026-11-21", "--to", "2026-11-22", "--format", "csv", now: Self.evening).out
                let lines = csv.split(separator: "\r\n").map(String.init)
                #expect(lines.first?.hasSuffix(",over_limit,decided_after_close,double_dose") == true, "the column last: \(csv)")
                #expect(lines.filter { $0.hasPrefix("2026-11-22,") }.allSatisfy { $0.hasSuffix(",true") }, "\(csv)")
                #expect(lines.filter { $0.hasPrefix("2026-11-21,") }.allSatisfy { $0.hasSuffix(",false") }, "\(csv)")
                let json = try #require(try h.ok("report", "--from", "2026-11-22", "--to", "2026-11-22", "--format", "json", now: Self.evening)
                    .json as? [String: Any])
                let slots = json["slots"] as? [[String: Any]] ?? []
                #expect(slots.count == 1 && slots[0]["double_dose"] as? Bool == true, "\(slots)")
                let html = try h.ok("report", "--from", "2026-11-22", "--to", "2026-11-22", "--format", "html", now: Self.evening).out
                #expect(html.contains("<section class=\"twice\">") && html.contains("Doses taken twice"), "\(html)")
                #expect(html.contains("both confirmed") == confirmed)
            }
        }
        try check(confirmed: false)
        try a.ok("confirm", "Warfarin", "--slot", "18:00", now: Self.evening)
        try b.ok("sync", "now", now: Self.evening)
        try check(confirmed: true)
    }

    @Test("confirm --help shows examples")
    func help() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let r = try h.run("confirm", "--help")
        #expect(r.status == 0 && r.out.contains("$ dosebar confirm Warfarin --slot 18:00"), "\(r.out)\(r.err)")
    }
}
