import DoseCore
import Foundation
import Testing

/// The cut-off of DESIGN §3 (issue 21, the leaflet rule): a slot at T with window W is open until
/// C = max(T + W, min(T′ − W, T + 24 h)), T′ the medicine's next slot (none: T + 24 h). Every expected
/// instant below is worked out by hand from that formula.
@Suite struct CutoffTests {
    static func slot(_ m: Medication, _ day: String, _ time: String, tz: String = "Asia/Seoul") throws -> PlannedSlot {
        try #require(Fx.plan(day, [m], tz: tz).slots.first { $0.key.time == Fx.time(time) })
    }

    @Test func aDailyBedtimeDoseIsOpenUntilTwentyHundredTheNextEvening() throws {
        // T = 22:00 on the 22nd, T′ = 22:00 on the 23rd, W = 2 h: max(24:00, min(20:00 on the 23rd, 22:00 on the 23rd)).
        let yaz = try Self.slot(Fx.med(1, "Yaz", at: ["22:00"]), "2026-11-22", "22:00")
        #expect(yaz.cutoff == Fx.instant("2026-11-23T20:00:00+09:00"))
        #expect(yaz.status(at: Fx.instant("2026-11-23T00:30:00+09:00")) == .late)
        #expect(yaz.status(at: Fx.instant("2026-11-23T19:59:59+09:00")) == .late)
        #expect(yaz.status(at: Fx.instant("2026-11-23T20:00:00+09:00")) == .missed)
    }

    @Test func twiceDailyMorningDoseClosesWhenTheEveningWindowOpens() throws {
        let m = Fx.med(1, "Metformin", at: ["08:00", "20:00"])
        // 08:00: T′ = 20:00: max(10:00, min(18:00, 08:00 + 24 h)) = 18:00.
        let morning = try Self.slot(m, "2026-11-22", "08:00")
        #expect(morning.cutoff == Fx.instant("2026-11-22T18:00:00+09:00"))
        #expect(morning.status(at: Fx.instant("2026-11-22T17:59:59+09:00")) == .late)
        #expect(morning.status(at: Fx.instant("2026-11-22T18:00:00+09:00")) == .missed)
        // 20:00: T′ = 08:00 on the 23rd: max(22:00, min(06:00 on the 23rd, 20:00 on the 23rd)) = 06:00.
        #expect(try Self.slot(m, "2026-11-22", "20:00").cutoff == Fx.instant("2026-11-23T06:00:00+09:00"))
    }

    @Test func slotsCloserThanTwoWindowsCloseAtTheirWindowsEnd() throws {
        // 08:00 and 09:00, W = 2 h: T′ − W = 07:00 is before T + W = 10:00, so C = T + W = 10:00: never late.
        let m = Fx.med(1, "Antacid", at: ["08:00", "09:00"])
        let first = try Self.slot(m, "2026-11-22", "08:00")
        #expect(first.cutoff == Fx.instant("2026-11-22T10:00:00+09:00"))
        #expect(first.status(at: Fx.instant("2026-11-22T09:59:59+09:00")) == .due)
        #expect(first.status(at: Fx.instant("2026-11-22T10:00:00+09:00")) == .missed)
        // 09:00: T′ = 08:00 the next day: max(11:00, min(06:00 on the 23rd, 09:00 on the 23rd)) = 06:00 on the 23rd.
        #expect(try Self.slot(m, "2026-11-22", "09:00").cutoff == Fx.instant("2026-11-23T06:00:00+09:00"))
    }

    @Test func theLastSlotOfACourseAndASparseScheduleCloseAfterTwentyFourHours() throws {
        // The course ends on the 22nd: no T′, C = T + 24 h.
        let course = Fx.med(1, "Amoxicillin", at: ["08:00", "20:00"], from: "2026-11-15", until: "2026-11-22")
        #expect(try Self.slot(course, "2026-11-22", "20:00").cutoff == Fx.instant("2026-11-23T20:00:00+09:00"))
        // The day before the end, the last slot still has the next morning's as T′: 06:00 on the 22nd.
        #expect(try Self.slot(course, "2026-11-21", "20:00").cutoff == Fx.instant("2026-11-22T06:00:00+09:00"))
        // Every 3 days: T′ is 72 h later, T′ − W is past T + 24 h: C = T + 24 h.
        let sparse = Fx.med(2, "Vitamin D", .everyDays(3), at: ["09:00"], from: "2026-11-22")
        #expect(try Self.slot(sparse, "2026-11-22", "09:00").cutoff == Fx.instant("2026-11-23T09:00:00+09:00"))
        // Weekly on Sunday the 22nd with a 12-hour window: max(T + 12 h, min(T′ − 12 h, T + 24 h)) = T + 24 h.
        let weekly = Fx.med(3, "Methotrexate", .weekdays([.sunday]), at: ["09:00"], from: "2026-11-01", window: 43200)
        #expect(try Self.slot(weekly, "2026-11-22", "09:00").cutoff == Fx.instant("2026-11-23T09:00:00+09:00"))
    }

