import Foundation
import Testing

/// Travel (DESIGN §3 "Where the person is", issue 43): a week in Seoul, a flight to New York on the
/// same laptop (`TZ` changes), a home server that stays on Seoul, synced. The past keeps the zone it
/// was lived in; the bar follows the person; every device agrees.
@Suite(.serialized) struct TravelTests {
    static let seoulNow = "2026-12-01T07:00:00+09:00"

    /// A week of doses in Seoul: Metformin 08:00/20:00 on time, Yasmin at 22:30 (30 min late), a
    /// bedtime pill at 00:00 taken at 00:40.
    static func seoulWeek(_ h: Harness) throws {
        try h.ok("add", "Metformin", "--at", "08:00,20:00", "--dose", "500 mg", now: seoulNow)
        try h.ok("add", "Yasmin", "--at", "22:00", now: seoulNow)
        try h.ok("add", "Melatonin", "--at", "00:00", "--from", "2026-12-02", now: seoulNow)
        for d in 1...6 {
            let day = String(format: "2026-12-%02d", d), next = String(format: "2026-12-%02d", d + 1)
            try h.ok("take", "Metformin", "--at", "\(day)T08:05", now: "\(day)T08:06:00+09:00")
            try h.ok("take", "Metformin", "--at", "\(day)T20:05", now: "\(day)T20:06:00+09:00")
            try h.ok("take", "Yasmin", "--at", "\(day)T22:30", now: "\(day)T22:31:00+09:00")
            if d >= 2 { try h.ok("take", "Melatonin", "--at", "\(day)T00:40", now: "\(day)T00:41:00+09:00") }
            _ = next
        }
    }

    /// What a doctor and the person see of the past week.
    static func past(_ h: Harness, now: String) throws -> [String] {
        [try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-06", "--format", "csv", now: now).out,
         try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-06", "--format", "json", now: now).out,
         try h.ok("history", "--from", "2026-11-30", "--to", "2026-12-06", "--json", now: now).out]
    }

    @Test("a flight west (Seoul to New York) and one east (back) change no past report, history or figure")
    func pastNeverChanges() throws {
        var h = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.seoulWeek(h)
        let before = try Self.past(h, now: "2026-12-07T09:00:00+09:00")
        #expect(before[0].contains("2026-12-02T00:40:00+09:00"), "the bedtime pill in Seoul's offset: \(before[0])")
        // Landed in New York: the laptop's clock says so.
        h.env["TZ"] = "America/New_York"
        let landed = try h.run(["today"], now: "2026-12-06T20:00:00-05:00")
        #expect(landed.status == 0)
        #expect(landed.err.contains("America/New_York") && landed.err.contains("Asia/Seoul"), "said once: \(landed.err)")
        let again = try h.run(["today"], now: "2026-12-06T20:05:00-05:00")
        #expect(!again.err.contains("clock is now on"), "said once only: \(again.err)")
        let after = try Self.past(h, now: "2026-12-07T09:00:00-05:00")
        #expect(after == before, "the flight rewrote the past")
        #expect(!after[0].contains("taken_early") && !after[0].contains(",missed,"), "\(after[0])")
        // And back east: still the same.
        h.env["TZ"] = "Asia/Seoul"
        try h.ok("today", now: "2026-12-09T08:00:00+09:00")
        #expect(try Self.past(h, now: "2026-12-09T09:00:00+09:00") == before)
        let log = try #require(try h.ok("zone", "--json", now: "2026-12-09T09:00:00+09:00").json as? [String: Any])
        let zones = (log["log"] as? [[String: Any]])?.compactMap { $0["zone"] as? String }
        #expect(zones == ["Asia/Seoul", "America/New_York", "Asia/Seoul"], "\(log)")
    }

