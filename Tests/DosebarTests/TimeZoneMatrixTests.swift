import Foundation
import Testing

/// One scenario — two medicines, a take, a back-dated take, a skip, undos — replayed through the
/// binary in six zones on the days of both of each zone's 2026 DST changes (`zdump -v -c 2026,2027`),
/// checking `today --json` against DESIGN §3 computed here with Foundation, never with DoseCore.
@Suite struct TimeZoneMatrixTests {
    /// A zone, a day, a slot time at the DST edge and where DESIGN §3 puts it (read off zdump:
    /// a time in a spring-forward gap moves forward by the gap, a repeated time is its first occurrence).
    struct Case: CustomTestStringConvertible, Sendable {
        var zone: String
        var day: String
        var edge: String
        var edgeInstant: String
        /// Local hours that exist that day (each occurrence of a repeated hour counts).
        var hours: Int
        var testDescription: String { "\(zone) \(day) \(edge)" }
    }

    static let cases: [Case] = [
        Case(zone: "UTC", day: "2026-03-08", edge: "02:30", edgeInstant: "2026-03-08T02:30:00+00:00", hours: 24),
        Case(zone: "UTC", day: "2026-11-01", edge: "01:30", edgeInstant: "2026-11-01T01:30:00+00:00", hours: 24),
        Case(zone: "Asia/Seoul", day: "2026-03-29", edge: "01:30", edgeInstant: "2026-03-29T01:30:00+09:00", hours: 24),
        Case(zone: "Asia/Seoul", day: "2026-10-25", edge: "01:30", edgeInstant: "2026-10-25T01:30:00+09:00", hours: 24),
        // EST→EDT Sun Mar 8 02:00→03:00; EDT→EST Sun Nov 1 02:00→01:00.
        Case(zone: "America/New_York", day: "2026-03-08", edge: "02:30", edgeInstant: "2026-03-08T03:30:00-04:00", hours: 23),
        Case(zone: "America/New_York", day: "2026-11-01", edge: "01:30", edgeInstant: "2026-11-01T01:30:00-04:00", hours: 25),
        // GMT→BST Sun Mar 29 01:00→02:00; BST→GMT Sun Oct 25 02:00→01:00.
        Case(zone: "Europe/London", day: "2026-03-29", edge: "01:30", edgeInstant: "2026-03-29T02:30:00+01:00", hours: 23),
        Case(zone: "Europe/London", day: "2026-10-25", edge: "01:30", edgeInstant: "2026-10-25T01:30:00+01:00", hours: 25),
        // +11→+10:30 Sun Apr 5 02:00→01:30 (01:30–02:00 twice); +10:30→+11 Sun Oct 4 02:00→02:30.
        Case(zone: "Australia/Lord_Howe", day: "2026-04-05", edge: "01:45", edgeInstant: "2026-04-05T01:45:00+11:00", hours: 24),
        Case(zone: "Australia/Lord_Howe", day: "2026-10-04", edge: "02:15", edgeInstant: "2026-10-04T02:45:00+11:00", hours: 23),
        // +13:45→+12:45 Sun Apr 5 03:45→02:45 (02:45–03:45 twice); +12:45→+13:45 Sun Sep 27 02:45→03:45.
        Case(zone: "Pacific/Chatham", day: "2026-04-05", edge: "03:00", edgeInstant: "2026-04-05T03:00:00+13:45", hours: 25),
        Case(zone: "Pacific/Chatham", day: "2026-09-27", edge: "03:00", edgeInstant: "2026-09-27T04:00:00+13:45", hours: 23),
    ]

    // MARK: - Foundation-side expectations

    struct Clock {
        let tz: TimeZone
        let cal: Calendar
        let day: DateComponents

        init(_ zone: String, _ day: String) {
            tz = TimeZone(identifier: zone)!
            var c = Calendar(identifier: .gregorian)
            c.timeZone = tz
            cal = c
            let p = day.split(separator: "-").map { Int($0)! }
            self.day = DateComponents(year: p[0], month: p[1], day: p[2])
        }

        /// An unambiguous local time of the day (or of a day `offset` away).
        func at(_ hhmm: String, second: Int = 0, dayOffset: Int = 0) -> Date {
            let p = hhmm.split(separator: ":").map { Int($0)! }
            var c = day
            c.hour = p[0]; c.minute = p[1]; c.second = second
            let d = cal.date(from: c)!
            return dayOffset == 0 ? d : cal.date(byAdding: .day, value: dayOffset, to: d)!
        }