    /// Across the DST changes of New York a 22:00 dose still closes at 20:00 by the clock (T′ − W is
    /// wall-clock arithmetic on real instants: 21, 22 or 23 hours after T), but the T + 24 h cap is 24 real
    /// hours: with W = 30 min the fall-back day closes at 21:00 EST, not 21:30.
    @Test(arguments: [
        // day of T, T′ − W with W = 2 h, C with W = 30 min
        // 03-07 22:00 EST = 03:00Z on 03-08; T′ = 03-08 22:00 EDT = 02:00Z on 03-09 (23 h later):
        //   W = 2 h: min(T + 21 h, T + 24 h) = 00:00Z = 20:00 EDT; W = 30 min: T + 22 h 30 = 21:30 EDT.
        ("America/New_York", "2026-03-07", "2026-03-08T20:00:00-04:00", "2026-03-08T21:30:00-04:00"),
        // 03-08 22:00 EDT = 02:00Z on 03-09; T′ = 02:00Z on 03-10 (24 h): 20:00 EDT; W = 30 min: 21:30 EDT.
        ("America/New_York", "2026-03-08", "2026-03-09T20:00:00-04:00", "2026-03-09T21:30:00-04:00"),
        // 10-31 22:00 EDT = 02:00Z on 11-01; T′ = 11-01 22:00 EST = 03:00Z on 11-02 (25 h):
        //   W = 2 h: T + 23 h = 01:00Z = 20:00 EST; W = 30 min: min(T + 24 h 30, T + 24 h) = 02:00Z = 21:00 EST.
        ("America/New_York", "2026-10-31", "2026-11-01T20:00:00-05:00", "2026-11-01T21:00:00-05:00"),
        // 11-01 22:00 EST = 03:00Z on 11-02; T′ 24 h later: 20:00 EST; 21:30 EST.
        ("America/New_York", "2026-11-01", "2026-11-02T20:00:00-05:00", "2026-11-02T21:30:00-05:00"),
        // Seoul has no DST: the plain 22 h and 23 h 30.
        ("Asia/Seoul", "2026-03-07", "2026-03-08T20:00:00+09:00", "2026-03-08T21:30:00+09:00"),
        ("Asia/Seoul", "2026-10-31", "2026-11-01T20:00:00+09:00", "2026-11-01T21:30:00+09:00"),
    ])
    func aBedtimeDoseAcrossDST(tz: String, day: String, wide: String, narrow: String) throws {
        let m = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-01-01")
        #expect(try Self.slot(m, day, "22:00", tz: tz).cutoff == Fx.instant(wide))
        let tight = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-01-01", window: 1800)
        #expect(try Self.slot(tight, day, "22:00", tz: tz).cutoff == Fx.instant(narrow))
    }

    @Test func aFallBackSlotIsStillJudgedBetweenItsTwoOccurrences() throws {
        // 01:30 on 2026-11-01 is its first occurrence, EDT (05:30Z); T′ = 01:30 EST on 11-02 (06:30Z), 25 h later.
        // W = 2 h: C = T + 23 h = 04:30Z on 11-02 = 23:30 EST on 11-01.
        let m = Fx.med(1, "Early", at: ["01:30"], from: "2026-10-01")
        let s = try Self.slot(m, "2026-11-01", "01:30", tz: "America/New_York")
        #expect(s.cutoff == Fx.instant("2026-11-01T23:30:00-05:00"))
        #expect(s.status(at: Fx.instant("2026-11-01T23:29:59-05:00")) == .late)
        #expect(s.status(at: Fx.instant("2026-11-01T23:30:00-05:00")) == .missed)
    }
}

/// Yesterday's slots still open after midnight (DESIGN §3 Day state, §4 carried slots): a daily Yaz at
/// 22:00 with a 90-minute window (so its cut-off, 20:30 the next evening, is not on an hour), and an
/// Aspirin at 08:00 today. Nothing was logged on the 21st: the 21st's 22:00 is open until 20:30 on the 22nd.
@Suite struct CarriedSlotTests {
    static let yaz = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-11-01", window: 5400)
    static let aspirin = Fx.med(2, "Aspirin", at: ["08:00"], from: "2026-11-01")
    static let meds = [yaz, aspirin]
    /// The 20th settled, so the 20th's 22:00 is not carried into the 21st either.
    static let settled = [Fx.taken(1, "2026-11-20", "22:00", at: "2026-11-20T22:05:00+09:00"),
                          Fx.taken(2, "2026-11-21", "08:00", at: "2026-11-21T08:05:00+09:00")]

