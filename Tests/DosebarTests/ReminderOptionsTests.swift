import Foundation
import Testing

/// `add`/`edit --urgent --repeat DURATION` and `[notify] repeat` (issue 46, DESIGN §2 and §5): what
/// a person types is kept, listed and synced; bad input is one line, exit 64, nothing changed.
@Suite("Reminder options: --urgent, --repeat, [notify] repeat")
struct ReminderOptionsTests {
    static func medicine(_ h: Harness, _ name: String) throws -> [String: Any] {
        let list = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        return try #require(list.first { $0["name"] as? String == name })
    }

    @Test("kept, listed and changed by edit; --repeat off is not the default")
    func keptAndListed() throws {
        let h = Harness()
        try h.ok("add", "Warfarin", "--at", "20:00", "--urgent", "--repeat", "10m")
        try h.ok("add", "Vitamin D", "--at", "08:00")
        try h.ok("add", "Metformin", "--at", "08:00", "--repeat", "off")
        var w = try Self.medicine(h, "Warfarin")
        #expect(w["urgent"] as? Bool == true && w["repeat_minutes"] as? Int == 10, "\(w)")
        let d = try Self.medicine(h, "Vitamin D")
        #expect(d["urgent"] as? Bool == false && d["repeat_minutes"] is NSNull, "no --repeat: the configuration decides")
        #expect(try Self.medicine(h, "Metformin")["repeat_minutes"] as? Int == 0)
        let text = try h.ok("list").out
        #expect(text.contains("urgent reminders · reminders repeat every 10m"), "\(text)")
        #expect(text.contains("reminders never repeat"), "\(text)")
        try h.ok("edit", "Warfarin", "--no-urgent", "--repeat", "1h30m")
        w = try Self.medicine(h, "Warfarin")
        #expect(w["urgent"] as? Bool == false && w["repeat_minutes"] as? Int == 90, "\(w)")
    }

    @Test("bad --repeat: one line naming the flag, exit 64, nothing added or changed",
          arguments: ["0m", "0", "30s", "90s", "25h", "10", "soon", "-5m"])
    func badRepeat(value: String) throws {
        let h = Harness()
        try h.ok("add", "Warfarin", "--at", "20:00", "--repeat", "10m")
        let before = try h.ok("list", "--json").out
        for args in [["add", "Metformin", "--at", "08:00", "--repeat", value], ["edit", "Warfarin", "--repeat", value]] {
            let r = try h.run(args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.err)")
            let lines = r.err.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("--repeat"), "\(r.err)")
        }
        #expect(try h.ok("list", "--json").out == before)
    }

    @Test("[notify] repeat: a duration or off is accepted; anything else is named with its file and line")
    func configured() throws {
        let h = Harness()
        try h.ok("add", "Warfarin", "--at", "20:00")
        let config = h.root + "/config/dosebar"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        for (good, shown) in [("10m", "10m"), ("off", "off"), ("2h", "2h")] {
            try "[notify]\nrepeat = \"\(good)\"\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
            try h.ok("today")
            let line = try h.ok("config").out.split(separator: "\n").first { $0.hasPrefix("notify.repeat") }
            #expect(line?.contains(" \(shown) ") == true && line?.contains("config") == true, "\(good): \(line ?? "none")")
        }
        for bad in ["\"0m\"", "\"10\"", "10", "true"] {
            try "[notify]\nrepeat = \(bad)\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
            let r = try h.run(["today"])
            #expect(r.status == 78 && r.err.contains("config.toml:2") && r.err.contains("repeat"), "\(bad): \(r.status) \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        }
    }

    @Test("synced: an edit of --urgent and --repeat on one device arrives on the other, and a later one wins")
    func synced() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        try a.ok("add", "Warfarin", "--at", "20:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        #expect(try Self.medicine(b, "Warfarin")["urgent"] as? Bool == false)
        try a.ok("edit", "Warfarin", "--urgent", "--repeat", "15m", now: "2026-11-22T08:00:00+09:00")
        try b.ok("sync", "now", now: "2026-11-22T08:01:00+09:00")
        var w = try Self.medicine(b, "Warfarin")
        #expect(w["urgent"] as? Bool == true && w["repeat_minutes"] as? Int == 15, "\(w)")
        // B turns the repeat off later; A's urgency stays (each detail is a register of its own).
        try b.ok("edit", "Warfarin", "--repeat", "off", now: "2026-11-22T08:02:00+09:00")
        try a.ok("sync", "now", now: "2026-11-22T08:03:00+09:00")
        w = try Self.medicine(a, "Warfarin")
        #expect(w["urgent"] as? Bool == true && w["repeat_minutes"] as? Int == 0, "\(w)")
    }
}
