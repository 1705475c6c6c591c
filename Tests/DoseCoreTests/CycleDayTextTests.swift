import DoseCore
import Testing

/// How a cycle's day is said (issue 46): the phase, its day and length, and what follows, in each
/// language; dates as the caller writes them (`list`: ISO days) or as the report's short dates.
@Suite struct CycleDayTextTests {
    let active = CyclePosition(phase: .active, day: 13, length: 21)
    let rest = CyclePosition(phase: .rest, day: 3, length: 7)
    let iso: (LocalDate) -> String = { $0.description }

    @Test func englishSaysWhatFollows() {
        let c = Catalog.english
        #expect(c.cycleDay(active, then: .next(phase: .rest, on: Fx.date("2026-12-11")), date: iso) == "day 13 of 21, rest from 2026-12-11")
        #expect(c.cycleDay(active, then: .next(phase: .active, on: Fx.date("2026-12-11")), date: iso)
            == "day 13 of 21, day 1 again on 2026-12-11")
        #expect(c.cycleDay(active, then: .courseEnds(on: Fx.date("2026-12-05")), date: iso) == "day 13 of 21, course ends 2026-12-05")
        #expect(c.cycleDay(rest, then: .next(phase: .active, on: Fx.date("2026-12-21")), date: iso) == "rest day 3 of 7, resumes 2026-12-21")
        #expect(c.cycleDay(rest, then: .courseEnds(on: Fx.date("2026-12-20")), date: iso) == "rest day 3 of 7, course ends 2026-12-20")
    }

    @Test func koreanSaysWhatFollows() {
        let c = Catalog.korean
        #expect(c.cycleDay(active, then: .next(phase: .rest, on: Fx.date("2026-12-11")), date: iso) == "복용 21일 중 13일째, 2026-12-11부터 휴약")
        #expect(c.cycleDay(active, then: .next(phase: .active, on: Fx.date("2026-12-11")), date: iso)
            == "복용 21일 중 13일째, 2026-12-11부터 새 주기")
        #expect(c.cycleDay(active, then: .courseEnds(on: Fx.date("2026-12-05")), date: iso) == "복용 21일 중 13일째, 2026-12-05 복용 종료")
        #expect(c.cycleDay(rest, then: .next(phase: .active, on: Fx.date("2026-12-21")), date: iso) == "휴약 7일 중 3일째, 2026-12-21에 재개")
        #expect(c.cycleDay(rest, then: .courseEnds(on: Fx.date("2026-12-20")), date: iso) == "휴약 7일 중 3일째, 2026-12-20 복용 종료")
    }

    /// Without `date:`, the report's short date: 2026-12-11 is a Friday.
    @Test func shortDateByDefault() {
        #expect(Catalog.english.shortDate(Fx.date("2026-12-11")) == "Fri 11 Dec")
        #expect(Catalog.korean.shortDate(Fx.date("2026-12-11")) == "12월 11일 (금)")
        #expect(Catalog.english.cycleDay(rest, then: .next(phase: .active, on: Fx.date("2026-12-21")))
            == "rest day 3 of 7, resumes Mon 21 Dec")
    }
}
