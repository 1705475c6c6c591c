import DoseCore
import Foundation
import Testing

/// `HistoryLedger`: the states, figures and rows of past days (DESIGN §3 History, Reports).
/// Expected values are worked out by hand from the rules, not read from the output.
@Suite struct HistoryLedgerTests {
    static let seoul = "Asia/Seoul"

    func ledger(_ from: String, _ to: String, _ meds: [Medication], _ events: [DoseEvent], now: String,
                tz: String = seoul) -> HistoryLedger {
        HistoryLedger(days: Fx.date(from)...Fx.date(to), medications: meds, events: events, zone: Fx.zone(tz), now: Fx.instant(now))
    }

    @Test("a day's summary lists its missed and late doses by time, then by name, whatever order the medicines come in")
    func troubledInNameOrder() {
        // Three medicines at 08:00, ids not in name order; a fourth at 07:00 (first by time).
        let meds = [Fx.med(1, "Zinc", at: ["08:00"], from: "2026-11-02"), Fx.med(2, "Aspirin", at: ["08:00"], from: "2026-11-02"),
                    Fx.med(3, "Magnesium", at: ["08:00"], from: "2026-11-02"), Fx.med(4, "Yaz", at: ["07:00"], from: "2026-11-02")]
        // 11-02: Magnesium taken three hours late, the others missed.
        let late = Fx.taken(3, "2026-11-02", "08:00", at: "2026-11-02T11:00:00+09:00")
        let expected = ["4@07:00", "2@08:00", "3@08:00", "1@08:00"]
        for order in [meds, meds.reversed(), [meds[2], meds[0], meds[3], meds[1]]] {
            let summaries = History.summaries(of: Fx.date("2026-11-02")...Fx.date("2026-11-02"), medications: Array(order), events: [late],
                                              zone: Fx.zone(Self.seoul), after: nil)
            #expect(summaries.map(\.troubled) == [expected])
            #expect(summaries.map(\.taken) == [1] && summaries.map(\.missed) == [3])
        }
    }

    @Test("each day state, first that applies: none, rest, done, skipped, missed, partial, and today pending until complete")
    func states() {
        // A: daily 08:00 and 20:00 from 11-02. B: cycle 2 on / 1 off from 11-02 at 09:00.
        let a = Fx.med(1, "A", at: ["08:00", "20:00"], from: "2026-11-02")
        let b = Fx.med(2, "B", .cycle(active: 2, rest: 1), at: ["09:00"], from: "2026-11-02")
        let e: [DoseEvent] = [
            // 11-02: everything taken → done.
            Fx.taken(1, "2026-11-02", "08:00", at: "2026-11-02T08:05:00+09:00"),
            Fx.taken(1, "2026-11-02", "20:00", at: "2026-11-02T20:05:00+09:00"),
            Fx.taken(2, "2026-11-02", "09:00", at: "2026-11-02T09:00:00+09:00"),
            // 11-03: A skipped twice, B not taken → no taken, one missed → missed.
            Fx.taken(1, "2026-11-03", "08:00", at: "2026-11-03T08:00:00+09:00", kind: .skipped),
            Fx.taken(1, "2026-11-03", "20:00", at: "2026-11-03T20:00:00+09:00", kind: .skipped),
            // 11-04 (B rests): A skipped twice → skipped.
            Fx.taken(1, "2026-11-04", "08:00", at: "2026-11-04T08:00:00+09:00", kind: .skipped),
            Fx.taken(1, "2026-11-04", "20:00", at: "2026-11-04T20:00:00+09:00", kind: .skipped),
            // 11-05: A 08:00 taken, 20:00 missed, B taken → partial.
            Fx.taken(1, "2026-11-05", "08:00", at: "2026-11-05T08:00:00+09:00"),
            Fx.taken(2, "2026-11-05", "09:00", at: "2026-11-05T09:00:00+09:00"),
            // 11-06 (today at 12:00): A 08:00 and B taken, A 20:00 still to come → pending.
            Fx.taken(1, "2026-11-06", "08:00", at: "2026-11-06T08:00:00+09:00"),
            Fx.taken(2, "2026-11-06", "09:00", at: "2026-11-06T09:00:00+09:00"),
        ]
        let l = ledger("2026-11-01", "2026-11-06", [a, b], e, now: "2026-11-06T12:00:00+09:00")
        #expect(l.dayRecords().map(\.state) == [.none, .done, .missed, .skipped, .partial, .pending])
        // B alone: 11-04 is its rest day; nothing before it started.
        #expect(l.dayRecords(medicationID: 2).map(\.state) == [.none, .done, .missed, .rest, .done, .done])
        // Today complete once the evening dose is taken.
        let done = ledger("2026-11-06", "2026-11-06", [a, b],
                          e + [Fx.taken(1, "2026-11-06", "20:00", at: "2026-11-06T20:10:00+09:00")],
                          now: "2026-11-06T21:00:00+09:00")
        #expect(done.dayRecords().map(\.state) == [.done])
        // Today's unresolved slots are not outcomes: nothing known about A's 20:00 yet.
        let today = l.figures(medicationID: 1, days: Fx.date("2026-11-06")...Fx.date("2026-11-06"))
        #expect(today.known == 1 && today.taken == 1 && today.adherence == 100)
    }