    static func builder(_ events: [DoseEvent] = [], catalog: Catalog = .english) -> SnapshotBuilder {
        let plan = Fx.plan("2026-11-22", meds, settled + events)
        let history = History.summaries(of: Fx.date("2026-11-15")...Fx.date("2026-11-21"), medications: meds,
                                        events: settled + events, zone: Fx.zone("Asia/Seoul"), after: nil)
        return Fx.builder(plan, history: history, catalog: catalog, meds: meds)
    }

    static func at(_ iso: String, _ events: [DoseEvent] = [], catalog: Catalog = .english) -> Snapshot {
        let b = builder(events, catalog: catalog)
        return b.snapshot(at: Fx.instant(iso), validUntil: b.plan.dayEnd)
    }

    @Test func halfPastMidnightListsLastNightsDoseFirstWithItsDay() throws {
        let s = Self.at("2026-11-22T00:30:00+09:00")
        // Last night's Yaz first, then today's Aspirin (08:00) and Yaz (22:00).
        #expect(s.doses.map(\.medication) == ["Yaz", "Aspirin", "Yaz"])
        let yaz = try #require(s.doses.first)
        #expect(yaz.day == Fx.date("2026-11-21") && yaz.scheduled.iso8601 == "2026-11-21T22:00:00+09:00")
        // T + W = 23:30 is past: late, 2 h 30 min.
        #expect(yaz.status == .late && yaz.lateMinutes == 150)
        #expect(s.doses[1].day == Fx.date("2026-11-22") && s.doses[1].status == .upcoming)
        // Counts over today's slots only, plus how many are carried.
        #expect(s.counts.carried == 1)
        #expect(s.counts.total == 2 && s.counts.upcoming == 2 && s.counts.late == 0)
        #expect(s.progress == 0)
        #expect(s.state == .late)
        #expect(s.message.id == MessageID.late2h)
        #expect(s.message.text == "Yaz (yesterday 22:00) is 2h 30m late")
        #expect(s.tooltip.contains("yesterday 22:00  Yaz"))
        #expect(Self.at("2026-11-22T00:30:00+09:00", catalog: .korean).message.text.contains("Yaz (어제 22:00)"))
        // The strip: yesterday is pending, not missed.
        #expect(s.week.dropLast().last?.state == .pending)
    }

    @Test func aCarriedSlotLeavesOnceTakenOrClosed() {
        let taken = Fx.taken(1, "2026-11-21", "22:00", at: "2026-11-22T00:40:00+09:00")
        let before = Self.at("2026-11-22T00:39:59+09:00", [taken])
        #expect(before.counts.carried == 1 && before.state == .late)
        let after = Self.at("2026-11-22T00:40:00+09:00", [taken])
        #expect(after.counts.carried == 0 && after.doses.map(\.medication) == ["Aspirin", "Yaz"])
        #expect(after.state == .upcoming)
        #expect(after.week.dropLast().last?.state == .done, "the 21st complete once its 22:00 is taken late")
        // Not taken: it stays until its cut-off (20:30), then it is history — missed.
        let open = Self.at("2026-11-22T20:29:59+09:00", [Fx.taken(2, "2026-11-22", "08:00", at: "2026-11-22T08:00:00+09:00")])
        #expect(open.counts.carried == 1 && open.doses.first?.status == .late)
        let closed = Self.at("2026-11-22T20:30:00+09:00", [Fx.taken(2, "2026-11-22", "08:00", at: "2026-11-22T08:00:00+09:00")])
        #expect(closed.counts.carried == 0 && closed.doses.map(\.medication) == ["Aspirin", "Yaz"])
        #expect(closed.week.dropLast().last?.state == .partial, "the 21st's Aspirin taken, its Yaz missed")
        #expect(closed.messages.contains { $0.id == MessageID.missedYesterday })
        #expect(!open.messages.contains { $0.id == MessageID.missedYesterday }, "not missed while it is still open")
    }

