import Foundation
import Testing

/// The confirmation lines of `take` and `skip` through the binary (DESIGN §2): one line per dose.
@Suite struct ConfirmationLineTests {
    @Test("take and skip say which slot, its day, when, how early or late, what is left and a low/empty warning")
    func lines() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let start = "2026-11-21T07:00:00+09:00"
        try h.ok("add", "Yaz", "--at", "22:00", "--window", "1h", "--stock", "13", now: start)
        try h.ok("add", "Aspirin", "--at", "08:00", "--window", "1h", "--stock", "30", "--dose", "100 mg", now: start)
        try h.ok("add", "Magnesium", "--at", "21:00", "--stock", "8", "--low-days", "7", now: start)
        try h.ok("add", "Last", "--at", "21:00", "--stock", "1", now: start)
        try h.ok("add", "Ibuprofen", "--as-needed", "--max-per-day", "3", now: start)

        // Last night's 22:00 dose, back-dated after midnight.
        let yaz = try h.ok("take", "Yaz", "--at", "2026-11-21T23:30", now: "2026-11-22T00:40:00+09:00")
        #expect(yaz.out == "Took Yaz (yesterday's 22:00 dose) at 2026-11-21 23:30, 1h 30m late · 12 left (12 days)\n", "\(yaz.out)")

        // At 06:50 yesterday's 08:00 dose is still open (it closes at 07:00, the next one's window):
        // `--at 06:50` alone would take it; `--slot` names today's.
        let early = try h.ok("take", "Aspirin", "--slot", "08:00", "--at", "06:50", now: "2026-11-22T07:00:00+09:00")
        #expect(early.out == "Took Aspirin 100 mg (08:00 dose) at 06:50, 1h 10m early · 29 left (29 days)\n", "\(early.out)")

        // Two medicines in one command: one line each; 7 days left of 7 is low, none left says so.
        let two = try h.ok("take", "Magnesium", "Last", now: "2026-11-22T21:05:00+09:00")
        #expect(two.out == "Took Magnesium (21:00 dose) at 21:05 · 7 left (7 days) · low: refill soon\n"
                + "Took Last (21:00 dose) at 21:05 · none left\n", "\(two.out)")

        let prn = try h.ok("take", "Ibuprofen", now: "2026-11-22T14:00:00+09:00")
        #expect(prn.out == "Took Ibuprofen at 14:00 (1 of 3 today)\n", "\(prn.out)")
        let ko = try h.ok("take", "Ibuprofen", "--lang", "ko", now: "2026-11-22T15:00:00+09:00")
        #expect(ko.out == "Ibuprofen 복용함 (15:00 복용, 오늘 2/3회)\n", "\(ko.out)")

        let skip = try h.ok("skip", "Yaz", now: "2026-11-22T21:30:00+09:00")
        #expect(skip.out == "Skipped Yaz (22:00 dose)\n", "\(skip.out)")
    }

    @Test("a bar click (take --next) says the same; Korean")
    func barClick() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00", "--window", "1h", "--stock", "3", "--low-days", "2", now: "2026-11-22T07:00:00+09:00")
        let click = try h.ok("take", "--next", "--lang", "ko", now: "2026-11-22T09:30:00+09:00")
        #expect(click.out == "Aspirin 복용함 (08:00 예정분, 09:30 복용, 1시간 30분 늦음) · 2 남음 (2일분) · 부족: 곧 보충하세요\n", "\(click.out)")
    }
}
