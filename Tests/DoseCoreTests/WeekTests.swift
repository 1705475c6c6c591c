import DoseCore
import Foundation
import Testing

/// The snapshot's `week` (DESIGN §4): the 6 days before today from their summaries and the
/// cycles' rest days, then today from the snapshot's own counts; and the strip the bars show.
@Suite struct WeekTests {
    /// A pill taken at 09:00 and 21:00, 3 days on and 1 off from Tuesday 2026-11-17:
    /// active 17, 18, 19, resting 20, active 21 and 22 (Sunday, "today"). Nothing before the 17th.
    static let pill = Fx.med(1, "Pill", .cycle(active: 3, rest: 1), at: ["09:00", "21:00"], from: "2026-11-17")
    static let today = "2026-11-22"

    /// The 6 days before today, one per past state, written as the store would have summarised them:
    /// 16th nothing scheduled (no summary), 17th both taken, 18th one taken and one missed, 19th both
    /// missed, 20th resting (a summary with no slots), 21st both skipped.
    static let history: [DaySummary] = [
        DaySummary(date: Fx.date("2026-11-17"), total: 2, taken: 2, onTime: 2, skipped: 0, missed: 0, streak: 1, best: 1),
        DaySummary(date: Fx.date("2026-11-18"), total: 2, taken: 1, onTime: 1, skipped: 0, missed: 1, streak: 0, best: 1),
        DaySummary(date: Fx.date("2026-11-19"), total: 2, taken: 0, onTime: 0, skipped: 0, missed: 2, streak: 0, best: 1),
        DaySummary(date: Fx.date("2026-11-20"), total: 0, taken: 0, onTime: 0, skipped: 0, missed: 0, streak: 0, best: 1),
        DaySummary(date: Fx.date("2026-11-21"), total: 2, taken: 0, onTime: 0, skipped: 2, missed: 0, streak: 0, best: 1),
    ]

    /// The 21st's two skips, as the history above says: the plan of the 22nd sees them, so nothing of the
    /// 21st is still open (carried) on the 22nd.
    static let skipsOf21st = [Fx.taken(1, "2026-11-21", "09:00", at: "2026-11-21T09:00:00+09:00", kind: .skipped),
                              Fx.taken(1, "2026-11-21", "21:00", at: "2026-11-21T21:00:00+09:00", kind: .skipped)]

    func snapshot(at iso: String, events: [DoseEvent] = [], meds: [Medication] = [pill], day: String = today,
                  history: [DaySummary] = history, tz: String = "Asia/Seoul",
                  catalog: Catalog = .english, icons: IconSet = .emoji) -> Snapshot {
        let plan = Fx.plan(day, meds, events + (day == Self.today ? Self.skipsOf21st : []), tz: tz)
        let builder = SnapshotBuilder(plan: plan, history: History(today: plan.date, recent: history), medications: meds,
                                      catalog: catalog, icons: icons)
        return builder.snapshot(at: Fx.instant(iso), validUntil: plan.dayEnd)
    }

    func days(_ from: String, count: Int = 7) -> [String] {
        (0..<count).map { Fx.date(from).adding(days: $0).description }
    }

    @Test func everyPastStateFromTheSummariesAndTheCycle() {
        let s = snapshot(at: "2026-11-22T08:00:00+09:00")
        #expect(s.week.map(\.day.description) == days("2026-11-16"))
        #expect(s.week.map(\.state) == [.none, .done, .partial, .missed, .rest, .skipped, .pending])
    }

