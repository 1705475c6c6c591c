import DoseCore
import Foundation
import Testing

@Suite struct SnapshotTests {
    let aspirin = Fx.med(1, "Aspirin", at: ["08:00"])
    let magnesium = Fx.med(2, "Magnesium", at: ["21:00"], stock: 5)
    var meds: [Medication] { [aspirin, magnesium] }

    /// The snapshot of `day` at `at`. These scenarios give the days before only as summaries (`history`):
    /// the plan is made without carried slots (`carry: false`), as when every slot of yesterday was
    /// settled before midnight, so the day's own rules are what is tested. Carried slots: ``CarriedSlotTests``.
    func snap(_ at: String, events: [DoseEvent] = [], history: [DaySummary] = [], catalog: Catalog = .english,
              meds: [Medication]? = nil, day: String = "2026-11-22") -> Snapshot {
        let m = meds ?? self.meds
        let plan = Fx.plan(day, m, events, carry: false)
        return Fx.builder(plan, history: history, catalog: catalog, meds: m).snapshot(at: Fx.instant(at), validUntil: plan.dayEnd)
    }

    @Test func statesInOrder() {
        #expect(snap("2026-11-22T07:00:00+09:00").state == .upcoming)
        #expect(snap("2026-11-22T08:30:00+09:00").state == .due)
        #expect(snap("2026-11-22T10:30:00+09:00").state == .late)
        let both = [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:10:00+09:00"),
                    Fx.taken(2, "2026-11-22", "21:00", at: "2026-11-22T21:05:00+09:00")]
        #expect(snap("2026-11-22T22:00:00+09:00", events: both).state == .done)
        #expect(snap("2026-11-22T12:00:00+09:00", meds: []).state == .empty)
        #expect(snap("2026-11-22T12:00:00+09:00", meds: [Fx.med(3, "W", .weekdays([.monday]))]).state == .none)
        let pill = Fx.med(4, "Pill", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-11-01")
        #expect(snap("2026-11-22T12:00:00+09:00", meds: [pill]).state == .rest)
    }

    @Test func countsDosesAndProgress() {
        let s = snap("2026-11-22T10:30:00+09:00", events: [Fx.taken(2, "2026-11-22", "21:00", at: "2026-11-22T10:00:00+09:00")])
        #expect(s.counts.total == 2)
        #expect(s.counts.late == 1)
        #expect(s.counts.taken == 1)
        #expect(s.progress == 50)
        #expect(s.doses.map(\.status) == [.late, .takenEarly])
        #expect(s.doses[0].lateMinutes == 150)
        #expect(s.doses[0].scheduled.iso8601 == "2026-11-22T08:00:00+09:00")
        #expect(s.doses[1].takenAt?.iso8601 == "2026-11-22T10:00:00+09:00")
        #expect(s.message.id == MessageID.late2h)
        #expect(s.message.text.contains("Aspirin"))
        #expect(s.text.contains("1/2"))
    }

    @Test func lateGrading() {
        #expect(snap("2026-11-22T12:30:00+09:00").message.id == MessageID.late4h)
        #expect(snap("2026-11-22T12:30:00+09:00").message.severity == .critical)
        let tight = Fx.med(1, "Aspirin", at: ["08:00"], window: 1800)
        #expect(snap("2026-11-22T08:45:00+09:00", meds: [tight]).message.id == MessageID.late)
    }

    @Test func nextUpAndDue() {
        let s = snap("2026-11-22T12:00:00+09:00", events: [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:05:00+09:00")])
        #expect(s.next?.medication == "Magnesium")
        #expect(s.next?.scheduled.clock == "21:00")
        // Magnesium's low stock outranks next_up (DESIGN's order); both are in the tooltip list.
        #expect(s.message.id == MessageID.lowStock)
        #expect(s.messages.map(\.id) == [MessageID.lowStock, MessageID.nextUp])
        #expect(snap("2026-11-22T08:00:00+09:00").message.id == MessageID.dueNow)
    }

    @Test func streakExtendsOnlyWhenTodayIsComplete() {
        let yesterday = DaySummary(date: Fx.date("2026-11-21"), total: 2, taken: 2, onTime: 2, skipped: 0, missed: 0, streak: 6, best: 10)
        let pending = snap("2026-11-22T12:00:00+09:00", history: [yesterday])
        #expect(pending.streak == Snapshot.Streak(current: 6, best: 10, today: .pending))
        let both = [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:10:00+09:00"),
                    Fx.taken(2, "2026-11-22", "21:00", at: "2026-11-22T21:05:00+09:00")]
        let done = snap("2026-11-22T22:00:00+09:00", events: both, history: [yesterday])
        #expect(done.streak == Snapshot.Streak(current: 7, best: 10, today: .done))
        #expect(done.messages.map(\.id) == [MessageID.lowStock, MessageID.allDoneMilestone])
    }

    @Test func streakChainNeutralDaysAndBreaks() {
        let m = [aspirin]
        var prev: DaySummary?
        var out: [DaySummary] = []
        // Day 1 taken, day 2 skipped (neutral), day 3 taken, day 4 missed, day 5 taken.
        let plans: [(String, [DoseEvent])] = [
            ("2026-11-01", [Fx.taken(1, "2026-11-01", "08:00", at: "2026-11-01T08:00:00+09:00")]),
            ("2026-11-02", [Fx.taken(1, "2026-11-02", "08:00", at: "2026-11-02T08:00:00+09:00", kind: .skipped)]),
            ("2026-11-03", [Fx.taken(1, "2026-11-03", "08:00", at: "2026-11-03T11:00:00+09:00")]),
            ("2026-11-04", []),
            ("2026-11-05", [Fx.taken(1, "2026-11-05", "08:00", at: "2026-11-05T08:00:00+09:00")]),
        ]
        for (day, events) in plans {
            let s = Fx.plan(day, m, events).summary(after: prev)
            out.append(s); prev = s
        }
        #expect(out.map(\.streak) == [1, 1, 2, 0, 1])
        #expect(out.map(\.best) == [1, 1, 2, 2, 2])
        #expect(out[2].troubled == ["1@08:00"])
        #expect(out[3].troubled == ["1@08:00"])
        #expect(out.map(\.isNeutral) == [false, true, false, false, false])
    }

    /// DESIGN §3 Adherence: days7 = today and the 6 days before, days30 = today and the 29 before,
    /// over slots whose outcome is known; on_time = `taken` among taken slots over the 30 days.
    /// Every day of the history is different around the window edges (6/7 and 29/30 days back), and
    /// there are days beyond 30, so a swapped, shortened or lengthened window gives other numbers.
    @Test func adherenceWindowsAreSevenAndThirtyDaysEndingToday() {
        func day(_ back: Int, taken: Int, onTime: Int, skipped: Int = 0, missed: Int) -> DaySummary {
            DaySummary(date: Fx.date("2026-11-22").adding(days: -back), total: taken + skipped + missed,
                       taken: taken, onTime: onTime, skipped: skipped, missed: missed)
        }
        var history: [DaySummary] = []
        for back in 1...6 { history.append(day(back, taken: 1, onTime: 1, missed: 1)) }    // 1–6:   6 taken / 12 known, 6 on time
        history.append(day(7, taken: 0, onTime: 0, missed: 2))                             // 7:     0 / 2
        for back in 8...28 { history.append(day(back, taken: 2, onTime: 1, missed: 0)) }   // 8–28: 42 / 42, 21 on time
        history.append(day(29, taken: 0, onTime: 0, skipped: 2, missed: 0))                // 29:    0 / 2 (skipped is known)
        history.append(day(30, taken: 2, onTime: 2, missed: 0))                            // 30:   outside every window
        for back in 31...35 { history.append(day(back, taken: 0, onTime: 0, missed: 2)) } // 31–35: outside too

        // 12:00, Aspirin (08:00) taken on time today, Magnesium (21:00) still upcoming (unknown).
        let today = [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:10:00+09:00")]
        let noon = snap("2026-11-22T12:00:00+09:00", events: today, history: history).adherence
        // days7  = (1 today + 6) / (1 + 12)                 = 7/13  = 53.8 % → 54
        //          (with day 7 it would be 7/15 → 47; without day 6, 6/11 → 55)
        #expect(noon.days7 == 54)
        // days30 = (1 + 6 + 0 + 42 + 0) / (1 + 12 + 2 + 42 + 2) = 49/59 = 83.1 % → 83
        //          (with day 30 it would be 51/61 → 84; without day 29, 49/57 → 86; days7's window: 54)
        #expect(noon.days30 == 83)
        // on_time = (1 + 6 + 0 + 21 + 0) / 49 taken over 30 days = 28/49 = 57.1 % → 57
        //          (over 7 days it would be 7/7 → 100; with day 30, 30/51 → 59)
        #expect(noon.onTime == 57)

        // 07:00, nothing known today yet: days7 = 6/12 = 50; days30 = 48/58 = 82.8 → 83; on_time = 27/48 = 56.25 → 56.
        let morning = snap("2026-11-22T07:00:00+09:00", history: history).adherence
        #expect(morning == Snapshot.Adherence(days7: 50, days30: 83, onTime: 56))

        // Only days older than 30: nothing known in either window.
        let old = snap("2026-11-22T07:00:00+09:00", history: Array(history.suffix(5))).adherence
        #expect(old == Snapshot.Adherence(days7: nil, days30: nil, onTime: nil))
        #expect(snap("2026-11-22T07:00:00+09:00").adherence.days7 == nil)
    }

    @Test func stockDaysLeftAndLow() {
        let s = snap("2026-11-22T07:00:00+09:00")
        #expect(s.stock.count == 1)
        #expect(s.stock[0] == Snapshot.Stock(medication: "Magnesium", remaining: 5, daysLeft: 5, low: true))
        #expect(s.messages.contains { $0.id == MessageID.lowStock })
    }

    @Test func restDayMessageSaysWhenItResumes() {
        let pill = Fx.med(4, "Pill", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-11-01")
        // 2026-11-24 is rest day 3 of 7; active again on 2026-11-29, a Sunday.
        let s = snap("2026-11-24T12:00:00+09:00", meds: [pill], day: "2026-11-24")
        #expect(s.cycle == [Snapshot.Cycle(medication: "Pill", phase: .rest, day: 3, length: 7, next: Fx.date("2026-11-29"),
                                           text: "Pill: rest day 3 of 7, resumes Sun 29 Nov")])
        #expect(s.message.id == MessageID.restDay)
        #expect(s.message.text == "Pill: rest day 3 of 7, resumes Sunday")
        let ko = snap("2026-11-24T12:00:00+09:00", catalog: .korean, meds: [pill], day: "2026-11-24")
        #expect(ko.message.text == "Pill: 휴약 7일 중 3일째, 일요일에 재개")
    }

    /// Issue 46: the tooltip names a cycle's day on an active day too; a rest day's is its `rest_day` message, once.
    @Test func tooltipSaysTheCycleDayEveryDay() throws {
        let pill = Fx.med(4, "Pill", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-11-01")
        // 2026-11-13 is active day 13 of 21; the rest starts on 2026-11-22, a Sunday.
        let active = snap("2026-11-13T12:00:00+09:00", meds: [pill], day: "2026-11-13")
        #expect(active.cycle.map(\.next) == [Fx.date("2026-11-22")])
        let lines = active.tooltip.components(separatedBy: "\n")
        #expect(lines.contains("Pill: day 13 of 21, rest from Sun 22 Nov"), "\(active.tooltip)")
        let line = try #require(lines.firstIndex(of: "Pill: day 13 of 21, rest from Sun 22 Nov")), gap = try #require(lines.firstIndex(of: ""))
        #expect(line < gap, "with the doses, above the messages")
        let ko = snap("2026-11-13T12:00:00+09:00", catalog: .korean, meds: [pill], day: "2026-11-13")
        #expect(ko.tooltip.contains("Pill: 복용 21일 중 13일째, 11월 22일 (일)부터 휴약"), "\(ko.tooltip)")
        let rest = snap("2026-11-24T12:00:00+09:00", meds: [pill], day: "2026-11-24")
        #expect(rest.tooltip.components(separatedBy: "rest day 3 of 7").count == 2, "said once: \(rest.tooltip)")
    }

    @Test func patternRuleSuggestsMovingAnOftenLateDose() {
        let history = (1...3).map { i in
            DaySummary(date: Fx.date("2026-11-22").adding(days: -i), total: 1, taken: 1, onTime: 0, skipped: 0, missed: 0,
                       troubled: ["1@08:00"])
        }
        let s = snap("2026-11-22T07:00:00+09:00", history: history)
        #expect(s.messages.contains { $0.id == MessageID.moveSuggestion && $0.text.contains("Aspirin") })
    }

    @Test func missedYesterday() {
        let y = DaySummary(date: Fx.date("2026-11-21"), total: 2, taken: 1, onTime: 1, skipped: 0, missed: 1)
        let s = snap("2026-11-22T07:00:00+09:00", history: [y])
        #expect(s.messages.contains { $0.id == MessageID.missedYesterday })
        #expect(s.streak.current == 0)
    }

    @Test func asNeededCountsAndNextAllowed() {
        let ibu = Fx.med(7, "Ibuprofen", .asNeeded(maxPerDay: 2, minInterval: 6 * 3600), at: [])
        let e = Fx.taken(7, "2026-11-22", nil, at: "2026-11-22T09:00:00+09:00")
        let s = snap("2026-11-22T10:00:00+09:00", events: [e], meds: [ibu])
        #expect(s.asNeeded.count == 1)
        #expect(s.asNeeded[0].takenToday == 1)
        #expect(s.asNeeded[0].nextAllowed?.iso8601 == "2026-11-22T15:00:00+09:00")
        #expect(s.counts.total == 0)
    }

    @Test func everyMessageIdIsTranslated() {
        for catalog in Catalog.all {
            for id in MessageID.all { #expect(catalog.templates[id] != nil, "\(catalog.language) lacks \(id)") }
            for s in SlotStatus.allCases { #expect(catalog.templates["status." + s.rawValue] != nil) }
        }
        #expect(Catalog.forLanguage("ko_KR.UTF-8").language == "ko")
        #expect(Catalog.forLanguage("C").language == "en")
    }

    @Test func koreanMessages() {
        let s = snap("2026-11-22T12:30:00+09:00", catalog: .korean)
        #expect(s.message.id == MessageID.late4h)
        #expect(s.message.text == "Aspirin 복용이 4시간 30분 늦었습니다: 지금 복용하거나 건너뛰세요")
    }
}

@Suite struct TimelineTests {
    @Test func entriesCoverEveryHourAndTransition() {
        let m = Fx.med(1, "Aspirin", at: ["08:30"])
        // Yesterday's 08:30 taken on time: nothing of yesterday is open today (its cut-off would add an entry).
        let plan = Fx.plan("2026-11-22", [m], [Fx.taken(1, "2026-11-21", "08:30", at: "2026-11-21T08:35:00+09:00")])
        let tl = TimelineProvider(builder: Fx.builder(plan, meds: [m])).timeline(generatedAt: Fx.instant("2026-11-22T07:00:00+09:00"))
        let clocks = tl.entries.map(\.at.clock)
        // 24 hours + 08:30 (T), 10:30 (T+W and T+2h), 12:30 (T+4h); the end of day is the reload.
        #expect(tl.entries.count == 24 + 3)
        for t in ["00:00", "08:00", "08:30", "10:30", "12:30", "23:00"] { #expect(clocks.contains(t)) }
        #expect(tl.reloadAt.iso8601 == "2026-11-23T00:00:00+09:00")
        #expect(zip(tl.entries, tl.entries.dropFirst()).allSatisfy { $0.validUntil == $1.at })
        #expect(tl.entries.last?.validUntil == tl.reloadAt)
        #expect(tl.entry(at: Fx.instant("2026-11-22T08:45:00+09:00"))?.state == .due)
        #expect(tl.entry(at: Fx.instant("2026-11-22T10:30:00+09:00"))?.state == .late)
    }

    @Test(arguments: ["2026-03-08", "2026-11-01"])
    func dstDaysInNewYork(day: String) {
        let m = Fx.med(1, "Aspirin", at: ["02:30", "08:00"])
        let plan = Fx.plan(day, [m], tz: "America/New_York")
        let provider = TimelineProvider(builder: Fx.builder(plan, meds: [m]))
        let tl = provider.timeline(generatedAt: plan.dayStart)
        let hours = day == "2026-03-08" ? 23 : 25
        #expect(tl.entries.filter { $0.at.clock.hasSuffix(":00") }.count >= hours)
        // Every entry equals a fresh snapshot at its instant, complete only for the one in force at
        // generation (the others are written without tooltip and later messages).
        for (i, e) in tl.entries.enumerated() {
            #expect(provider.builder.snapshot(at: e.at.date, validUntil: e.validUntil.date, complete: i == 0) == e)
        }
        #expect(!tl.entries[0].tooltip.isEmpty && tl.entries.dropFirst().allSatisfy { $0.tooltip.isEmpty && $0.messages.count == 1 })
        #expect(Set(tl.entries.map(\.at.date)).count == tl.entries.count)
    }
}
