@testable import DoseCore
@testable import DoseExport
import DoseTestSupport
import Foundation
import Testing

/// `timeline.json`, schema 3 (DESIGN §4): what the day shares written once (each slot, carried
/// or today's, with its take), each entry carrying only what changes (a status per slot, null
/// where it does not list it), and every entry expanding to the snapshot of its instant.
@Suite struct TimelineJSONTests {
    /// A day computed by the real provider from medicines and events, as `dosebar export` does.
    struct Day: CustomStringConvertible {
        var name: String
        var provider: TimelineProvider
        var generatedAt: Date
        var description: String { name }

        var timeline: Timeline { provider.timeline(generatedAt: generatedAt) }
    }

    static func instant(_ iso: String) -> Date { ISO8601.parse(iso)! }

    static func med(_ id: Int64, _ name: String, _ recurrence: Recurrence = .daily, at times: [String] = [],
                    from: String, dose: String? = nil, group: String? = nil, stock: Amount? = nil) -> Medication {
        Medication(id: id, name: name, dose: dose, group: group, stock: stock, versions: [ScheduleVersion(
            effective: LocalDate(from)!, schedule: Schedule(recurrence: recurrence, times: times.map { LocalTime($0)! },
                                                            start: LocalDate(from)!))])
    }

    /// A take or skip of `slot` (`HH:MM` of `day`) at `at`; an as-needed dose when `slot` is nil.
    static func event(_ id: Int64, _ m: Int64, _ day: String, _ slot: String?, at: String,
                      _ kind: DoseEvent.Kind = .taken) -> DoseEvent {
        DoseEvent(id: id, medicationID: m, kind: kind,
                  slot: slot.map { SlotKey(medicationID: m, date: LocalDate(day)!, time: LocalTime($0)!) },
                  at: instant(at), loggedAt: instant(at))
    }

    static func day(_ name: String, _ date: String, tz: String, catalog: Catalog = .english, _ meds: [Medication],
                    _ events: [DoseEvent], history: [DaySummary] = [], generatedAt: String) -> Day {
        let plan = DayPlan(date: LocalDate(date)!, medications: meds, events: events, zone: Zone(TimeZone(identifier: tz)!))
        let builder = SnapshotBuilder(plan: plan, history: History(today: plan.date, recent: history),
                                      medications: meds, catalog: catalog)
        return Day(name: name, provider: TimelineProvider(builder: builder), generatedAt: instant(generatedAt))
    }