    @Test func todayIsPendingUntilComplete() {
        let morning = Fx.taken(1, Self.today, "09:00", at: "2026-11-22T09:05:00+09:00")
        let evening = Fx.taken(1, Self.today, "21:00", at: "2026-11-22T21:05:00+09:00")
        let eveningSkipped = Fx.taken(1, Self.today, "21:00", at: "2026-11-22T21:05:00+09:00", kind: .skipped)
        let morningSkipped = Fx.taken(1, Self.today, "09:00", at: "2026-11-22T09:05:00+09:00", kind: .skipped)
        func todayState(_ at: String, _ events: [DoseEvent]) -> HistoryState? { snapshot(at: at, events: events).week.last?.state }

        #expect(todayState("2026-11-22T08:00:00+09:00", []) == .pending)
        #expect(todayState("2026-11-22T12:00:00+09:00", [morning, evening]) == .pending, "one of two taken")
        #expect(todayState("2026-11-22T21:10:00+09:00", [morning, evening]) == .done)
        #expect(todayState("2026-11-22T21:10:00+09:00", [morning, eveningSkipped]) == .done, "taken and skipped is complete")
        #expect(todayState("2026-11-22T21:10:00+09:00", [morningSkipped, eveningSkipped]) == .pending,
                "all skipped is not complete: no dose taken")
        #expect(todayState("2026-11-22T23:59:00+09:00", []) == .pending, "late, not yet missed: the day has not ended")
        // The past days are the same at every instant of the day.
        #expect(snapshot(at: "2026-11-22T00:00:00+09:00").week.dropLast()
                == snapshot(at: "2026-11-22T23:59:00+09:00", events: [morning, evening]).week.dropLast())
    }

    @Test func todayWithoutSlots() {
        // The 20th is the cycle's rest day; the 16th is before the pill's first day.
        #expect(snapshot(at: "2026-11-20T12:00:00+09:00", day: "2026-11-20", history: []).week.last?.state == .rest)
        #expect(snapshot(at: "2026-11-16T12:00:00+09:00", day: "2026-11-16", history: []).week.last?.state == HistoryState.none)
        #expect(snapshot(at: "2026-11-22T12:00:00+09:00", meds: []).week.last?.state == HistoryState.none)
    }

    @Test func aMedicineArchivedSinceStillRestedBefore() {
        var archived = Self.pill
        archived.archivedOn = Fx.date("2026-11-21")
        let s = snapshot(at: "2026-11-22T08:00:00+09:00", meds: [archived])
        #expect(s.week.first { $0.day == Fx.date("2026-11-20") }?.state == .rest)
        #expect(s.week.last?.state == HistoryState.none, "archived: no slots today, and no cycle either")
    }

    /// The past days agree with `history`'s calendar of the same days judged from the events
    /// (HistoryLedger), when the summaries are the store's, computed from those events.
    @Test func pastDaysAgreeWithTheHistoryLedger() {
        let zone = Fx.zone("Asia/Seoul")
        let events = [
            Fx.taken(1, "2026-11-17", "09:00", at: "2026-11-17T09:00:00+09:00"),
            Fx.taken(1, "2026-11-17", "21:00", at: "2026-11-17T23:00:00+09:00"),
            Fx.taken(1, "2026-11-18", "21:00", at: "2026-11-18T21:30:00+09:00"),
            Fx.taken(1, "2026-11-21", "09:00", at: "2026-11-21T09:00:00+09:00", kind: .skipped),
            Fx.taken(1, "2026-11-21", "21:00", at: "2026-11-21T21:00:00+09:00", kind: .skipped),
        ]
        let range = Fx.date("2026-11-10")...Fx.date("2026-11-21")
        let summaries = History.summaries(of: range, medications: [Self.pill], events: events, zone: zone, after: nil)
        let now = Fx.instant("2026-11-22T10:00:00+09:00")
        let s = snapshot(at: "2026-11-22T10:00:00+09:00", history: summaries)
        let ledger = HistoryLedger(days: Fx.date("2026-11-16")...Fx.date(Self.today), medications: [Self.pill],
                                   events: events, zone: zone, now: now)
        #expect(s.week.map(\.day) == ledger.dayRecords().map(\.day))
        #expect(s.week.map(\.state) == ledger.dayRecords().map(\.state))
    }

    /// At midnight the strip moves on by one day; yesterday stays pending while its evening dose is
    /// open (DESIGN §3 History), then takes its final state at that dose's cut-off.
    @Test func theStripShiftsAtMidnight() {
        let zone = Fx.zone("Asia/Seoul")
        let morning = Fx.taken(1, Self.today, "09:00", at: "2026-11-22T09:05:00+09:00")
        let before = snapshot(at: "2026-11-22T23:59:59+09:00", events: [morning])
        #expect(before.week.map(\.day.description) == days("2026-11-16"))
        #expect(before.week.last?.state == .pending)

        // The store summarises the 22nd once it has ended; the 23rd is the pill's third active day.
        let last = Self.history.last
        let summary = Fx.plan(Self.today, [Self.pill], [morning]).summary(after: last)
        // The plan of the 23rd sees the 22nd's events (its 21:00 dose may still be open).
        let next = Fx.plan("2026-11-23", [Self.pill], [morning])
        let builder = SnapshotBuilder(plan: next, history: History(today: next.date, recent: Self.history + [summary]),
                                      medications: [Self.pill])
        let after = builder.snapshot(at: zone.startOfDay(next.date), validUntil: next.dayEnd)
        #expect(after.week.map(\.day.description) == days("2026-11-17"))
        #expect(Array(after.week.dropLast().dropLast()) == Array(before.week.dropFirst().dropLast()))
        // The 22nd's 21:00 closes at max(23:00, min(09:00 on the 23rd − 2 h, 21:00 + 24 h)) = 07:00 on the 23rd.
        #expect(after.week.dropLast().last?.state == .pending, "its 21:00 dose is still open at midnight")
        #expect(builder.snapshot(at: Fx.instant("2026-11-23T06:59:59+09:00"), validUntil: next.dayEnd).week.dropLast().last?.state
                == .pending)
        let closed = builder.snapshot(at: Fx.instant("2026-11-23T07:00:00+09:00"), validUntil: next.dayEnd)
        #expect(closed.week.dropLast().last?.state == .partial, "one taken, one missed once its cut-off passed")
        #expect(after.week.last?.state == .pending)
    }

    /// Days are counted in local dates: around both DST changes of New York (and in Seoul, which
    /// has none) every entry of the day's timeline has the 6 days before the local day, then it.
    @Test(arguments: [
        ("America/New_York", "2026-03-08T00:30:00-05:00", "2026-03-02"),
        ("America/New_York", "2026-03-08T23:30:00-04:00", "2026-03-02"),
        ("America/New_York", "2026-03-09T00:00:00-04:00", "2026-03-03"),
        ("America/New_York", "2026-03-07T23:59:00-05:00", "2026-03-01"),
        ("America/New_York", "2026-11-01T01:30:00-04:00", "2026-10-26"),
        ("America/New_York", "2026-11-01T01:30:00-05:00", "2026-10-26"),
        ("America/New_York", "2026-11-01T23:59:00-05:00", "2026-10-26"),
        ("America/New_York", "2026-11-02T00:00:00-05:00", "2026-10-27"),
        ("Asia/Seoul", "2026-03-08T15:30:00+09:00", "2026-03-02"),
        ("Asia/Seoul", "2026-03-09T00:00:00+09:00", "2026-03-03"),
        ("Asia/Seoul", "2026-11-01T14:30:00+09:00", "2026-10-26"),
        ("Asia/Seoul", "2026-11-01T23:59:00+09:00", "2026-10-26"),
    ])
    func daysAreLocalDatesAcrossDST(tz: String, iso: String, first: String) {
        let zone = Fx.zone(tz)
        let day = zone.date(of: Fx.instant(iso))
        // A 2/1 cycle from 2026-02-01 rests every third day: rest days fall on local dates, DST or not.
        let pill = Fx.med(1, "Pill", .cycle(active: 2, rest: 1), at: ["02:30", "22:00"], from: "2026-02-01")
        let plan = Fx.plan(day.description, [pill], [], tz: tz)
        let builder = SnapshotBuilder(plan: plan, history: History(today: day, recent: []), medications: [pill])
        let restDays = days(first).filter { (Fx.date($0) - Fx.date("2026-02-01")) % 3 == 2 }
        let entries = TimelineProvider(builder: builder).timeline(generatedAt: Fx.instant(iso)).entries
        #expect(entries.count >= 23)
        let weekDays = Set(entries.map { $0.week.map(\.day.description) })
        #expect(weekDays == [days(first)])
        let resting = Set(entries.map { $0.week.dropLast().filter { $0.state == .rest }.map(\.day.description) })
        #expect(resting == [restDays.filter { $0 != day.description }])
    }

    @Test func theStripInBothLanguagesAndEverySet() {
        let s = snapshot(at: "2026-11-22T08:00:00+09:00")
        #expect(WeekStrip.line(s.week, catalog: .english, icons: .emoji) == "Week: · ✓ ◐ ✗ ☾ ⊘ ○")
        #expect(WeekStrip.line(s.week, catalog: .korean, icons: .ascii) == "최근 7일: - D P M R S ?")
        for set in IconSet.all {
            #expect(Set(HistoryState.allCases.map { set[day: $0] }).count == HistoryState.allCases.count,
                    "\(set.name): one symbol per state")
        }
        #expect(HistoryState.allCases.allSatisfy { IconSet.ascii[day: $0].allSatisfy(\.isASCII) })
        #expect([HistoryState.done, .partial, .missed, .skipped, .rest].allSatisfy { IconSet.ascii[day: $0].allSatisfy(\.isLetter) },
                "ASCII: a letter per outcome")
    }

    /// The tooltip ends with the strip, in the builder's words and icons.
    @Test func theTooltipShowsTheStrip() {
        let en = snapshot(at: "2026-11-22T08:00:00+09:00")
        #expect(en.tooltip.split(separator: "\n").last.map(String.init) == WeekStrip.line(en.week, catalog: .english, icons: .emoji))
        let ko = snapshot(at: "2026-11-22T08:00:00+09:00", catalog: .korean, icons: .ascii)
        #expect(ko.tooltip.hasSuffix("\n최근 7일: - D P M R S ?"))
    }
}