    @Test func theTimelineHasAnEntryAtTheCarriedSlotsCutOff() throws {
        let provider = TimelineProvider(builder: Self.builder())
        let tl = provider.timeline(generatedAt: Fx.instant("2026-11-22T00:30:00+09:00"))
        let cut = Fx.instant("2026-11-22T20:30:00+09:00")
        let entry = try #require(tl.entries.first { $0.at.date == cut }, "an entry at 20:30, the 21st's 22:00's cut-off")
        #expect(entry.counts.carried == 0 && !entry.doses.contains { $0.day == Fx.date("2026-11-21") })
        let previous = try #require(tl.entries.last { $0.at.date < cut })
        #expect(previous.validUntil.date == cut && previous.counts.carried == 1 && previous.doses.first?.medication == "Yaz")
        // The grade changes too: T + 4 h = 02:00 (an hour anyway); the first entry (00:00) already has it late.
        #expect(tl.entries.first?.doses.first?.status == .late && tl.entries.first?.counts.carried == 1)
    }

    @Test func theStreakDoesNotDropAtMidnight() {
        // Yaz taken on time every evening from the 15th to the 20th (six days; Aspirin has no dose on
        // those days in this history but the 21st's, which is taken): the streak through the 20th is 6.
        var events: [DoseEvent] = []
        for d in 15...20 { events.append(Fx.taken(1, "2026-11-\(d)", "22:00", at: "2026-11-\(d)T22:00:00+09:00")) }
        let yaz = Self.yaz, aspirin = Fx.med(2, "Aspirin", at: ["08:00"], from: "2026-11-21")
        let meds = [yaz, aspirin]
        let morning = Fx.taken(2, "2026-11-21", "08:00", at: "2026-11-21T08:05:00+09:00")
        func streak(_ iso: String, _ extra: [DoseEvent] = []) -> Snapshot.Streak {
            let all = events + [morning] + extra
            let plan = Fx.plan("2026-11-22", meds, all)
            let history = History.summaries(of: Fx.date("2026-11-15")...Fx.date("2026-11-21"), medications: meds, events: all,
                                            zone: Fx.zone("Asia/Seoul"), after: nil)
            return Fx.builder(plan, history: history, meds: meds).snapshot(at: Fx.instant(iso), validUntil: plan.dayEnd).streak
        }
        // At 00:10 the 21st's 22:00 is open: the 21st is pending, the streak stays 6 (not 0).
        #expect(streak("2026-11-22T00:10:00+09:00") == Snapshot.Streak(current: 6, best: 6, today: .pending))
        // Taken at 00:30: the 21st is complete, the streak is 7.
        let late = Fx.taken(1, "2026-11-21", "22:00", at: "2026-11-22T00:30:00+09:00")
        #expect(streak("2026-11-22T00:29:59+09:00", [late]).current == 6)
        #expect(streak("2026-11-22T00:30:00+09:00", [late]) == Snapshot.Streak(current: 7, best: 7, today: .pending))
        // Never taken: it closes at 20:30 and the 21st breaks the streak then.
        #expect(streak("2026-11-22T20:29:59+09:00").current == 6)
        #expect(streak("2026-11-22T20:30:00+09:00") == Snapshot.Streak(current: 0, best: 6, today: .pending))
    }

