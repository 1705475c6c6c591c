@testable import DoseCore
@testable import DoseExport
import Foundation
import Testing

/// `timeline.json`, schema 2 (DESIGN §4): what the day shares written once, each entry
/// carrying only what changes, and every entry expanding to the snapshot of its instant.
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
        ], history: [
            DaySummary(date: LocalDate("2026-03-06")!, total: 7, taken: 7, onTime: 6, skipped: 0, missed: 0, streak: 3, best: 9),
            DaySummary(date: LocalDate("2026-03-07")!, total: 7, taken: 6, onTime: 5, skipped: 0, missed: 1, streak: 0, best: 9,
                       troubled: ["2@20:00"]),
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

    /// An entry of schema 2 made whole again with `slots`, the top-level `week` followed by
    /// today's `week_today`, and the other top-level fields.
    func expand(_ entry: [String: Any], _ top: [String: Any]) throws -> [String: Any] {
        let slots = try #require(top["slots"] as? [[String: Any]])
        let outcomes = try #require(entry["doses"] as? [[Any]])
        #expect(outcomes.count == slots.count, "doses parallel to slots")
        var whole = entry
        whole["doses"] = zip(slots, outcomes).map { slot, outcome -> [String: Any] in
            var dose = slot
            dose["status"] = outcome[0]
            dose["taken_at"] = outcome[1]
            dose["late_minutes"] = outcome[2]
            #expect(outcome.count == 3)
            return dose
        }
        for key in ["day", "timezone", "stock", "cycle"] { whole[key] = top[key] }
        let past = try #require(top["week"] as? [[String: Any]])
        let today = try #require(entry["week_today"] as? String)
        whole["week"] = past + [["day": try #require(top["day"]), "state": today]]
        whole["week_today"] = nil
        return whole
    }

    /// Every entry of the day, expanded with `slots` and `week`, is exactly the snapshot the provider
    /// computes for that entry's instant, less `schema`, `messages` and `tooltip`.
    @Test(arguments: days)
    func everyEntryExpandsToTheSnapshotOfItsInstant(_ day: Day) throws {
        let timeline = day.timeline
        let top = try parse(try TimelineJSON.text(timeline))
        #expect(top["schema"] as? Int == 2)
        let entries = try #require(top["entries"] as? [[String: Any]])
        #expect(entries.count == day.provider.instants().count && entries.count >= 23, "\(day): \(entries.count) entries")
        var checked = 0
        for entry in entries {
            let at = try #require((entry["at"] as? String).flatMap(ISO8601.parse), "\(day): an entry without at")
            var want = try parse(SnapshotJSON.snapshot(day.provider.snapshot(at: at)))
            for key in ["schema", "messages", "tooltip"] { want[key] = nil }
            let got = try canonical(try expand(entry, top)), expected = try canonical(want)
            #expect(got == expected, "\(day) at \(entry["at"] ?? ""):\n\(Golden.diff(expected, got))")
            if got == expected { checked += 1 }
        }
        #expect(checked == entries.count)
    }

    /// The scenario days really cover what they claim (a guard against a scenario that drifts).
    /// `missed` is the one status today's timeline never shows: a slot is missed once its day has ended.
    @Test func scenarioDaysCoverEveryStatus() {
        let statuses = Set(Self.days.flatMap { $0.timeline.entries.flatMap { $0.doses.map(\.status) } })
        let wanted = Set(SlotStatus.allCases).subtracting([.missed])
        #expect(statuses == wanted, "missing: \(wanted.subtracting(statuses))")
        let entries = Self.days.flatMap(\.timeline.entries)
        #expect(entries.contains { $0.asNeeded.contains { $0.maxPerDay == nil && $0.takenToday > 0 } })
        #expect(entries.contains { $0.asNeeded.contains { $0.nextAllowed != nil } })
        #expect(entries.contains { $0.cycle.contains { $0.phase == .rest } })
        #expect(entries.contains { $0.cycle.contains { $0.phase == .active } })
        #expect(entries.contains { $0.stock.contains(where: \.low) })
        #expect(entries.contains { $0.doses.contains { ($0.lateMinutes ?? 0) >= 240 } })
        #expect(Set(entries.map(\.state)).isSuperset(of: [.late, .due, .upcoming, .rest, .empty]))
    }

    /// Each slot's name, id, dose, group and time are written once, whatever the number of entries.
    @Test(arguments: days)
    func slotsAreWrittenOnce(_ day: Day) throws {
        let text = try TimelineJSON.text(day.timeline)
        let slots = day.timeline.entries[0].doses.count
        #expect(text.components(separatedBy: "\"medication_id\":").count - 1 == slots)
        #expect(text.components(separatedBy: "\"scheduled\":\"").count - 1
                == slots + day.timeline.entries.filter { $0.next != nil }.count)
        #expect(!text.contains("\"tooltip\"") && !text.contains("\"messages\""))
    }

    /// The fast path (per-slot triples reused between entries) gives the bytes of building
    /// every value as a json-c node, across entries where outcomes stay, change and come back.
    @Test(arguments: days)
    func fastPathMatchesTheReference(_ day: Day) throws {
        var timeline = day.timeline
        if timeline.entries.count > 3, !timeline.entries[0].doses.isEmpty {
            timeline.entries[2].doses = timeline.entries[0].doses      // outcomes go back to earlier ones
        }
        let fast = try TimelineJSON.text(timeline), reference = try TimelineJSON.referenceObject(timeline).text
        #expect(fast == reference, "\(Golden.diff(reference, fast))")
    }

    @Test func keysInContractOrderWithGeneratedAtSecond() throws {
        let text = try TimelineJSON.text(Self.days[0].timeline)
        #expect(text.hasPrefix("{\"schema\":2,\"generated_at\":\"2026-03-08T15:00:00-04:00\",\"day\":\"2026-03-08\","
            + "\"timezone\":\"America/New_York\",\"reload_at\":\"2026-03-09T00:00:00-04:00\",\"slots\":[{\"medication\":\"Night\","
            + "\"medication_id\":1,\"dose\":null,\"group\":null,\"scheduled\":\"2026-03-08T03:30:00-04:00\"}"))
        for (keys, from) in [(["schema", "generated_at", "day", "timezone", "reload_at", "slots", "stock", "cycle", "week", "words",
                               "entries"], "{"),
                             (["at", "valid_until", "state", "counts", "progress", "doses", "as_needed", "next", "streak",
                               "adherence", "week_today", "message", "text"], "\"entries\":[{")] {
            var index = try #require(text.range(of: from)).lowerBound
            for key in keys {
                let found = text.range(of: "\"\(key)\":", range: index..<text.endIndex)
                #expect(found != nil, "\(key) missing or out of order")
                index = found?.upperBound ?? index
            }
        }
        let top = try parse(text)
        #expect(top.count == 11)
        #expect((top["entries"] as? [[String: Any]])?.allSatisfy { $0.count == 13 } == true)
    }

    /// Entries of one day share its slots, stock and cycle; a timeline whose entries do not
    /// (only a hand-made one) is refused rather than written wrong.
    @Test func entriesThatDoNotShareTheDaysSlotsAreRefused() throws {
        var moved = Fixtures.newYork
        moved.doses[1].scheduled = Fixtures.at("2026-03-09", "08:30", Fixtures.newYorkEDT)
        var restocked = Fixtures.newYork
        restocked.stock[0].remaining -= 1
        var otherPast = Fixtures.newYork
        otherPast.week[0].state = .missed
        var otherToday = Fixtures.newYork
        otherToday.week[6].day = otherToday.week[6].day.adding(days: 1)
        for other in [Fixtures.hostile, moved, restocked, otherPast, otherToday] {
            #expect(throws: DosebarError.self) { try TimelineJSON.text(Fixtures.timeline([Fixtures.newYork, other])) }
            #expect(throws: DosebarError.self) {
                try Exporter().files(for: Fixtures.timeline([Fixtures.newYork, other]), now: Fixtures.newYork.at.date)
            }
        }
        var later = Fixtures.newYork
        later.doses[3].status = .late
        later.week[6].state = .done
        #expect(throws: Never.self) { try TimelineJSON.text(Fixtures.timeline([Fixtures.newYork, later])) }
    }

    /// The JSON Schema checks the shape of schema 2: a file of schema 1, a dose that is an
    /// object again or a triple of four, a top-level week of 7 days, a past day still pending or
    /// a today that is partial fail validation; the real days pass.
    @Test func schemaAcceptsTheDaysAndRejectsOtherShapes() throws {
        let temp = try TemporaryDirectory()
        var pairs: [(String, String)] = []
        for day in Self.days {
            let path = temp.path + "/\(day.name).json"
            try TimelineJSON.text(day.timeline).write(toFile: path, atomically: false, encoding: .utf8)
            pairs.append(("timeline.schema.json", path))
        }
        let valid = try SchemaValidationTests.validate(pairs)
        #expect(valid.status == 0, "\(valid.output)")

        let good = try TimelineJSON.text(Self.days[0].timeline)
        let broken: [(String, String)] = [
            ("schema1", good.replacingOccurrences(of: "{\"schema\":2,", with: "{\"schema\":1,")),
            ("four", good.replacingOccurrences(of: "[\"taken_late\",\"2026-03-08T10:30:00-04:00\",null]",
                                               with: "[\"taken_late\",\"2026-03-08T10:30:00-04:00\",null,0]")),
            ("object", good.replacingOccurrences(of: "[\"upcoming\",null,null]",
                                                 with: "{\"status\":\"upcoming\",\"taken_at\":null,\"late_minutes\":null}")),
            ("status", good.replacingOccurrences(of: "[\"upcoming\",null,null]", with: "[\"soon\",null,null]")),
            ("tooltip", good.replacingOccurrences(of: ",\"text\":\"", with: ",\"tooltip\":\"\",\"text\":\"")),
            ("slot", good.replacingOccurrences(of: "\"medication_id\":1,", with: "\"medication_id\":1,\"status\":\"due\",")),
            ("today-in-week", good.replacingOccurrences(of: "\"week\":[", with: "\"week\":[{\"day\":\"2026-03-01\",\"state\":\"done\"},")),
            ("pending-past", good.replacingOccurrences(of: "{\"day\":\"2026-03-07\",\"state\":\"partial\"}",
                                                       with: "{\"day\":\"2026-03-07\",\"state\":\"pending\"}")),
            ("partial-today", good.replacingOccurrences(of: "\"week_today\":\"pending\"", with: "\"week_today\":\"partial\"")),
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