        var start: Date { cal.startOfDay(for: at("12:00")) }
        /// The day after, as its own clock (its times read off its own date, not shifted from this day's).
        var nextDay: Clock {
            let d = cal.dateComponents([.year, .month, .day], from: at("12:00", dayOffset: 1))
            return Clock(tz.identifier, String(format: "%04d-%02d-%02d", d.year!, d.month!, d.day!))
        }
        var end: Date { cal.startOfDay(for: at("12:00", dayOffset: 1)) }

        /// `YYYY-MM-DDTHH:MM:SS±HH:MM` in the zone's offset at that instant.
        func iso(_ d: Date) -> String {
            let off = tz.secondsFromGMT(for: d)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0)!
            let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d.addingTimeInterval(Double(off)))
            func p(_ v: Int, _ w: Int = 2) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
            let a = abs(off)
            return "\(p(c.year!, 4))-\(p(c.month!))-\(p(c.day!))T\(p(c.hour!)):\(p(c.minute!)):\(p(c.second!))"
                + (off < 0 ? "-" : "+") + p(a / 3600) + ":" + p(a % 3600 / 60)
        }

        /// Every instant of the day at which the local clock shows a whole hour.
        var hourInstants: [Date] {
            var out: [Date] = []
            var t = start
            while t < end {
                if (Int(t.timeIntervalSince1970) + tz.secondsFromGMT(for: t)) % 3600 == 0 { out.append(t) }
                t = t.addingTimeInterval(60)
            }
            return out
        }
    }

    static func parse(_ iso: String) -> Date? {
        let f = ISO8601DateFormatter()
        return f.date(from: iso)
    }

    /// A slot of the scenario: its instant, window and the instant of its medicine's next slot T′.
    struct Slot {
        var name: String; var instant: Date; var window: TimeInterval; var next: Date
        /// DESIGN §3, the leaflet rule: C = max(T + W, min(T′ − W, T + 24 h)).
        var cutoff: Date {
            max(instant.addingTimeInterval(window), min(next.addingTimeInterval(-window), instant.addingTimeInterval(86400)))
        }
    }

    /// DESIGN §4: the next instant after `t` at which anything may change — an hour, a slot's T, T+W,
    /// T+2h, T+4h, its cut-off C, an effective event — or the end of the day.
    static func validUntil(_ t: Date, clock: Clock, slots: [Slot], events: [Date]) -> Date {
        var candidates = clock.hourInstants + events
        for s in slots { candidates += [0, s.window, 7200, 14400].map { s.instant.addingTimeInterval($0) } + [s.cutoff] }
        return candidates.filter { $0 > t && $0 < clock.end }.min() ?? clock.end
    }

    // MARK: - The scenario

    @Test(arguments: cases)
    func scenarioAcrossDSTChanges(_ c: Case) throws {
        let clock = Clock(c.zone, c.day)
        let h = Harness(tz: c.zone, now: clock.iso(clock.at("12:00", dayOffset: -1)))
        try h.ok("add", "Alpha", "--at", "\(c.edge),20:00", "--stock", "10", "--from", c.day)
        try h.ok("add", "Beta", "--at", "00:30,09:00,23:30", "--window", "30m", "--stock", "5", "--per-dose", "2", "--from", c.day)

        let edge = try #require(TimeZoneMatrixTests.parse(c.edgeInstant))
        let a20 = clock.at("20:00"), b0030 = clock.at("00:30"), b0900 = clock.at("09:00"), b2330 = clock.at("23:30")
        // T′ of each slot: the medicine's next one; after the last of the day, the first of the next day
        // (an ordinary day in every case: its edge time exists once).
        let next = clock.nextDay
        let slots = [Slot(name: "Alpha", instant: edge, window: 7200, next: a20),
                     Slot(name: "Alpha", instant: a20, window: 7200, next: next.at(c.edge)),
                     Slot(name: "Beta", instant: b0030, window: 1800, next: b0900),
                     Slot(name: "Beta", instant: b0900, window: 1800, next: b2330),
                     Slot(name: "Beta", instant: b2330, window: 1800, next: next.at("00:30"))]
        // Beta 00:30 closes at max(01:00, min(09:00 − 30 min, 00:30 + 24 h)) = 08:30; 09:00 at 23:00;
        // Alpha's edge slot at 20:00 − 2 h = 18:00; Alpha 20:00 at the next day's edge − 2 h or 22:00,
        // whichever is later (23:30, 23:45, 00:15, 00:30 or 01:00 by case).
        #expect(slots[2].cutoff == clock.at("08:30") && slots[3].cutoff == clock.at("23:00") && slots[0].cutoff == clock.at("18:00"))

        /// `today --json` at `t`: doses keyed by local scheduled time, stock by name.
        func today(_ t: Date, events: [Date], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
            let s = try h.today(at: clock.iso(t))
            #expect(s["at"] as? String == clock.iso(t), "at", sourceLocation: sourceLocation)
            if t < clock.end {
                let want = clock.iso(TimeZoneMatrixTests.validUntil(t, clock: clock, slots: slots, events: events))
                #expect(s["valid_until"] as? String == want, "valid_until at \(clock.iso(t)) in \(c.zone)", sourceLocation: sourceLocation)
            }
            return s
        }
        func dose(_ s: [String: Any], _ name: String, _ at: Date) -> [String: Any] {
            let doses = (s["doses"] as? [[String: Any]]) ?? []
            return doses.first { $0["medication"] as? String == name && $0["scheduled"] as? String == clock.iso(at) } ?? [:]
        }
        func stock(_ s: [String: Any], _ name: String) -> Int? {
            ((s["stock"] as? [[String: Any]]) ?? []).first { $0["medication"] as? String == name }?["remaining"] as? Int
        }
        func lateMinutes(_ t: Date, _ slot: Date) -> Int { Int((t.timeIntervalSince(slot) / 60).rounded(.down)) }

        // 1. A minute before the DST-edge slot: it is upcoming and placed where DESIGN §3 says.
        var t = edge.addingTimeInterval(-60)
        var s = try today(t, events: [])
        #expect(dose(s, "Alpha", edge)["status"] as? String == "upcoming", "edge slot \(c.edge) at \(c.edgeInstant): \(s["doses"] ?? "")")
        #expect(dose(s, "Beta", b0030)["status"] as? String == "late")
        #expect(dose(s, "Beta", b0030)["late_minutes"] as? Int == lateMinutes(t, b0030))
        #expect(s["state"] as? String == "late")

        // 2. Ten minutes after it: take it.
        let took = edge.addingTimeInterval(600)
        var r = try h.run(["take", "Alpha"], now: clock.iso(took))
        #expect(r.status == 0, "\(r.err)")
        s = try today(took, events: [took])
        #expect(dose(s, "Alpha", edge)["status"] as? String == "taken")
        #expect(dose(s, "Alpha", edge)["taken_at"] as? String == clock.iso(took))
        #expect(stock(s, "Alpha") == 9)

        // 3. 08:29: Beta's 00:30 is late by the real elapsed time (DST included), a minute before its
        //    cut-off (08:30). 10:00: it is missed; Beta's 09:00 (W = 30 min) is late by 60 min; then a
        //    back-dated take of 09:10 resolves the 09:00 dose.
        t = clock.at("08:29")
        s = try today(t, events: [took])
        #expect(dose(s, "Beta", b0030)["status"] as? String == "late")
        #expect(dose(s, "Beta", b0030)["late_minutes"] as? Int == lateMinutes(t, b0030), "00:30 → 08:29 across the DST change")
        s = try today(clock.at("08:30"), events: [took])
        #expect(dose(s, "Beta", b0030)["status"] as? String == "missed")
        #expect(dose(s, "Beta", b0030)["late_minutes"] is NSNull)
        t = clock.at("10:00")
        s = try today(t, events: [took])
        #expect(dose(s, "Beta", b0900)["status"] as? String == "late")
        #expect(dose(s, "Beta", b0900)["late_minutes"] as? Int == 60)
        #expect(dose(s, "Beta", b0030)["status"] as? String == "missed")
        let backdated = clock.at("09:10")
        let atText = c.hours == 24 ? "09:10" : "\(c.day)T09:10" // both --at forms
        r = try h.run(["take", "Beta", "--at", atText], now: clock.iso(t))
        #expect(r.status == 0, "\(r.err)")
        s = try today(t, events: [took, backdated])
        #expect(dose(s, "Beta", b0900)["status"] as? String == "taken")
        #expect(dose(s, "Beta", b0900)["taken_at"] as? String == clock.iso(backdated))
        #expect(dose(s, "Beta", b0030)["status"] as? String == "missed")
        #expect(stock(s, "Beta") == 3)

        // 4. 21:00: skip Alpha — its 20:00 dose (due) is skipped.
        t = clock.at("21:00")
        r = try h.run(["skip", "Alpha"], now: clock.iso(t))
        #expect(r.status == 0, "\(r.err)")
        s = try today(t, events: [took, backdated, t])
        #expect(dose(s, "Alpha", a20)["status"] as? String == "skipped")

        // 5. 21:05: undo reverts the skip; the 20:00 dose is due again, stock untouched.
        t = clock.at("21:05")
        r = try h.run(["undo"], now: clock.iso(t))
        #expect(r.status == 0 && r.out.contains("skipped Alpha"), "\(r.out) \(r.err)")
        s = try today(t, events: [took, backdated])
        #expect(dose(s, "Alpha", a20)["status"] as? String == "due")
        #expect(stock(s, "Alpha") == 9)

        // 6. 21:06: undo Beta reverts the back-dated take and gives its 2 units back.
        t = clock.at("21:06")
        r = try h.run(["undo", "Beta"], now: clock.iso(t))
        #expect(r.status == 0, "\(r.err)")
        s = try today(t, events: [took])
        #expect(dose(s, "Beta", b0900)["status"] as? String == "late")
        #expect(stock(s, "Beta") == 5)

        // 7. 23:59:30: Beta 23:30 due, Beta 09:00 (undone) missed since 23:00, Alpha 20:00 late by 239 min
        //    if its cut-off is after now, else missed; the snapshot holds until midnight.
        t = clock.at("23:59", second: 30)
        s = try today(t, events: [took])
        let alphaOpen = t < slots[1].cutoff
        #expect(dose(s, "Alpha", a20)["status"] as? String == (alphaOpen ? "late" : "missed"), "cut-off \(clock.iso(slots[1].cutoff))")
        if alphaOpen { #expect(dose(s, "Alpha", a20)["late_minutes"] as? Int == 239) }
        #expect(dose(s, "Beta", b0900)["status"] as? String == "missed")
        #expect(dose(s, "Beta", b2330)["status"] as? String == "due")
        #expect(s["valid_until"] as? String == clock.iso(clock.end))
        let counts = s["counts"] as? [String: Int] ?? [:]
        #expect(counts["total"] == 5 && counts["taken"] == 1 && counts["due"] == 1 && counts["carried"] == 0, "\(counts)")
        #expect(counts["late"] == (alphaOpen ? 1 : 0) && counts["missed"] == (alphaOpen ? 2 : 3), "\(counts)")
        #expect(s["state"] as? String == (alphaOpen ? "late" : "due"))
        // The timeline written now has an entry at every local hour that exists that day.
        r = try h.run(["export"], now: clock.iso(t))
        #expect(r.status == 0, "\(r.err)")
        let timeline = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/timeline.json"))) as? [String: Any]
        let entries = (timeline?["entries"] as? [[String: Any]]) ?? []
        let hourEntries = entries.compactMap { $0["at"] as? String }.filter { $0.dropFirst(14).hasPrefix("00:00") }
        #expect(hourEntries.count == c.hours, "\(c.zone) \(c.day): \(hourEntries.count) hour entries, expected \(c.hours)")
        #expect(Set(hourEntries) == Set(clock.hourInstants.map(clock.iso)), "hour entries of \(c.day) in \(c.zone)")
        #expect(timeline?["reload_at"] as? String == clock.iso(clock.end))

        // 8. Just after midnight: a new day; yesterday had missed doses, so the streak is 0.
        t = clock.end.addingTimeInterval(30)
        s = try h.today(at: clock.iso(t))
        #expect(s["day"] as? String != c.day)
        #expect((s["streak"] as? [String: Any])?["current"] as? Int == 0)
        let ids = ((s["messages"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        #expect(ids.contains("missed_yesterday"), "\(ids)")
    }
}
