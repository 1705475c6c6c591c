import Foundation
import Testing

/// At a glance, end to end (DESIGN §2, §3 Messages): `refill` and `add --stock` say how many days the
/// stock lasts, the bar line names a medicine running low, `missed_yesterday` names the doses.
@Suite struct GlanceCommandTests {
    static let korean = ["LANG": "ko_KR.UTF-8"]

    @Test("refill, refill --set and add --stock say what is on hand and how many days it lasts")
    func refillSaysDays() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        // Half a tablet once a day: 12 last 24 days.
        #expect(try h.ok("add", "Warfarin", "--at", "18:00", "--per-dose", "0.5", "--stock", "12").out
            == "Added Warfarin: daily at 18:00 · 12 on hand · 24 days.\n")
        #expect(try h.ok("refill", "Warfarin", "--set", "12").out == "Warfarin: 12 on hand · 24 days.\n")
        #expect(try h.ok("refill", "Warfarin", "0.5").out == "Warfarin: 12.5 on hand · 25 days.\n")
        let ko = try h.run(["refill", "Warfarin", "--set", "12"], extraEnv: Self.korean)
        #expect(ko.status == 0 && ko.out == "Warfarin: 재고 12 · 24일분.\n", "\(ko.out)")
        // Twice a day, 10 on hand: 5 days, at or under the 7 low days.
        #expect(try h.ok("add", "Metformin", "--at", "08:00,20:00", "--stock", "10").out
            == "Added Metformin: daily at 08:00, 20:00 · 10 on hand · 5 days · low: refill soon.\n")
        #expect(try h.ok("refill", "Metformin", "2").out == "Metformin: 12 on hand · 6 days · low: refill soon.\n")
        #expect(try h.ok("refill", "Metformin", "--set", "1").out == "Metformin: 1 on hand · 0 days · low: refill soon.\n")
        #expect(try h.ok("refill", "Metformin", "--set", "0").out == "Metformin: 0 on hand · low: refill soon.\n")
        // As needed: no daily units, so no days.
        #expect(try h.ok("add", "Ibuprofen", "--as-needed", "--stock", "20").out.hasSuffix(" · 20 on hand.\n"))
        #expect(try h.ok("refill", "Ibuprofen", "4").out == "Ibuprofen: 24 on hand.\n")
        // No stock tracked: nothing about it.
        #expect(try h.ok("add", "Aspirin", "--at", "09:00").out == "Added Aspirin: daily at 09:00.\n")
    }

    @Test("the bar line names a medicine running low when nothing is due or late, in every bar format")
    func lowStockOnTheBarLine() throws {
        let h = Harness(now: "2026-11-22T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Warfarin", "--at", "18:00", "--stock", "3")
        let text = try h.ok("status", "--format", "text").out
        #expect(text.hasSuffix("0/1 · Warfarin 18:00 · Warfarin low (3 days)\n"), "\(text)")
        for format in ["tmux", "polybar", "waybar", "i3blocks", "conky"] {
            let out = try h.ok("status", "--format", format).out
            #expect(out.contains("Warfarin low (3 days)"), "\(format): \(out)")
        }
        // Due at 18:00: the due dose keeps the line.
        let due = try h.ok("status", "--format", "text", now: "2026-11-22T18:05:00+09:00").out
        #expect(due.contains("Warfarin due") && !due.contains("low"), "\(due)")
    }

    @Test("the morning after, missed_yesterday names each dose and its time")
    func missedYesterdayNamesDoses() throws {
        let h = Harness(now: "2026-11-21T07:00:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Metformin", "--at", "08:00,20:00")
        // The 21st's 08:00 closed at 18:00 and its 20:00 at 06:00 on the 22nd (the next dose less the window).
        let messages = (try h.today(at: "2026-11-22T07:00:00+09:00")["messages"] as? [[String: Any]]) ?? []
        let missed = messages.first { $0["id"] as? String == "missed_yesterday" }
        #expect(missed?["text"] as? String == "Yesterday: Metformin 08:00, Metformin 20:00 missed — don't double today's dose",
                "\(messages)")
    }
}