    @Test("figures: percent rounded half up, on time among taken, early and late by the window, mean minutes late")
    func figures() {
        // Window 1h. Slots 08:00 daily from 11-01 to 11-08 (8 days).
        let a = Fx.med(1, "A", at: ["08:00"], from: "2026-11-01", window: 3600)
        let e = [
            Fx.taken(1, "2026-11-01", "08:00", at: "2026-11-01T08:59:00+09:00"), // on time (59 min)
            Fx.taken(1, "2026-11-02", "08:00", at: "2026-11-02T09:01:00+09:00"), // late 61 min
            Fx.taken(1, "2026-11-03", "08:00", at: "2026-11-03T10:30:30+09:00"), // late 150 min (floor of 150.5)
            Fx.taken(1, "2026-11-04", "08:00", at: "2026-11-04T06:59:00+09:00"), // early
            Fx.taken(1, "2026-11-05", "08:00", at: "2026-11-05T08:00:00+09:00", kind: .skipped),
            // 11-06, 11-07 missed; 11-08 taken on time.
            Fx.taken(1, "2026-11-08", "08:00", at: "2026-11-08T08:00:00+09:00"),
        ]
        let f = ledger("2026-11-01", "2026-11-08", [a], e, now: "2026-11-08T23:00:00+09:00").figures()
        #expect((f.taken, f.onTime, f.late, f.early, f.skipped, f.missed) == (5, 2, 2, 1, 1, 2))
        // 5 of 8 known = 62.5 → 63; 2 of 5 on time = 40; (61 + 150) / 2 = 105.5 → 106.
        #expect(f.adherence == 63 && f.onTimePercent == 40 && f.meanLateMinutes == 106)
        #expect(ledger("2026-11-01", "2026-11-08", [a], [], now: "2026-11-01T07:00:00+09:00").figures().adherence == nil)
    }

    @Test("the slot most often late or missed, the earliest on a tie")
    func mostLate() {
        let a = Fx.med(1, "A", at: ["08:00", "13:00", "20:00"], from: "2026-11-01")
        var e: [DoseEvent] = []
        for d in 1...4 {
            let day = "2026-11-0\(d)"
            e.append(Fx.taken(1, day, "08:00", at: "\(day)T08:00:00+09:00"))
            // 13:00: late on 11-01 and 11-02; 20:00: missed on 11-03 and 11-04 (a tie: 13:00 wins).
            e.append(Fx.taken(1, day, "13:00", at: d <= 2 ? "\(day)T17:00:00+09:00" : "\(day)T13:00:00+09:00"))
            if d <= 2 { e.append(Fx.taken(1, day, "20:00", at: "\(day)T20:00:00+09:00")) }
        }
        let l = ledger("2026-11-01", "2026-11-04", [a], e, now: "2026-11-05T12:00:00+09:00")
        #expect(l.mostLateSlot(medicationID: 1) == Fx.time("13:00"))
        #expect(l.mostLateSlot(medicationID: 1, days: Fx.date("2026-11-03")...Fx.date("2026-11-04")) == Fx.time("20:00"))
        #expect(l.mostLateSlot(medicationID: 1, days: Fx.date("2026-11-05")...Fx.date("2026-11-05")) == nil)
    }

