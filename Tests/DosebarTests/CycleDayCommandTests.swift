import Foundation
import Testing

/// Issue 46: a medicine on a cycle says which day of it today is, on active days as on rest days, in
/// `list` (text and JSON), the tooltip (`snapshot.json`, `waybar.json`) and `conky.txt`.
@Suite struct CycleDayCommandTests {
    /// Yasmin 21/7 from Sunday 2026-11-01 (New York): 11-13 is active day 13 and the rest starts on
    /// Sunday 11-22; 11-24 is rest day 3 and it resumes on Sunday 11-29.
    func harness() throws -> Harness {
        let h = Harness(tz: "America/New_York", now: "2026-11-13T12:00:00-05:00")
        try h.ok("add", "Yasmin", "--at", "21:00", "--cycle", "21/7", "--from", "2026-11-01")
        try h.ok("add", "Vitamin D", "--at", "08:00")
        return h
    }

    func file(_ h: Harness, _ name: String) throws -> String {
        try String(contentsOfFile: h.dir + "/" + name, encoding: .utf8)
    }

    @Test("an active day: list, list --json, the tooltip and conky say day 13 of 21 and when the rest starts")
    func activeDay() throws {
        let h = try harness()
        let list = try h.ok("list").out
        #expect(list.contains("since 2026-11-01 · day 13 of 21, rest from 2026-11-22 · window 2h"), "\(list)")
        let rows = try #require(try h.ok("list", "--json").json as? [[String: Any]])
        let yasmin = try #require(rows.first { $0["name"] as? String == "Yasmin" })
        #expect(yasmin["cycle_phase"] as? String == "active" && yasmin["cycle_day"] as? Int == 13
                && yasmin["cycle_length"] as? Int == 21 && yasmin["cycle_next"] as? String == "2026-11-22", "\(yasmin)")
        let vitamin = try #require(rows.first { $0["name"] as? String == "Vitamin D" })
        #expect(vitamin["cycle_day"] is NSNull && vitamin["cycle_next"] is NSNull)

        try h.ok("export")
        let line = "Yasmin: day 13 of 21, rest from Sun 22 Nov"
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(try file(h, "snapshot.json").utf8)) as? [String: Any])
        #expect((snapshot["tooltip"] as? String)?.components(separatedBy: "\n").contains(line) == true, "\(snapshot["tooltip"] ?? "")")
        let cycle = try #require((snapshot["cycle"] as? [[String: Any]])?.first)
        #expect(cycle["next"] as? String == "2026-11-22" && cycle["text"] as? String == line && cycle["day"] as? Int == 13)
        #expect(try file(h, "waybar.json").contains(line))
        #expect(try file(h, "conky.txt").components(separatedBy: "\n").contains("${color}" + line + "${color}"))
        try ScenarioGoldenTests.validate(dir: h.dir)
    }

    @Test("a rest day: the same places say rest day 3 of 7 and when it resumes; the tooltip says it once")
    func restDay() throws {
        let h = try harness()
        let at = "2026-11-24T12:00:00-05:00"
        #expect(try h.ok("list", now: at).out.contains("rest day 3 of 7, resumes 2026-11-29"))
        let yasmin = try #require((try h.ok("list", "--json", now: at).json as? [[String: Any]])?.first { $0["name"] as? String == "Yasmin" })
        #expect(yasmin["cycle_phase"] as? String == "rest" && yasmin["cycle_day"] as? Int == 3
                && yasmin["cycle_length"] as? Int == 7 && yasmin["cycle_next"] as? String == "2026-11-29", "\(yasmin)")
        try h.ok("export", now: at)
        let tooltip = try #require((try JSONSerialization.jsonObject(with: Data(try file(h, "snapshot.json").utf8)) as? [String: Any])?["tooltip"] as? String)
        #expect(tooltip.components(separatedBy: "rest day 3 of 7").count == 2, "\(tooltip)")
        #expect(try file(h, "conky.txt").contains("${color}Yasmin: rest day 3 of 7, resumes Sun 29 Nov${color}"))
        let ko = try h.ok("--lang", "ko", "list", now: at).out
        #expect(ko.contains("휴약 7일 중 3일째, 2026-11-29에 재개"), "\(ko)")
    }
}