    @Test func todayIsBrokenAsSoonAsOneOfItsSlotsCloses() {
        // Twice daily, yesterday complete (streak 1 through it); today's 08:00 not taken closes at 18:00.
        let m = Fx.med(1, "Metformin", at: ["08:00", "20:00"], from: "2026-11-21")
        let y = [Fx.taken(1, "2026-11-21", "08:00", at: "2026-11-21T08:00:00+09:00"),
                 Fx.taken(1, "2026-11-21", "20:00", at: "2026-11-21T20:00:00+09:00")]
        let plan = Fx.plan("2026-11-22", [m], y)
        let history = History.summaries(of: Fx.date("2026-11-21")...Fx.date("2026-11-21"), medications: [m], events: y,
                                        zone: Fx.zone("Asia/Seoul"), after: nil)
        let b = Fx.builder(plan, history: history, meds: [m])
        #expect(b.snapshot(at: Fx.instant("2026-11-22T17:59:59+09:00"), validUntil: plan.dayEnd).streak
                == Snapshot.Streak(current: 1, best: 1, today: .pending))
        let s = b.snapshot(at: Fx.instant("2026-11-22T18:00:00+09:00"), validUntil: plan.dayEnd)
        #expect(s.streak == Snapshot.Streak(current: 0, best: 1, today: .broken), "the 20:00 dose is still to come")
        #expect(s.counts.missed == 1 && s.counts.upcoming == 1)
    }

    @Test func adherenceCountsClosedSlotsOnly() {
        // Yaz taken on the 16th to the 20th (5 of 5); the 21st's 22:00 not taken.
        var events: [DoseEvent] = []
        for d in 16...20 { events.append(Fx.taken(1, "2026-11-\(d)", "22:00", at: "2026-11-\(d)T22:00:00+09:00")) }
        let yaz = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-11-16", window: 5400)
        let plan = Fx.plan("2026-11-22", [yaz], events)
        let history = History.summaries(of: Fx.date("2026-11-16")...Fx.date("2026-11-21"), medications: [yaz], events: events,
                                        zone: Fx.zone("Asia/Seoul"), after: nil)
        let b = Fx.builder(plan, history: history, meds: [yaz])
        // 00:30: the 21st's slot is open, today's upcoming: 5 taken of 5 known = 100 %.
        #expect(b.snapshot(at: Fx.instant("2026-11-22T00:30:00+09:00"), validUntil: plan.dayEnd).adherence.days7 == 100)
        // 20:30: it closed unresolved: 5 of 6 = 83.3 % → 83.
        #expect(b.snapshot(at: Fx.instant("2026-11-22T20:30:00+09:00"), validUntil: plan.dayEnd).adherence.days7 == 83)
        // The ledger agrees: at 00:30 nothing of the 21st is known yet.
        let ledger = HistoryLedger(days: Fx.date("2026-11-16")...Fx.date("2026-11-22"), medications: [yaz], events: events,
                                   zone: Fx.zone("Asia/Seoul"), now: Fx.instant("2026-11-22T00:30:00+09:00"))
        #expect(ledger.figures().known == 5 && ledger.figures().adherence == 100)
    }
}

/// A medicine is tracked from the instant it was added (DESIGN §3 Tracking start): Yaz on a 21/7
/// cycle from the 1st (day 1), added on the 20th at 12:00.
@Suite struct TrackingStartTests {
    static let added = Fx.instant("2026-11-20T12:00:00+09:00")
    static var yaz: Medication {
        var m = Fx.med(1, "Yaz", .cycle(active: 21, rest: 7), at: ["08:00", "22:00"], from: "2026-11-01")
        m.trackedFrom = added
        return m
    }

    @Test func slotsBeforeTheStartAreInNoSnapshot() {
        // The 20th: 08:00 is before 12:00 (untracked), 22:00 after it.
        let plan = Fx.plan("2026-11-20", [Self.yaz])
        #expect(plan.slots.map(\.key.time.description) == ["22:00"])
        #expect(plan.untracked.map(\.key.time.description) == ["08:00"])
        let s = Fx.builder(plan, meds: [Self.yaz]).snapshot(at: Fx.instant("2026-11-20T13:00:00+09:00"), validUntil: plan.dayEnd)
        #expect(s.counts.total == 1 && s.counts.missed == 0 && s.state == .upcoming)
        #expect(s.doses.map(\.scheduled.clock) == ["22:00"])
        // The 19th's 22:00 is untracked too: never carried into the 20th.
        #expect(plan.carried.isEmpty)
        #expect(Fx.plan("2026-11-19", [Self.yaz]).summary(after: nil).total == 0)
    }

    @Test func theLedgerCountsNothingBeforeTheStartUnlessAnEventSaysSo() {
        let zone = Fx.zone("Asia/Seoul"), now = Fx.instant("2026-11-21T23:00:00+09:00")
        let events = [Fx.taken(1, "2026-11-20", "22:00", at: "2026-11-20T22:00:00+09:00"),
                      Fx.taken(1, "2026-11-21", "08:00", at: "2026-11-21T08:00:00+09:00"),
                      Fx.taken(1, "2026-11-21", "22:00", at: "2026-11-21T22:10:00+09:00")]
        let l = HistoryLedger(days: Fx.date("2026-11-01")...Fx.date("2026-11-21"), medications: [Self.yaz], events: events, zone: zone, now: now)
        // 3 tracked slots, all taken: 100 %, not 3 of 42 (the 1st to the 19th and the 20th's 08:00 would be 39 misses).
        #expect(l.slots.count == 3 && l.figures().adherence == 100 && l.figures().missed == 0)
        #expect(l.dayRecords().prefix(19).allSatisfy { $0.state == HistoryState.none })
        #expect(l.dayRecords().suffix(2).map(\.state) == [.done, .done])
        // A back-dated take of the 19th's 22:00 makes that slot a normal one: it counts, its day is done.
        let backDated = Fx.taken(1, "2026-11-19", "22:00", at: "2026-11-19T22:30:00+09:00")
        let l2 = HistoryLedger(days: Fx.date("2026-11-01")...Fx.date("2026-11-21"), medications: [Self.yaz], events: events + [backDated],
                               zone: zone, now: now)
        #expect(l2.slots.count == 4 && l2.dayRecords()[18].state == .done)
        #expect(Fx.plan("2026-11-19", [Self.yaz], [backDated]).slots.map(\.key.time.description) == ["22:00"])
        // And a skip counts as well (the 19th's 08:00).
        let skip = Fx.taken(1, "2026-11-19", "08:00", at: "2026-11-19T08:00:00+09:00", kind: .skipped)
        #expect(Fx.plan("2026-11-19", [Self.yaz], [backDated, skip]).slots.count == 2)
    }
}