    /// Scenario days: both New York DST changes, Seoul in Korean, a rest day, no medicines.
    /// Between them: taken, taken early, taken late, skipped, due, late (2 h, 4 h), missed,
    /// as-needed doses (with a maximum and an interval, and without), a cycle in each phase,
    /// stock (one low), names that need escaping.
    static let days: [Day] = {
        let springDay = "2026-03-08"
        let spring = day("new-york-spring-forward", springDay, tz: "America/New_York", [
            med(1, "Night", at: ["02:30", "22:00"], from: "2026-03-01", stock: 20),
            med(2, "Metformin", at: ["08:00", "20:00"], from: "2026-03-01", dose: "500 mg", group: "morning", stock: 5),
            med(3, "Vitamin D", at: ["12:00"], from: "2026-03-01", dose: "1000 IU"),
            med(4, "Ibuprofen", .asNeeded(maxPerDay: 3, minInterval: 4 * 3600), from: "2026-03-01"),
            med(5, "Yaz", .cycle(active: 21, rest: 7), at: ["21:00"], from: "2026-03-01"),
            med(6, "Fish \"oil\" / <b>&", at: ["13:00"], from: "2026-03-01", group: "a/b"),
        ], [
            event(1, 1, springDay, "02:30", at: "2026-03-08T03:40:00-04:00"),
            event(2, 2, springDay, "08:00", at: "2026-03-08T10:30:00-04:00"),
            event(3, 3, springDay, "12:00", at: "2026-03-08T12:05:00-04:00", .skipped),
            event(4, 4, springDay, nil, at: "2026-03-08T09:00:00-04:00"),
            event(5, 4, springDay, nil, at: "2026-03-08T14:00:00-04:00"),
            event(6, 5, springDay, "21:00", at: "2026-03-08T18:00:00-04:00"),
            // The day before, as its summary says: Fish oil taken late, Metformin's 20:00 not taken. That
            // slot is carried into this day, late, until its cut-off max(22:00, min(08:00 − 2 h, 20:00 + 24 h))
            // = 06:00 EDT (9 h after it: the clocks went forward at 02:00), then it closes, missed.
            event(7, 1, "2026-03-07", "02:30", at: "2026-03-07T02:35:00-05:00"),
            event(8, 2, "2026-03-07", "08:00", at: "2026-03-07T08:10:00-05:00"),
            event(9, 3, "2026-03-07", "12:00", at: "2026-03-07T12:00:00-05:00"),
            event(10, 6, "2026-03-07", "13:00", at: "2026-03-07T16:30:00-05:00"),
            event(11, 5, "2026-03-07", "21:00", at: "2026-03-07T21:00:00-05:00"),
            event(12, 1, "2026-03-07", "22:00", at: "2026-03-07T22:05:00-05:00"),
        ], history: [
            DaySummary(date: LocalDate("2026-03-06")!, total: 7, taken: 7, onTime: 6, skipped: 0, missed: 0, streak: 3, best: 9),
            DaySummary(date: LocalDate("2026-03-07")!, total: 7, taken: 6, onTime: 5, skipped: 0, missed: 1, streak: 0, best: 9,
                       troubled: ["6@13:00", "2@20:00"]),
        ], generatedAt: "2026-03-08T15:00:00-04:00")

        let fallDay = "2026-11-01"
        let fall = day("new-york-fall-back", fallDay, tz: "America/New_York", [
            med(1, "Early", at: ["01:30", "08:00"], from: "2026-10-25", stock: 3),
            med(2, "Yaz", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-10-10"),
            med(3, "Antacid", .asNeeded(maxPerDay: nil, minInterval: nil), from: "2026-10-25"),
            med(4, "Evening", at: ["23:30"], from: "2026-10-25"),
        ], [
            event(1, 1, fallDay, "01:30", at: "2026-11-01T01:35:00-04:00"),
            event(2, 3, fallDay, nil, at: "2026-11-01T01:45:00-05:00"),
            event(3, 3, fallDay, nil, at: "2026-11-01T19:10:00-05:00"),
            // The day before, all taken (its 23:30 would otherwise be carried, late, all day).
            event(4, 1, "2026-10-31", "01:30", at: "2026-10-31T01:30:00-04:00"),
            event(5, 1, "2026-10-31", "08:00", at: "2026-10-31T08:05:00-04:00"),
            event(6, 4, "2026-10-31", "23:30", at: "2026-10-31T23:40:00-04:00"),
        ], generatedAt: "2026-11-01T01:45:00-05:00")

        let seoulDay = "2026-11-20"
        let seoul = day("seoul-korean", seoulDay, tz: "Asia/Seoul", catalog: .korean, [
            med(10, "오메가3", at: ["08:00"], from: "2026-11-01", dose: "1정", group: "아침", stock: 40),
            med(11, "피임약", .cycle(active: 21, rest: 7), at: ["09:00"], from: "2026-11-15"),
            med(12, "유산균", at: ["20:00", "23:00"], from: "2026-11-01"),
            med(13, "타이레놀", .asNeeded(maxPerDay: 2, minInterval: 6 * 3600), from: "2026-11-01"),
        ], [
            event(1, 10, seoulDay, "08:00", at: "2026-11-20T08:10:00+09:00"),
            event(2, 11, seoulDay, "09:00", at: "2026-11-20T06:30:00+09:00"),
            event(3, 13, seoulDay, nil, at: "2026-11-20T07:00:00+09:00"),
            event(4, 13, seoulDay, nil, at: "2026-11-20T13:30:00+09:00"),
            event(5, 12, seoulDay, "20:00", at: "2026-11-20T20:01:00+09:00", .skipped),
            // The day before, as its summary says: four taken, 오메가3 late.
            event(6, 10, "2026-11-19", "08:00", at: "2026-11-19T10:30:00+09:00"),
            event(7, 11, "2026-11-19", "09:00", at: "2026-11-19T09:00:00+09:00"),
            event(8, 12, "2026-11-19", "20:00", at: "2026-11-19T20:00:00+09:00"),
            event(9, 12, "2026-11-19", "23:00", at: "2026-11-19T23:00:00+09:00"),
        ], history: (1...6).map { back in
            DaySummary(date: LocalDate(seoulDay)!.adding(days: -back), total: 4, taken: 4, onTime: 3, skipped: 0, missed: 0,
                       streak: 7 - back, best: 7 - back)
        }, generatedAt: "2026-11-20T12:10:00+09:00")

        let rest = day("london-rest-day", "2026-11-24", tz: "Europe/London", [
            med(1, "Yaz", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-11-01", stock: 12),
        ], [], generatedAt: "2026-11-24T12:00:00Z")

        let empty = day("utc-no-medicines", "2026-11-22", tz: "UTC", [], [], generatedAt: "2026-11-22T12:00:00Z")
        return [spring, fall, seoul, rest, empty]
    }()

    func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Canonical text of a JSON value (sorted keys), for comparing and showing differences.
    func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]),
               as: UTF8.self)
    }

    /// An entry of schema 3 made whole again as DESIGN §4 says a reader does: dose i for every
    /// non-null doses[i] is slots[i] with that status, the slot's taken_at/time_known when it is
    /// taken*, late_minutes from `at` when late; the top-level `week` (yesterday replaced by
    /// `week_yesterday`) followed by today's `week_today`; the other top-level fields.
    func expand(_ entry: [String: Any], _ top: [String: Any]) throws -> [String: Any] {
        let slots = try #require(top["slots"] as? [[String: Any]])
        let statuses = try #require(entry["doses"] as? [Any])
        #expect(statuses.count == slots.count, "doses parallel to slots")
        let at = try #require((entry["at"] as? String).flatMap(ISO8601.parse))
        var whole = entry
        whole["doses"] = try zip(slots, statuses).compactMap { slot, value -> [String: Any]? in
            if value is NSNull { return nil }
            let status = try #require(value as? String)
            var dose = slot
            dose["status"] = status
            if !["taken", "taken_early", "taken_late"].contains(status) {
                dose["taken_at"] = NSNull()
                dose["time_known"] = true
            }
            if status == "late" {
                let scheduled = try #require((slot["scheduled"] as? String).flatMap(ISO8601.parse))
                dose["late_minutes"] = Int((at.timeIntervalSince(scheduled) / 60).rounded(.down))
            } else {
                dose["late_minutes"] = NSNull()
            }
            return dose
        }
        for key in ["day", "timezone", "stock", "cycle"] { whole[key] = top[key] }
        var past = try #require(top["week"] as? [[String: Any]])
        if let yesterday = entry["week_yesterday"] as? String { past[past.count - 1]["state"] = yesterday }
        let today = try #require(entry["week_today"] as? String)
        whole["week"] = past + [["day": try #require(top["day"]), "state": today]]
        whole["week_today"] = nil
        whole["week_yesterday"] = nil
        return whole
    }

    /// Every entry of `timeline`, expanded, against `snapshot(entry)` less `schema`, `messages`
    /// and `tooltip`; returns how many matched.
    func checkExpansion(_ timeline: Timeline, _ name: String, snapshot: (Snapshot) -> Snapshot = { $0 }) throws -> Int {
        let top = try parse(try TimelineJSON.text(timeline))
        #expect(top["schema"] as? Int == 3)
        let entries = try #require(top["entries"] as? [[String: Any]])
        #expect(entries.count == timeline.entries.count)
        var checked = 0
        for (entry, source) in zip(entries, timeline.entries) {
            var want = try parse(SnapshotJSON.snapshot(snapshot(source)))
            for key in ["schema", "messages", "tooltip"] { want[key] = nil }
            let got = try canonical(try expand(entry, top)), expected = try canonical(want)
            #expect(got == expected, "\(name) at \(entry["at"] ?? ""):\n\(Golden.diff(expected, got))")
            if got == expected { checked += 1 }
        }
        return checked
    }

    /// Every entry of the day, expanded with `slots` and `week`, is exactly the snapshot the provider
    /// computes for that entry's instant, less `schema`, `messages` and `tooltip`. (End to end through
    /// the real `SnapshotBuilder`: a skipped dose's `taken_at` must be null in the snapshot too.)
    @Test(arguments: days)
    func everyEntryExpandsToTheSnapshotOfItsInstant(_ day: Day) throws {
        let timeline = day.timeline
        #expect(timeline.entries.count == day.provider.instants().count && timeline.entries.count >= 23,
                "\(day): \(timeline.entries.count) entries")
        let checked = try checkExpansion(timeline, day.name) { day.provider.snapshot(at: $0.at.date) }
        #expect(checked == timeline.entries.count)
    }

    /// A day built by hand the way DESIGN §4 describes one after midnight: 0–3 slots of yesterday
    /// carried (late, listed first) until each leaves — closed, or taken and listed as taken for an
    /// entry or two — and yesterday `pending` in the strip while one is open, then final; today's
    /// slots moving from upcoming through due and late (then missed, for some), taken (on time,
    /// early, late, time unknown) or skipped. Entries at a random minute of every hour.
    static func carriedDay(seed: UInt64) -> Timeline {
        var rng = SplitMix64(seed: seed)
        let base = Fixtures.newYork, day = base.day, yesterday = day.adding(days: -1), o = Fixtures.newYorkEDT
        func at(_ date: LocalDate, _ minute: Int) -> LocalInstant {
            LocalInstant(date: Date(timeIntervalSince1970: Double(date.dayNumber * 86400 + minute * 60 - o)), offset: o)
        }
        func minutes(_ a: LocalInstant, _ b: LocalInstant) -> Int { Int((a.date.timeIntervalSince(b.date) / 60).rounded(.down)) }
        let instants = (0..<24).map { h in at(day, h * 60 + (h == 0 ? 0 : rng.int(0...59))) }

        struct Carried { var dose: Snapshot.Dose; var leaves: Int; var take: (Int, LocalInstant, Bool)?; var takenEntries: Int }
        let carriedTimes = [20 * 60, 21 * 60 + 30, 22 * 60, 23 * 60 + 30].shuffled(using: &rng).prefix(rng.int(0...3)).sorted()
        let carried: [Carried] = carriedTimes.enumerated().map { i, minute in
            let dose = Snapshot.Dose(medication: "Carried \(i) \"/<b>", medicationID: Int64(100 + i),
                                     dose: rng.chance(0.5) ? "1 tab" : nil, group: rng.chance(0.5) ? "night" : nil,
                                     day: yesterday, scheduled: at(yesterday, minute), status: .late, takenAt: nil, lateMinutes: nil)
            let leaves = rng.int(1...20)
            let take = rng.chance(0.6)
                ? (leaves, LocalInstant(date: instants[leaves].date.addingTimeInterval(-Double(rng.int(0...40) * 60)), offset: o),
                   rng.chance(0.8))
                : nil
            return Carried(dose: dose, leaves: leaves, take: take, takenEntries: rng.int(1...2))
        }
        // at, skipped, time known; minutes after T at which it closes (its cut-off)
        struct Today { var dose: Snapshot.Dose; var event: (LocalInstant, Bool, Bool)?; var closes: Int }
        let todayTimes = (0..<rng.int(0...4)).map { _ in rng.int(6...22) * 60 }.sorted()
        let today: [Today] = todayTimes.enumerated().map { i, minute in
            let scheduled = at(day, minute)
            let dose = Snapshot.Dose(medication: "Today \(i)", medicationID: Int64(1 + i), dose: nil, group: i % 2 == 0 ? "g" : nil,
                                     day: day, scheduled: scheduled, status: .upcoming, takenAt: nil, lateMinutes: nil)
            let closes = rng.chance(0.5) ? rng.int(120...600) : 24 * 60
            guard rng.chance(0.6) else { return Today(dose: dose, event: nil, closes: closes) }
            let x = at(day, max(0, min(24 * 60 - 1, minute + rng.int(-300...300))))
            return Today(dose: dose, event: (x, rng.chance(0.2), rng.chance(0.8)), closes: closes)
        }
        let finalYesterday: HistoryState = rng.pick([.done, .partial, .missed])

        var entries: [Snapshot] = []
        for (e, t) in instants.enumerated() {
            var s = base
            s.at = t
            s.validUntil = e + 1 < instants.count ? instants[e + 1] : at(day.adding(days: 1), 0)
            var doses: [Snapshot.Dose] = []
            var open = false
            for c in carried {
                var d = c.dose
                if let take = c.take, e >= take.0 {
                    guard e < take.0 + c.takenEntries else { continue }
                    d.status = minutes(take.1, d.scheduled) > 120 ? .takenLate : .taken
                    d.takenAt = take.1; d.timeKnown = take.2
                } else if e < c.leaves {
                    d.lateMinutes = minutes(t, d.scheduled); open = true
                } else {
                    continue
                }
                doses.append(d)
            }
            s.counts.carried = doses.count
            for slot in today {
                var d = slot.dose
                if let event = slot.event, event.0 <= t {
                    let (x, skipped, known) = event
                    if skipped { d.status = .skipped } else {
                        let early = minutes(d.scheduled, x), late = minutes(x, d.scheduled)
                        d.status = early > 120 ? .takenEarly : late > 120 ? .takenLate : .taken
                        d.takenAt = x; d.timeKnown = known
                    }
                } else {
                    let m = minutes(t, d.scheduled)
                    d.status = m < 0 ? .upcoming : m < 120 ? .due : m < slot.closes ? .late : .missed
                    if d.status == .late { d.lateMinutes = m }
                }
                doses.append(d)
            }
            s.doses = doses
            s.week[5].state = open ? .pending : finalYesterday
            s.week[6].state = today.allSatisfy { $0.event.map { $0.0 <= t } ?? false } && !today.isEmpty ? .done : .pending
            entries.append(s)
        }
        return Fixtures.timeline(entries)
    }

    static let carriedSeeds: [UInt64] = Array(1...200)

    /// The property of DESIGN §4 on days that start with carried slots which later leave and a
    /// yesterday whose state changes: every entry expands to exactly its snapshot.
    @Test func carriedDaysExpandToTheirSnapshots() throws {
        var sawCarried = 0, sawYesterdayChange = 0, sawTakenCarried = 0, statuses: Set<SlotStatus> = []
        for seed in Self.carriedSeeds {
            let timeline = Self.carriedDay(seed: seed)
            let checked = try checkExpansion(timeline, "seed \(seed)")
            #expect(checked == timeline.entries.count, "seed \(seed)")
            let entries = timeline.entries
            if entries[0].counts.carried > 0 { sawCarried += 1 }
            statuses.formUnion(entries.flatMap { $0.doses.map(\.status) })
            if Set(entries.map { $0.week[5].state }).count > 1 { sawYesterdayChange += 1 }
            if entries.contains(where: { $0.doses.contains { $0.day != timeline.day && $0.status.isTaken } }) {
                sawTakenCarried += 1
            }
        }
        #expect(statuses == Set(SlotStatus.allCases), "\(statuses)")
        #expect(sawCarried > 50 && sawYesterdayChange > 50 && sawTakenCarried > 30,
                "\(sawCarried) \(sawYesterdayChange) \(sawTakenCarried)")
    }

    /// Real days of the new DoseCore (issue 21) around midnight and DST changes, in five zones:
    /// yesterday's slots taken, skipped or left open (carried, late, then closed at their cut-off),
    /// some taken after midnight; every day's timeline is written (never refused), each entry
    /// expands to the provider's snapshot of its instant, and the files validate.
    @Test func realDaysWithCarriedSlotsAreWrittenAndValid() throws {
        let zones = ["America/New_York", "Europe/London", "Asia/Seoul", "UTC", "Australia/Lord_Howe"]
        let dates = ["2026-03-08", "2026-03-09", "2026-11-01", "2026-11-02", "2026-03-29", "2026-03-30", "2026-10-25",
                     "2026-04-05", "2026-10-04", "2026-06-15"]
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        var pairs: [(String, String)] = [], carried = 0
        for seed in UInt64(1)...100 {
            var rng = SplitMix64(seed: seed)
            let tz = rng.pick(zones), date = LocalDate(rng.pick(dates))!, zone = Zone(TimeZone(identifier: tz)!)
            var meds: [Medication] = [], events: [DoseEvent] = []
            for m in Int64(1)...Int64(rng.int(1...4)) {
                let minutes = Set((0..<rng.int(1...3)).map { _ in rng.int(0...47) * 30 }).sorted()
                let times = minutes.map { LocalTime(String(format: "%02d:%02d", $0 / 60, $0 % 60))! }
                let recurrence: Recurrence = rng.pick([.daily, .daily, .everyDays(2), .cycle(active: 3, rest: 2)])
                let med = Medication(id: m, name: "M\(m)", dose: nil, group: nil, stock: nil, versions: [ScheduleVersion(
                    effective: date.adding(days: -10), schedule: Schedule(recurrence: recurrence, times: times, start: date.adding(days: -10)))])
                meds.append(med)
                for d in [date.adding(days: -2), date.adding(days: -1), date] where med.schedule(on: d)?.occurs(on: d) == true {
                    for t in times where rng.chance(0.5) {
                        // From 3 h early to 25 h late: some of yesterday's after midnight.
                        let at = zone.instant(d, t).addingTimeInterval(Double(rng.int(-180...1500) * 60))
                        events.append(DoseEvent(id: Int64(events.count + 1), medicationID: m, kind: rng.chance(0.8) ? .taken : .skipped,
                                                slot: SlotKey(medicationID: m, date: d, time: t), at: at, loggedAt: at))
                    }
                }
            }
            let history = History.summaries(of: date.adding(days: -8)...date.adding(days: -1), medications: meds, events: events,
                                            zone: zone, after: nil)
            let plan = DayPlan(date: date, medications: meds, events: events, zone: zone)
            let provider = TimelineProvider(builder: SnapshotBuilder(plan: plan, history: History(today: date, recent: history),
                                                                     medications: meds, catalog: .english))
            let timeline = provider.timeline(generatedAt: plan.dayStart)
            if timeline.entries.contains(where: { $0.counts.carried > 0 }) { carried += 1 }
            let name = "seed \(seed) \(tz) \(date)"
            let checked = try checkExpansion(timeline, name) { provider.snapshot(at: $0.at.date) }
            #expect(checked == timeline.entries.count, "\(name)")
            if seed % 4 == 0 {
                let dir = SharedDirectory(path: temp.path + "/\(seed)")
                try Exporter().export(timeline, now: timeline.entries[rng.int(0...(timeline.entries.count - 1))].at.date, to: dir)
                pairs += [("timeline.schema.json", dir.path(of: "timeline.json")), ("snapshot.schema.json", dir.path(of: "snapshot.json"))]
            }
        }
        #expect(carried > 30, "\(carried) of 100 days with a carried slot")
        let result = try SchemaValidationTests.validate(pairs)
        #expect(result.status == 0, "\(result.output)")
    }

    /// What schema 3 writes for carried slots, on one day: each slot once (carried first), `null`
    /// where an entry does not list it, the take on the slot, `week_yesterday` only where yesterday
    /// differs from the top-level week.
    @Test func carriedSlotsAreWrittenOnceWithNullsWhereNotListed() throws {
        let seed = try #require(Self.carriedSeeds.first { seed in
            let t = Self.carriedDay(seed: seed)
            return t.entries[0].counts.carried >= 2 && t.entries.last!.counts.carried == 0
                && t.entries.contains { $0.doses.contains { $0.day != t.day && $0.status.isTaken } }
        })
        let timeline = Self.carriedDay(seed: seed)
        let top = try parse(try TimelineJSON.text(timeline))
        let slots = try #require(top["slots"] as? [[String: Any]])
        let carried = timeline.entries[0].counts.carried
        let todays = timeline.entries[0].doses.count - carried
        #expect(slots.count == carried + todays)
        #expect(slots.prefix(carried).allSatisfy { $0["day"] as? String == "2026-03-08" })
        #expect(slots.dropFirst(carried).allSatisfy { $0["day"] as? String == "2026-03-09" })
        let taken = timeline.entries.flatMap(\.doses).first { $0.day != timeline.day && $0.status.isTaken }!
        let slot = try #require(slots.first { $0["medication_id"] as? Int == Int(taken.medicationID) })
        #expect(slot["taken_at"] as? String == taken.takenAt?.iso8601)
        #expect(slot["time_known"] as? Bool == taken.timeKnown)
        let entries = try #require(top["entries"] as? [[String: Any]])
        let last = try #require(entries.last?["doses"] as? [Any])
        #expect(last.prefix(carried).allSatisfy { $0 is NSNull } && !last.dropFirst(carried).contains { $0 is NSNull })
        let week = try #require(top["week"] as? [[String: Any]])
        #expect(week.last?["state"] as? String == timeline.entries.last!.week[5].state.rawValue)
        for (entry, source) in zip(entries, timeline.entries) {
            let differs = source.week[5].state != timeline.entries.last!.week[5].state
            #expect((entry["week_yesterday"] as? String) == (differs ? source.week[5].state.rawValue : nil))
        }
        #expect(entries[0]["week_yesterday"] as? String == "pending")
    }

    /// The display order merges every entry's: a slot first listed by a later entry goes where
    /// that entry puts it, and the fast path still matches the reference.
    @Test func aSlotFirstListedLaterKeepsItsPlace() throws {
        var timeline = Self.carriedDay(seed: 7)
        var extra = Fixtures.newYork.doses[0]
        extra.medicationID = 999
        extra.day = timeline.day
        let last = timeline.entries.count - 1
        timeline.entries[last].doses.insert(extra, at: timeline.entries[last].counts.carried)
        let top = try parse(try TimelineJSON.text(timeline))
        let slots = try #require(top["slots"] as? [[String: Any]])
        let ids = slots.map { $0["medication_id"] as? Int ?? -1 }
        let carried = Set(timeline.entries.flatMap { $0.doses.filter { $0.day != timeline.day }.map { Int($0.medicationID) } })
        #expect(ids.firstIndex(of: 999) == carried.count, "\(ids)")
        #expect(try checkExpansion(timeline, "inserted") == timeline.entries.count)
        #expect(try TimelineJSON.text(timeline) == TimelineJSON.referenceObject(timeline).text)
    }

    /// The scenario days really cover what they claim (a guard against a scenario that drifts).
    /// `missed` is not required: whether a slot closes within its own day depends on its cut-off
    /// (DESIGN §3), the carried days of `carriedDay` cover the rest.
    @Test func scenarioDaysCoverEveryStatus() {
        let statuses = Set(Self.days.flatMap { $0.timeline.entries.flatMap { $0.doses.map(\.status) } })
        let wanted = Set(SlotStatus.allCases).subtracting([.missed])
        #expect(statuses.isSuperset(of: wanted), "missing: \(wanted.subtracting(statuses))")
        let entries = Self.days.flatMap(\.timeline.entries)
        #expect(entries.contains { $0.asNeeded.contains { $0.maxPerDay == nil && $0.takenToday > 0 } })
        #expect(entries.contains { $0.asNeeded.contains { $0.nextAllowed != nil } })
        #expect(entries.contains { $0.cycle.contains { $0.phase == .rest } })
        #expect(entries.contains { $0.cycle.contains { $0.phase == .active } })
        #expect(entries.contains { $0.stock.contains(where: \.low) })
        #expect(entries.contains { $0.doses.contains { ($0.lateMinutes ?? 0) >= 240 } })
        #expect(Set(entries.map(\.state)).isSuperset(of: [.late, .due, .upcoming, .rest, .empty]))
    }

    /// Each slot's name, id, dose, group, day and time are written once, whatever the number of
    /// entries listing it; no entry repeats a take's instant.
    @Test(arguments: days)
    func slotsAreWrittenOnce(_ day: Day) throws {
        let timeline = day.timeline
        let text = try TimelineJSON.text(timeline)
        struct Key: Hashable { var id: Int64; var day: LocalDate; var at: Date }
        let slots = Set(timeline.entries.flatMap { $0.doses.map { Key(id: $0.medicationID, day: $0.day, at: $0.scheduled.date) } })
        #expect(text.components(separatedBy: "\"medication_id\":").count - 1 == slots.count)
        #expect(text.components(separatedBy: "\"scheduled\":\"").count - 1
                == slots.count + timeline.entries.filter { $0.next != nil }.count)
        #expect(text.components(separatedBy: "\"taken_at\":").count - 1 == slots.count)
        #expect(!text.contains("\"tooltip\"") && !text.contains("\"messages\""))
    }

    /// The fast path (an entry's status list reused when nothing changed since the previous one)
    /// gives the bytes of building every value as a json-c node, across entries where statuses
    /// stay, change and come back, and carried slots leave (nulls).
    @Test(arguments: days)
    func fastPathMatchesTheReference(_ day: Day) throws {
        var timeline = day.timeline
        if timeline.entries.count > 3, !timeline.entries[0].doses.isEmpty {
            // Statuses go back to earlier ones (a late dose's minutes follow its entry's instant).
            timeline.entries[2].doses = timeline.entries[0].doses.map { dose in
                var dose = dose
                if dose.status == .late { dose.lateMinutes = TimelineJSON.Layout.lateMinutes(timeline.entries[2].at, dose.scheduled) }
                return dose
            }
        }
        let fast = try TimelineJSON.text(timeline), reference = try TimelineJSON.referenceObject(timeline).text
        #expect(fast == reference, "\(Golden.diff(reference, fast))")
        for seed in Self.carriedSeeds.prefix(30) {
            let carried = Self.carriedDay(seed: seed)
            #expect(try TimelineJSON.text(carried) == TimelineJSON.referenceObject(carried).text, "seed \(seed)")
        }
    }

    @Test func keysInContractOrderWithGeneratedAtSecond() throws {
        let text = try TimelineJSON.text(Self.days[0].timeline)
        #expect(text.hasPrefix("{\"schema\":3,\"generated_at\":\"2026-03-08T15:00:00-04:00\",\"day\":\"2026-03-08\","
            + "\"timezone\":\"America/New_York\",\"reload_at\":\"2026-03-09T00:00:00-04:00\",\"week\":[{\"day\":\"2026-03-02\","))
        // Yesterday's 20:00 Metformin (not taken; open until 06:00) is carried: listed first, with its
        // day and its offset before the change (-05:00); then today's first slot, 02:30 moved to 03:30.
        #expect(text.contains(",\"slots\":[{\"medication\":\"Metformin\",\"medication_id\":2,\"dose\":\"500 mg\","
            + "\"group\":\"morning\",\"day\":\"2026-03-07\",\"scheduled\":\"2026-03-07T20:00:00-05:00\",\"taken_at\":null,"
            + "\"time_known\":true},{\"medication\":\"Night\",\"medication_id\":1,\"dose\":null,\"group\":null,"
            + "\"day\":\"2026-03-08\",\"scheduled\":\"2026-03-08T03:30:00-04:00\",\"taken_at\":\"2026-03-08T03:40:00-04:00\","
            + "\"time_known\":true}"))
        for (keys, from) in [(["schema", "generated_at", "day", "timezone", "reload_at", "week", "words", "slots", "stock", "cycle",
                               "entries"], "{"),
                             (["at", "valid_until", "state", "counts", "progress", "week_today", "doses", "as_needed", "next", "streak",
                               "adherence", "message", "text"], "\"entries\":[{")] {
            var index = try #require(text.range(of: from)).lowerBound
            for key in keys {
                let found = text.range(of: "\"\(key)\":", range: index..<text.endIndex)
                #expect(found != nil, "\(key) missing or out of order")
                index = found?.upperBound ?? index
            }
        }
        // A carried dose's day, in dosebar's words in each language, with the placeholders a reader fills.
        for catalog in [Catalog.english, .korean] {
            let words = try #require(try parse(try TimelineJSON.text(Self.days[0].timeline, words: catalog))["words"] as? [String: Any])
            let slotDay = try #require(words["slot_day"] as? [String: String])
            #expect(slotDay["yesterday"] == catalog.templates["menu.slot.yesterday"] && slotDay["yesterday"]?.contains("{time}") == true)
            #expect(slotDay["date"] == catalog.templates["menu.slot.date"] && slotDay["date"]?.contains("{date}") == true)
        }
        let top = try parse(text)
        #expect(top.count == 11)
        // 13 keys, and `week_yesterday` (after `week_today`) in the entries before 06:00, while the
        // carried Metformin keeps yesterday pending (the top-level week has its final state, partial).
        let entries = try #require(top["entries"] as? [[String: Any]])
        #expect(entries.allSatisfy { $0.count == ($0["week_yesterday"] == nil ? 13 : 14) })
        #expect(entries.map { $0["week_yesterday"] as? String } == entries.map { ($0["at"] as? String ?? "") < "2026-03-08T06" ? "pending" : nil })
        #expect(text.contains("\"entries\":[{\"at\":\"2026-03-08T00:00:00-05:00\","))
        #expect(text.contains("\"week_today\":\"pending\",\"week_yesterday\":\"pending\",\"doses\":[\"late\",\"upcoming\","))
        let seed = try #require(Self.carriedSeeds.first { seed in
            let t = Self.carriedDay(seed: seed)
            return t.entries[0].doses.first?.status == .late && t.entries.last!.week[5].state != .pending
        })
        let carried = try TimelineJSON.text(Self.carriedDay(seed: seed))
        #expect(carried.contains("\"week_today\":\"pending\",\"week_yesterday\":\"pending\",\"doses\":[\"late\","), "\(carried)")
    }

    /// Entries of one day share its day, zone, stock, cycle and the week before yesterday, and
    /// tell one slot one way; a timeline that does not (only a hand-made one) is refused rather
    /// than written wrong. Carried slots that leave and a yesterday that changes are fine.
    @Test func entriesThatCannotBeOneFileAreRefused() throws {
        let base = Fixtures.newYork
        var otherDay = base
        otherDay.day = base.day.adding(days: 1)
        var otherZone = base
        otherZone.timezone = "Europe/Paris"
        var restocked = base
        restocked.stock[0].remaining -= 1
        var otherPast = base
        otherPast.week[0].state = .missed
        var otherToday = base
        otherToday.week[6].day = otherToday.week[6].day.adding(days: 1)
        let takenIndex = try #require(base.doses.firstIndex { $0.status.isTaken })
        var takenLater = base
        takenLater.doses[takenIndex].takenAt = Fixtures.at("2026-03-09", "11:00", Fixtures.newYorkEDT)
        var unknownTime = base
        unknownTime.doses[takenIndex].timeKnown = false
        var renamed = base
        renamed.doses[0].medication += " XR"
        let lateIndex = try #require(base.doses.firstIndex { $0.status == .late })
        var wrongMinutes = base
        wrongMinutes.doses[lateIndex].lateMinutes! += 1
        var twice = base
        twice.doses.append(base.doses[0])
        for (name, other) in [("hostile", Fixtures.hostile), ("day", otherDay), ("zone", otherZone), ("stock", restocked),
                              ("past week", otherPast), ("today", otherToday), ("taken later", takenLater),
                              ("time unknown", unknownTime), ("renamed", renamed), ("minutes", wrongMinutes), ("twice", twice)] {
            #expect(throws: DosebarError.self, "\(name)") { try TimelineJSON.text(Fixtures.timeline([base, other])) }
            #expect(throws: DosebarError.self, "\(name)") {
                try Exporter().files(for: Fixtures.timeline([base, other]), now: base.at.date)
            }
        }
        var later = base
        later.at = Fixtures.at("2026-03-09", "14:30", Fixtures.newYorkEDT)
        later.doses[lateIndex].lateMinutes! += 60
        later.week[5].state = .pending                      // yesterday still open earlier: fine
        later.week[6].state = .done
        later.doses.remove(at: 0)                           // a slot no longer listed: fine
        #expect(throws: Never.self) { try TimelineJSON.text(Fixtures.timeline([base, later])) }
    }

    /// The JSON Schema checks the shape of schema 3: a file of schema 2, a dose that is a triple
    /// again, an unknown status, a slot without its day, a past day before yesterday pending, a
    /// today that is partial fail validation; the real days and the carried days pass.
    @Test func schemaAcceptsTheDaysAndRejectsOtherShapes() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        var pairs: [(String, String)] = []
        let carried = Self.carriedSeeds.prefix(12).map { (name: "carried-\($0)", timeline: Self.carriedDay(seed: $0)) }
        for (name, timeline) in Self.days.map({ ($0.name, $0.timeline) }) + carried {
            let path = temp.path + "/\(name).json"
            try TimelineJSON.text(timeline).write(toFile: path, atomically: false, encoding: .utf8)
            pairs.append(("timeline.schema.json", path))
        }
        let valid = try SchemaValidationTests.validate(pairs)
        #expect(valid.status == 0, "\(valid.output)")

        let good = try TimelineJSON.text(Self.days[0].timeline)
        let broken: [(String, String)] = [
            ("schema2", good.replacingOccurrences(of: "{\"schema\":3,", with: "{\"schema\":2,")),
            ("triple", good.replacingOccurrences(of: "\"doses\":[\"late\",", with: "\"doses\":[[\"late\",null,null],")),
            ("status", good.replacingOccurrences(of: "\"doses\":[\"late\",", with: "\"doses\":[\"soon\",")),
            ("tooltip", good.replacingOccurrences(of: ",\"text\":\"", with: ",\"tooltip\":\"\",\"text\":\"")),
            ("slot-status", good.replacingOccurrences(of: "\"medication_id\":1,", with: "\"medication_id\":1,\"status\":\"due\",")),
            ("slot-day", good.replacingOccurrences(of: "\"day\":\"2026-03-08\",\"scheduled\"", with: "\"scheduled\"")),
            ("time-known", good.replacingOccurrences(of: "\"time_known\":true", with: "\"time_known\":null")),
            ("today-in-week", good.replacingOccurrences(of: "\"week\":[", with: "\"week\":[{\"day\":\"2026-03-01\",\"state\":\"done\"},")),
            ("pending-past", good.replacingOccurrences(of: "{\"day\":\"2026-03-06\",\"state\":\"done\"}",
                                                       with: "{\"day\":\"2026-03-06\",\"state\":\"pending\"}")),
            ("partial-today", good.replacingOccurrences(of: "\"week_today\":\"pending\"", with: "\"week_today\":\"partial\"")),
            ("yesterday-word", good.replacingOccurrences(of: "\"week_today\":\"pending\"",
                                                         with: "\"week_today\":\"pending\",\"week_yesterday\":\"soon\"")),
            ("slot-day-words", good.replacingOccurrences(of: "\"slot_day\":{", with: "\"slot_days\":{")),
        ]
        for (name, text) in broken {
            #expect(text != good, "the \(name) mutation did not apply")
            let path = temp.path + "/broken-\(name).json"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let result = try SchemaValidationTests.validate([("timeline.schema.json", path)])
            #expect(result.status == 1, "\(name): expected a validation failure, got \(result.status): \(result.output)")
        }
    }
}