    @Test("DST in New York: 02:30 on 2026-03-08 is 03:30 EDT; a missed 01:30's late_minutes is C − T, with C from the next day's 01:30")
    func daylightSaving() throws {
        let tz = "America/New_York"
        // A: 01:30 alone (its next slot is the next day's 01:30); B: 02:30.
        let a = Fx.med(1, "A", at: ["01:30"], from: "2026-03-01")
        let b = Fx.med(2, "B", at: ["02:30"], from: "2026-03-01")
        let e = [Fx.taken(2, "2026-03-08", "02:30", at: "2026-03-08T03:40:00-04:00")]
        let spring = ledger("2026-03-08", "2026-03-08", [a, b], e, now: "2026-03-09T12:00:00-04:00", tz: tz)
        let moved = try #require(spring.slots.first { $0.time == Fx.time("02:30") })
        #expect(moved.scheduled.iso8601 == "2026-03-08T03:30:00-04:00" && moved.status == .taken)
        // 01:30 EST on the 8th is 06:30Z; the 9th's 01:30 EDT is 05:30Z: T′ − T = 23 h (a 23-hour day).
        // C = max(T + 2 h, min(T′ − 2 h, T + 24 h)) = T + 21 h: 21 × 60 minutes.
        let springMissed = try #require(spring.slots.first { $0.time == Fx.time("01:30") })
        #expect(springMissed.status == .missed && springMissed.lateMinutes == 21 * 60)
        let fall = ledger("2026-11-01", "2026-11-01", [a, b], [], now: "2026-11-02T12:00:00-05:00", tz: tz)
        let first = try #require(fall.slots.first)
        // The first 01:30 (EDT, 05:30Z); the 2nd's 01:30 EST is 06:30Z: T′ − T = 25 h; C = T + 23 h.
        #expect(first.scheduled.iso8601 == "2026-11-01T01:30:00-04:00" && first.status == .missed)
        #expect(first.lateMinutes == 23 * 60)
        #expect(fall.dayRecords().map(\.state) == [.missed])
        // A 30-minute window: min(T′ − 30 min, T + 24 h) is T + 22 h 30 min in spring, T + 24 h (the cap) in autumn.
        let tight = Fx.med(1, "A", at: ["01:30"], from: "2026-03-01", window: 1800)
        #expect(ledger("2026-03-08", "2026-03-08", [tight], [], now: "2026-03-09T12:00:00-04:00", tz: tz).slots.first?.lateMinutes
                == 22 * 60 + 30)
        #expect(ledger("2026-11-01", "2026-11-01", [tight], [], now: "2026-11-02T12:00:00-05:00", tz: tz).slots.first?.lateMinutes
                == 24 * 60)
    }

    @Test("Seoul, midnight: a 23:30 dose taken at 00:10 counts on its own day; as-needed doses on the day they were taken")
    func midnight() {
        let a = Fx.med(1, "A", at: ["23:30"], from: "2026-11-01")
        let p = Fx.med(2, "P", .asNeeded(maxPerDay: nil, minInterval: nil), at: [], from: "2026-11-01")
        let e = [Fx.taken(1, "2026-11-01", "23:30", at: "2026-11-02T00:10:00+09:00"),
                 Fx.taken(2, "2026-11-01", nil, at: "2026-11-02T00:20:00+09:00")]
        let l = ledger("2026-11-01", "2026-11-02", [a, p], e, now: "2026-11-02T10:00:00+09:00")
        #expect(l.dayRecords().map(\.state) == [.done, .pending])
        #expect(l.slots.first?.status == .taken && l.slots.first?.takenAt?.iso8601 == "2026-11-02T00:10:00+09:00")
        #expect(l.asNeeded.map(\.date) == [Fx.date("2026-11-02")])
        #expect(l.asNeededCount(medicationID: 2, days: Fx.date("2026-11-01")...Fx.date("2026-11-01")) == 0)
    }

    @Test("an archived medicine keeps its past; an edit judges the days before it by the schedule then")
    func archiveAndEdit() {
        var a = Fx.med(1, "A", at: ["08:00"], from: "2026-11-01", archivedOn: "2026-11-04")
        a.name = "Archived"
        var b = Fx.med(2, "B", at: ["08:00"], from: "2026-11-01")
        // From 11-03 B is taken at 20:00 instead.
        b.versions.append(ScheduleVersion(effective: Fx.date("2026-11-03"),
                                          schedule: Schedule(recurrence: .daily, times: [Fx.time("20:00")], start: Fx.date("2026-11-01"))))
        let l = ledger("2026-11-01", "2026-11-05", [a, b], [], now: "2026-11-06T12:00:00+09:00")
        #expect(l.slots.filter { $0.medicationID == 1 }.map(\.date) == ["2026-11-01", "2026-11-02", "2026-11-03"].map(Fx.date))
        #expect(l.slots.filter { $0.medicationID == 2 }.map(\.time.description) == ["08:00", "08:00", "20:00", "20:00", "20:00"])
        #expect(l.medications.map(\.name) == ["Archived", "B"])
        #expect(l.medications(in: Fx.date("2026-11-04")...Fx.date("2026-11-05")).map(\.name) == ["B"])
        // Removed at noon on 11-04 after its 08:00 dose was taken: that dose stays, nothing else of 11-04 does.
        var c = Fx.med(3, "C", at: ["08:00", "20:00"], from: "2026-11-01", archivedOn: "2026-11-04")
        c.name = "C"
        let kept = ledger("2026-11-04", "2026-11-04", [c], [Fx.taken(3, "2026-11-04", "08:00", at: "2026-11-04T08:05:00+09:00")],
                          now: "2026-11-05T12:00:00+09:00")
        #expect(kept.slots.map { "\($0.time) \($0.status)" } == ["08:00 taken"])
        #expect(kept.dayRecords().map(\.state) == [.done])
    }

    @Test("the range ends today; a report's weeks run Monday to Sunday, cut at its ends")
    func rangeAndWeeks() {
        let a = Fx.med(1, "A", at: ["08:00"], from: "2026-10-01")
        // 2026-11-04 is a Wednesday; today is Tuesday 11-17 though --to says 11-30.
        let l = ledger("2026-11-04", "2026-11-30", [a], [], now: "2026-11-17T09:00:00+09:00")
        #expect(l.days.upperBound == Fx.date("2026-11-17"))
        let weeks = Report(l).weeks.map { "\($0.days.lowerBound)…\($0.days.upperBound)" }
        #expect(weeks == ["2026-11-04…2026-11-08", "2026-11-09…2026-11-15", "2026-11-16…2026-11-17"])
    }

    @Test("an extra dose of a scheduled medicine (a take without a slot, as an import writes a double dose): a dose taken, never a slot")
    func scheduledExtraDose() {
        // A: daily 08:00 from 11-01. 11-02: taken at 08:05 and again at 08:06 (no slot); 11-03: nothing.
        let a = Fx.med(1, "A", at: ["08:00"], from: "2026-11-01")
        let e = [
            Fx.taken(1, "2026-11-01", "08:00", at: "2026-11-01T08:00:00+09:00"),
            Fx.taken(1, "2026-11-02", "08:00", at: "2026-11-02T08:05:00+09:00"),
            Fx.taken(1, "2026-11-02", nil, at: "2026-11-02T08:06:00+09:00"),
        ]
        let l = ledger("2026-11-01", "2026-11-03", [a], e, now: "2026-11-04T12:00:00+09:00")
        // Three slots: two taken, one missed (the extra dose does not resolve 11-03's slot).
        let f = l.figures(medicationID: 1)
        #expect(f.known == 3 && f.taken == 2 && f.missed == 1)
        // The second take of 11-02 is listed as a dose of its own at 08:06.
        #expect(l.asNeeded.map { "\($0.date) \($0.medication) \($0.takenAt.iso8601)" } == ["2026-11-02 A 2026-11-02T08:06:00+09:00"])
        #expect(l.asNeededCount(medicationID: 1) == 1)
        #expect(l.dayRecords().map(\.state) == [.done, .done, .missed])
        // Before it is taken (now 08:05 on 11-02), it is not there yet.
        let early = ledger("2026-11-02", "2026-11-02", [a], e, now: "2026-11-02T08:05:30+09:00")
        #expect(early.asNeeded.isEmpty)
    }
}