    @Test("the report names each change of zone in its period (JSON and HTML); doctor says the person travelled")
    func reportNamesChanges() throws {
        var h = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try Self.seoulWeek(h)
        h.env["TZ"] = "America/New_York"
        try h.ok("today", now: "2026-12-06T20:00:00-05:00")
        let period = ["report", "--from", "2026-12-05", "--to", "2026-12-08"]
        let json = try #require(try h.ok(period + ["--format", "json"], now: "2026-12-09T09:00:00-05:00").json as? [String: Any])
        let moves = (json["zone_changes"] as? [[String: Any]]) ?? []
        #expect(moves.count == 1, "\(json["zone_changes"] ?? "none")")
        #expect(moves.first?["at"] as? String == "2026-12-06T20:00:00-05:00", "\(moves)")
        #expect(moves.first?["from"] as? String == "Asia/Seoul" && moves.first?["to"] as? String == "America/New_York", "\(moves)")
        #expect(json["timezone"] as? String == "America/New_York")
        let html = try h.ok(period + ["--format", "html"], now: "2026-12-09T09:00:00-05:00").out
        #expect(html.contains("20:00 (UTC-05:00), Asia/Seoul → America/New_York"), "the HTML names the change")
        // A period before the flight has none, and keeps the zone it was lived in.
        let before = try #require(try h.ok("report", "--from", "2026-12-01", "--to", "2026-12-05", "--format", "json",
                                           now: "2026-12-09T09:00:00-05:00").json as? [String: Any])
        #expect((before["zone_changes"] as? [Any])?.isEmpty == true && before["timezone"] as? String == "Asia/Seoul", "\(before["timezone"] ?? "")")
        let doctor = try h.run(["doctor"], now: "2026-12-09T09:00:00-05:00")
        #expect(doctor.out.contains("Asia/Seoul → America/New_York"), "\(doctor.out)")
    }

    @Test("flying west never repeats a dose: the 22:00 of the day of the flight comes at 22:00 New York time, 38 h after the last")
    func westNeverRepeats() throws {
        var h = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Yasmin", "--at", "22:00", now: Self.seoulNow)
        try h.ok("take", "Yasmin", now: "2026-12-06T22:05:00+09:00")
        // Left Seoul 12-07 10:00 KST; New York's clock reads 12-06 20:00.
        h.env["TZ"] = "America/New_York"
        let today = try h.today(at: "2026-12-06T20:00:00-05:00")
        #expect(today["day"] as? String == "2026-12-07", "the day already lived goes on: \(today)")
        let doses = (today["doses"] as? [[String: Any]]) ?? []
        #expect(doses.map { $0["scheduled"] as? String } == ["2026-12-07T22:00:00-05:00"], "\(doses)")
        // The gap is said on the bar, in the tooltip and by `today`, with both choices.
        let messages = (today["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        #expect(messages.contains { $0.hasPrefix("Yasmin: next dose 38 h after the last (usually 24 h). Take it at 08:00 here") }, "\(messages)")
        let text = try h.ok("today", now: "2026-12-06T20:30:00-05:00").out
        #expect(text.contains("--keep-zone Asia/Seoul") && text.contains("Now on America/New_York time"), "\(text)")
        // 22:00 in New York on the evening of landing (12-06 by its clock) is not a second 12-06 dose.
        let take = try h.run(["take", "Yasmin"], now: "2026-12-06T22:00:00-05:00")
        #expect(take.status == 65, "\(take.out)\(take.err)")
        try h.ok("take", "Yasmin", now: "2026-12-07T22:00:00-05:00")
    }

    @Test("flying east never loses a dose: one the clock jumped over comes at the landing")
    func eastNeverLoses() throws {
        var h = Harness(tz: "America/New_York", now: "2026-12-01T07:00:00-05:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Warfarin", "--at", "18:00", "--window", "1h", now: "2026-12-01T07:00:00-05:00")
        try h.ok("take", "Warfarin", now: "2026-12-06T18:00:00-05:00")
        try h.ok("take", "Warfarin", now: "2026-12-07T18:00:00-05:00")
        // Landed in Seoul at 12-08 21:00 KST (07:00 in New York): 12-08's 18:00 never came on either
        // clock (still ahead in New York, already past in Seoul): it comes at the landing.
        h.env["TZ"] = "Asia/Seoul"
        let landed = try h.today(at: "2026-12-08T21:00:00+09:00")
        let doses = (landed["doses"] as? [[String: Any]]) ?? []
        #expect(doses.map { "\($0["scheduled"]!) \($0["status"]!)" } == ["2026-12-08T21:00:00+09:00 due"], "\(doses)")
        try h.ok("take", "Warfarin", now: "2026-12-08T21:05:00+09:00")
        let next = try h.today(at: "2026-12-09T18:00:00+09:00")
        #expect(((next["doses"] as? [[String: Any]]) ?? []).compactMap { $0["scheduled"] as? String } == ["2026-12-09T18:00:00+09:00"])
        let csv = try h.ok("report", "--from", "2026-12-05", "--to", "2026-12-09", "--format", "csv", now: "2026-12-10T12:00:00+09:00").out
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst().filter { $0.contains("Warfarin") }
        #expect(rows.count == 5, "one dose a day, none doubled or lost: \(csv)")
        #expect(rows.filter { $0.contains(",taken,") || $0.contains(",taken_late,") }.count == 3, "\(csv)")
    }

    @Test("an unknown TZ is one warning line on every command, never a silent UTC")
    func unknownZoneWarns() throws {
        var h = Harness(tz: "Asia/Seoul")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        h.env["TZ"] = "Mars/Olympus"
        for args in [["list"], ["today"], ["take", "Aspirin"], ["history"], ["zone"]] {
            let r = try h.run(args)
            let warnings = r.err.split(separator: "\n").filter { $0.contains("TZ='Mars/Olympus' is not a known time zone") }
            #expect(warnings.count == 1, "\(args): \(r.err)")
        }
        h.env["TZ"] = "KST-9"
        #expect(try h.run(["list"]).err.contains("TZ='KST-9' is not a known time zone"))
    }

    @Test("zone: the log, `zone NAME` and `zone here` on purpose, a bad name 64 with nothing written")
    func zoneCommand() throws {
        let h = Harness(tz: "Asia/Seoul")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let before = h.dump()
        let bad = try h.run(["zone", "Europe/Atlantis"])
        #expect(bad.status == 64 && bad.err.contains("Europe/Atlantis"), "\(bad.err)")
        #expect(h.dump() == before)
        let set = try h.ok("zone", "Europe/Paris", now: "2026-11-22T09:00:00+09:00")
        #expect(set.out.contains("Europe/Paris") && set.out.contains("Asia/Seoul"), "\(set.out)")
        // This machine (Seoul) now shows Paris's times and says how to follow its own clock.
        let shown = try h.ok("zone", now: "2026-11-22T10:00:00+09:00").out
        #expect(shown.contains("Now in Europe/Paris (CET)") && shown.contains("dosebar zone here"), "\(shown)")
        #expect(try h.run(["doctor"], now: "2026-11-22T10:00:00+09:00").out.contains("If the person is here now: `dosebar zone here`"),
                "doctor says how to follow this machine's clock")
        let json = try #require(try h.ok("today", "--json", now: "2026-11-22T10:00:00+09:00").json as? [String: Any])
        #expect(json["timezone"] as? String == "Europe/Paris")
        try h.ok("zone", "here", now: "2026-11-22T11:00:00+09:00")
        let log = try #require(try h.ok("zone", "--json", now: "2026-11-22T12:00:00+09:00").json as? [String: Any])
        #expect(log["zone"] as? String == "Asia/Seoul" && log["follows_system"] as? Bool == true, "\(log)")
        let again = try h.ok("zone", "here", now: "2026-11-22T12:00:00+09:00")
        #expect(again.out.contains("already"), "\(again.out)")
    }

    @Test("--keep-zone: the pill stays on Seoul time in New York (08:00 here = 22:00 Seoul), versioned, listed, synced; a bad zone is 64")
    func keepZone() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-travel-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        var h = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        let server = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        defer { for p in [shared, h.root, server.root] { try? FileManager.default.removeItem(atPath: p) } }
        try h.ok("add", "Aspirin", "--at", "09:00", now: Self.seoulNow)
        let before = h.dump()
        for bad in [["add", "Yasmin", "--at", "22:00", "--keep-zone", "Mars/Olympus"], ["edit", "Aspirin", "--keep-zone", "../../etc/passwd"],
                    ["add", "Ibuprofen", "--as-needed", "--keep-zone", "Asia/Seoul"]] {
            let r = try h.run(bad, now: Self.seoulNow)
            #expect(r.status == 64 && r.err.split(separator: "\n").count == 1 && r.err.contains("--keep-zone"), "\(bad): \(r.err)")
        }
        #expect(h.dump() == before, "nothing written")
        try h.ok("add", "Yasmin", "--at", "22:00", "--keep-zone", "Asia/Seoul", now: Self.seoulNow)
        let list = try #require(try h.ok("list", "--json", now: Self.seoulNow).json as? [[String: Any]])
        let yasmin = try #require(list.first { $0["name"] as? String == "Yasmin" })
        #expect((yasmin["schedule"] as? [String: Any])?["keep_zone"] as? String == "Asia/Seoul", "\(yasmin)")
        #expect(try h.ok("list", now: Self.seoulNow).out.contains("times on Asia/Seoul time wherever you are"))
        try h.ok("sync", "init", shared, now: Self.seoulNow)
        try server.ok("sync", "init", shared, now: "2026-12-01T08:00:00+09:00")
        try h.ok("take", "Yasmin", now: "2026-12-06T22:05:00+09:00")
        // New York: the pill comes at 08:00 (22:00 in Seoul), 24 h after the last; no travel gap for it.
        h.env["TZ"] = "America/New_York"
        let landed = try h.today(at: "2026-12-07T07:00:00-05:00")
        let doses = (landed["doses"] as? [[String: Any]]) ?? []
        #expect(doses.filter { $0["medication"] as? String == "Yasmin" }.map { $0["scheduled"] as? String } == ["2026-12-07T08:00:00-05:00"], "\(doses)")
        let texts = ((landed["messages"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
        #expect(!texts.contains { $0.hasPrefix("Yasmin:") }, "kept on Seoul time, its interval did not move: \(texts)")
        #expect(texts.contains { $0.hasPrefix("Aspirin:") }, "Aspirin follows the person: \(texts)")
        #expect((landed["tooltip"] as? String)?.contains("08:00 (22:00 Asia/Seoul)  Yasmin") == true, "\(landed["tooltip"] ?? "")")
        try h.ok("take", "Yasmin", now: "2026-12-07T07:55:00-05:00")
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-12-06", "--to", "2026-12-07", now: "2026-12-08T09:00:00-05:00").out
        let rows = csv.split(whereSeparator: \.isNewline).filter { $0.contains("Yasmin") }.map(String.init)
        #expect(rows.count == 2 && rows[1].hasPrefix("2026-12-07,2026-12-07T08:00:00-05:00,Yasmin,,taken,2026-12-07T07:55:00-05:00"), "\(rows)")
        // Back to the person's clock from 12-09: the days before keep Seoul time.
        try h.ok("edit", "Yasmin", "--keep-zone", "none", "--effective", "2026-12-09", now: "2026-12-08T09:00:00-05:00")
        let later = try h.today(at: "2026-12-09T07:00:00-05:00")
        #expect(((later["doses"] as? [[String: Any]]) ?? []).filter { $0["medication"] as? String == "Yasmin" && $0["day"] as? String == "2026-12-09" }
            .compactMap { $0["scheduled"] as? String } == ["2026-12-09T22:00:00-05:00"], "\(later["doses"] ?? "")")
        #expect(try h.ok("report", "--format", "csv", "--from", "2026-12-06", "--to", "2026-12-07", now: "2026-12-09T09:00:00-05:00").out == csv)
        // The home server learns the medicine, its zone and the change by sync.
        try h.ok("sync", "now", now: "2026-12-09T09:01:00-05:00")
        try server.ok("sync", "now", now: "2026-12-09T23:02:00+09:00")
        #expect(try server.ok("report", "--format", "csv", "--from", "2026-12-06", "--to", "2026-12-07", now: "2026-12-09T23:04:00+09:00").out == csv,
                "both devices see the same doses at the same instants")
    }

    @Test("two devices in two zones agree: the home server follows the log the laptop appended")
    func devicesAgree() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-travel-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        var laptop = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        let server = Harness(tz: "Asia/Seoul", now: Self.seoulNow)
        defer { for p in [shared, laptop.root, server.root] { try? FileManager.default.removeItem(atPath: p) } }
        try laptop.ok("add", "Yasmin", "--at", "22:00", now: Self.seoulNow)
        try laptop.ok("sync", "init", shared, now: Self.seoulNow)
        try server.ok("sync", "init", shared, now: "2026-12-01T08:00:00+09:00")
        try laptop.ok("sync", "now", now: "2026-12-01T08:01:00+09:00")
        try laptop.ok("take", "Yasmin", now: "2026-12-06T22:05:00+09:00")
        // The laptop flies to New York, and the server learns of it by sync.
        laptop.env["TZ"] = "America/New_York"
        try laptop.ok("today", now: "2026-12-06T20:00:00-05:00")
        try laptop.ok("sync", "now", now: "2026-12-06T20:01:00-05:00")
        try server.ok("sync", "now", now: "2026-12-07T10:02:00+09:00")
        // Same moment, both devices: the same doses with the same statuses and times.
        let moment = "2026-12-07T12:00:00Z"
        let a = try laptop.today(at: moment), b = try server.today(at: moment)
        #expect(a["day"] as? String == b["day"] as? String)
        #expect(a["timezone"] as? String == "America/New_York" && b["timezone"] as? String == "America/New_York")
        func doses(_ s: [String: Any]) -> [String] {
            ((s["doses"] as? [[String: Any]]) ?? []).map { "\($0["medication"]!) \($0["scheduled"]!) \($0["status"]!)" }
        }
        #expect(doses(a) == doses(b), "\(doses(a)) vs \(doses(b))")
        #expect(try server.ok("zone", now: moment).out.contains("dosebar zone here"))
        #expect(try laptop.ok("report", "--format", "csv", "--from", "2026-12-01", "--to", "2026-12-06", now: moment).out
            == (try server.ok("report", "--format", "csv", "--from", "2026-12-01", "--to", "2026-12-06", now: moment).out))
    }
}