/// Which dose a take or skip records (DESIGN §2): at most one per medicine, never a slot hours away.
@Suite struct TakeRuleTests {
    static let seoul = "Asia/Seoul"

    @Test func takeNameAfterMidnightRecordsLastNightsDose() throws {
        let yaz = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-11-01", window: 3600)
        let plan = Fx.plan("2026-11-22", [yaz], [Fx.taken(1, "2026-11-20", "22:00", at: "2026-11-20T22:00:00+09:00")])
        let now = Fx.instant("2026-11-22T00:30:00+09:00")
        guard case .slot(let s) = try DoseResolver.target(for: yaz, plan: plan, now: now, allowExtra: true) else {
            Issue.record("not a slot"); return
        }
        #expect(s.key == SlotKey(medicationID: 1, date: Fx.date("2026-11-21"), time: Fx.time("22:00")))
        // The bar's click (`take --next`) records the same one, not tonight's.
        let click = try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [yaz], at: nil, now: now, next: true)
        #expect(click.count == 1)
        if case .slot(let c)? = click.first { #expect(c.key.date == Fx.date("2026-11-21")) } else { Issue.record("not a slot") }
        // Once it is taken, `take Yaz` at 00:35 has nothing open and tonight's is hours away: 65 saying when.
        let taken = Fx.plan("2026-11-22", [yaz], [Fx.taken(1, "2026-11-21", "22:00", at: "2026-11-22T00:30:00+09:00")])
        #expect(throws: DosebarError.badData("Yaz is not due yet: next dose at 22:00")) {
            try DoseResolver.target(for: yaz, plan: taken, now: Fx.instant("2026-11-22T00:35:00+09:00"), allowExtra: true)
        }
    }

    /// A dose just after midnight is taken from the evening before once its window opens; the next
    /// day's plan is asked for only when nothing of the day (or carried) is open or to come.
    @Test func takeNameReachesTheNextDaysDoseOnlyWhenTodayHasNone() throws {
        let late = Fx.med(1, "Melatonin", at: ["00:30"], from: "2026-11-01")
        let twice = Fx.med(2, "Metformin", at: ["00:30", "23:50"], from: "2026-11-01")
        let day = "2026-11-22", now = Fx.instant("2026-11-22T23:40:00+09:00")
        let taken = [Fx.taken(1, day, "00:30", at: "2026-11-22T00:31:00+09:00"), Fx.taken(2, day, "00:30", at: "2026-11-22T00:31:00+09:00")]
        let plan = Fx.plan(day, [late, twice], taken)
        var asked = 0
        let next = { () -> DayPlan? in asked += 1; return Fx.plan("2026-11-23", [late, twice], carry: false) }
        // Melatonin's 00:30 of the 23rd opens at 22:30 (window 2 h): taken at 23:40, as the next day's dose.
        guard case .slot(let s) = try DoseResolver.target(for: late, plan: plan, following: next, now: now, allowExtra: true) else {
            Issue.record("not a slot"); return
        }
        #expect(s.key == SlotKey(medicationID: 1, date: Fx.date("2026-11-23"), time: Fx.time("00:30")))
        #expect(asked == 1)
        // Without the next day it has nothing to take, and says so.
        #expect(throws: DosebarError.self) { try DoseResolver.target(for: late, plan: plan, now: now, allowExtra: true) }
        // Metformin's 23:50 of today is to come: the next day is not asked for.
        guard case .slot(let m) = try DoseResolver.target(for: twice, plan: plan, following: next, now: now, allowExtra: true) else {
            Issue.record("not a slot"); return
        }
        #expect(m.key == SlotKey(medicationID: 2, date: Fx.date(day), time: Fx.time("23:50")))
        #expect(asked == 1)
        // At 21:00 Melatonin's next dose is the 23rd's, too far away: 65 naming tomorrow.
        #expect(throws: DosebarError.badData("Melatonin is not due yet: next dose tomorrow at 00:30")) {
            try DoseResolver.target(for: late, plan: plan, following: next, now: Fx.instant("2026-11-22T21:00:00+09:00"), allowExtra: true)
        }
    }

    @Test func oneClickNeverRecordsTwoDosesOfOneMedicine() throws {
        // Amoxicillin 08:00, 14:00, 20:00; 08:00 taken, 14:00 forgotten (closed at 18:00 = 20:00 − W). At 20:10: one dose.
        let amox = Fx.med(1, "Amoxicillin", at: ["08:00", "14:00", "20:00"], from: "2026-11-20")
        let y = [Fx.taken(1, "2026-11-21", "20:00", at: "2026-11-21T20:00:00+09:00")]
        let plan = Fx.plan("2026-11-22", [amox], y + [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:00:00+09:00")])
        let now = Fx.instant("2026-11-22T20:10:00+09:00")
        #expect(DoseResolver.dueSlots(plan: plan, now: now, next: true).map(\.key.time.description) == ["20:00"])
        let targets = try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [amox], at: nil, now: now, next: true)
        #expect(targets.count == 1)
        let named = try DoseResolver.targets(names: ["amox"], taking: true, plan: plan, medications: [amox], at: nil, now: now, next: false)
        if case .slot(let s)? = named.first, named.count == 1 { #expect(s.key.time == Fx.time("20:00")) } else { Issue.record("\(named)") }

        // Two slots of one medicine open at once (08:00 and 09:00, W = 2 h: at 09:30 both are due): one, the earlier.
        let antacid = Fx.med(2, "Antacid", at: ["08:00", "09:00"], from: "2026-11-20")
        let p2 = Fx.plan("2026-11-22", [antacid], [Fx.taken(2, "2026-11-21", "09:00", at: "2026-11-21T09:00:00+09:00")])
        let t2 = Fx.instant("2026-11-22T09:30:00+09:00")
        #expect(p2.slots.allSatisfy { $0.isOpen(at: t2) })
        #expect(DoseResolver.dueSlots(plan: p2, now: t2, next: true).map(\.key.time.description) == ["08:00"])
        // With the two medicines, the click records one dose of each.
        let both = Fx.plan("2026-11-22", [amox, antacid], y + [Fx.taken(2, "2026-11-21", "09:00", at: "2026-11-21T09:00:00+09:00")])
        let t3 = Fx.instant("2026-11-22T09:30:00+09:00")
        #expect(DoseResolver.dueSlots(plan: both, now: t3, next: true).map { "\($0.medication.name) \($0.key.time)" }
                == ["Amoxicillin 08:00", "Antacid 08:00"])
    }

    @Test func atPicksWhatTakeWouldHavePickedThenAndRefusesAResolvedOne() throws {
        // Metformin 08:00/20:00, the 08:00 taken at 07:50; at 12:40 `take Metformin --at 08:05`: 65 naming the 08:00.
        let met = Fx.med(1, "Metformin", at: ["08:00", "20:00"], from: "2026-11-20")
        let events = [Fx.taken(1, "2026-11-21", "20:00", at: "2026-11-21T20:00:00+09:00"),
                      Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T07:50:00+09:00")]
        let plan = Fx.plan("2026-11-22", [met], events)
        let now = Fx.instant("2026-11-22T12:40:00+09:00")
        #expect(throws: DosebarError.badData(
            "Metformin: the 08:00 dose was taken at 07:50 — 'dosebar undo Metformin' first to record it again")) {
            try DoseResolver.targets(names: ["Metformin"], taking: true, plan: plan, medications: [met],
                                     at: Fx.instant("2026-11-22T08:05:00+09:00"), now: now, next: false)
        }
        // Not the 20:00 either way: at 08:05 the 20:00 is neither open nor within its window.
        // Without the 07:50 take, --at 08:05 picks the 08:00.
        let fresh = Fx.plan("2026-11-22", [met], [events[0]])
        let picked = try DoseResolver.targets(names: ["Metformin"], taking: true, plan: fresh, medications: [met],
                                              at: Fx.instant("2026-11-22T08:05:00+09:00"), now: now, next: false)
        if case .slot(let s)? = picked.first { #expect(s.key.time == Fx.time("08:00")) } else { Issue.record("\(picked)") }
        // --at 19:00 (within the 20:00's window): the 20:00.
        let evening = try DoseResolver.targets(names: ["Metformin"], taking: true, plan: plan, medications: [met],
                                               at: Fx.instant("2026-11-22T19:00:00+09:00"), now: Fx.instant("2026-11-22T21:00:00+09:00"),
                                               next: false)
        if case .slot(let s)? = evening.first { #expect(s.key.time == Fx.time("20:00")) } else { Issue.record("\(evening)") }
    }

    @Test func slotNamesTheDoseExplicitly() throws {
        let amox = Fx.med(1, "Amoxicillin", at: ["08:00", "14:00", "20:00"], from: "2026-11-20")
        let plan = Fx.plan("2026-11-22", [amox], [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:00:00+09:00")])
        let today = Fx.date("2026-11-22")
        // The forgotten 14:00, closed (missed) at 20:10: --slot still reaches it.
        guard case .slot(let s) = try DoseResolver.named(amox, time: Fx.time("14:00"), plan: plan, today: today) else {
            Issue.record("not a slot"); return
        }
        #expect(s.key.time == Fx.time("14:00") && s.status(at: Fx.instant("2026-11-22T20:10:00+09:00")) == .missed)
        #expect(throws: DosebarError.badData("Amoxicillin has no 09:00 dose on 2026-11-22 (its doses that day: 08:00, 14:00, 20:00)")) {
            try DoseResolver.named(amox, time: Fx.time("09:00"), plan: plan, today: today)
        }
        #expect(throws: DosebarError.self) { try DoseResolver.named(amox, time: Fx.time("08:00"), plan: plan, today: today) }
        // Through targets (also for skip); --slot without a name is a usage error.
        let t = try DoseResolver.targets(names: ["Amoxicillin"], taking: false, plan: plan, medications: [amox], at: nil,
                                         now: Fx.instant("2026-11-22T20:10:00+09:00"), next: false, slot: Fx.time("14:00"))
        if case .slot(let x)? = t.first { #expect(x.key.time == Fx.time("14:00")) } else { Issue.record("\(t)") }
        #expect(throws: DosebarError.self) {
            try DoseResolver.targets(names: [], taking: true, plan: plan, medications: [amox], at: nil,
                                     now: Fx.instant("2026-11-22T20:10:00+09:00"), next: false, slot: Fx.time("14:00"))
        }
    }
}

/// The history ledger while yesterday's last dose is still open (DESIGN §3 History): pending, and not cached.
@Suite struct PendingDayLedgerTests {
    static let yaz = Fx.med(1, "Yaz", at: ["22:00"], from: "2026-11-19", window: 5400)

    static func ledger(now: String, _ events: [DoseEvent] = []) -> HistoryLedger {
        HistoryLedger(days: Fx.date("2026-11-19")...Fx.date("2026-11-22"), medications: [yaz], events: events,
                      zone: Fx.zone("Asia/Seoul"), now: Fx.instant(now))
    }

    @Test func yesterdayWithAnOpenSlotIsPendingAndNotCached() {
        // The 19th's and 20th's 22:00 taken; the 21st's open until 20:30 on the 22nd (T′ − 90 min).
        let events = [Fx.taken(1, "2026-11-19", "22:00", at: "2026-11-19T22:00:00+09:00"),
                      Fx.taken(1, "2026-11-20", "22:00", at: "2026-11-20T22:00:00+09:00")]
        let early = Self.ledger(now: "2026-11-22T00:30:00+09:00", events)
        #expect(early.dayRecords().map(\.state) == [.done, .done, .pending, .pending])
        #expect(early.fresh.map(\.date) == [Fx.date("2026-11-19"), Fx.date("2026-11-20")], "the 21st is not settled: not cached")
        let closed = Self.ledger(now: "2026-11-22T20:30:00+09:00", events)
        #expect(closed.dayRecords().map(\.state) == [.done, .done, .missed, .pending])
        #expect(closed.fresh.map(\.date) == ["2026-11-19", "2026-11-20", "2026-11-21"].map(Fx.date))
        // Missed: how late it was when it closed, C − T = 22 h 30 min.
        #expect(closed.slots.first { $0.date == Fx.date("2026-11-21") }?.lateMinutes == 22 * 60 + 30)
        // Taken at 00:40: done, settled, taken late by 160 minutes.
        let taken = Self.ledger(now: "2026-11-22T01:00:00+09:00",
                                events + [Fx.taken(1, "2026-11-21", "22:00", at: "2026-11-22T00:40:00+09:00")])
        #expect(taken.dayRecords().map(\.state) == [.done, .done, .done, .pending])
        #expect(taken.fresh.map(\.date).last == Fx.date("2026-11-21"))
        #expect(taken.slots.first { $0.date == Fx.date("2026-11-21") }.map { "\($0.status.rawValue) \($0.lateMinutes ?? -1)" } == "taken_late 160")
    }
}
