import DoseCore
import Foundation
import Testing

/// What the bar says at a glance (DESIGN §3 Messages): yesterday's missed doses by name and time with
/// the advice not to double today's, and a medicine running low on the bar line itself.
@Suite struct MissedYesterdayTests {
    /// Metformin 08:00/20:00 and Warfarin 18:00. Yesterday's Metformin 08:00 closed at 18:00 yesterday
    /// (its next slot at 20:00 less the window): history before midnight. Warfarin's 18:00 is carried
    /// into today until 16:00 (today's 18:00 less the window), then missed.
    static let metformin = Fx.med(1, "Metformin", at: ["08:00", "20:00"], from: "2026-11-01")
    static let warfarin = Fx.med(2, "Warfarin", at: ["18:00"], from: "2026-11-01")
    static let meds = [metformin, warfarin]
    static let yesterday = [Fx.taken(1, "2026-11-21", "20:00", at: "2026-11-21T20:05:00+09:00")]

    static func at(_ iso: String, _ events: [DoseEvent] = [], catalog: Catalog = .english) -> Snapshot {
        let all = yesterday + events
        let plan = Fx.plan("2026-11-22", meds, all)
        let history = History.summaries(of: Fx.date("2026-11-15")...Fx.date("2026-11-21"), medications: meds,
                                        events: all, zone: Fx.zone("Asia/Seoul"), after: nil)
        return Fx.builder(plan, history: history, catalog: catalog, meds: meds).snapshot(at: Fx.instant(iso), validUntil: plan.dayEnd)
    }

    static func missed(_ s: Snapshot) -> RenderedMessage? { s.messages.first { $0.id == MessageID.missedYesterday } }

    @Test("a dose of yesterday closed before midnight is named with its time, with the advice not to double today's")
    func namesTheClosedDose() throws {
        let s = Self.at("2026-11-22T07:00:00+09:00")
        let m = try #require(Self.missed(s))
        #expect(m.text == "Yesterday: Metformin 08:00 missed — don't double today's dose")
        #expect(m.severity == .warning)
        // Warfarin's 18:00 is still open (carried, late): not missed yet.
        #expect(!m.text.contains("Warfarin"))
        let ko = try #require(Self.missed(Self.at("2026-11-22T07:00:00+09:00", catalog: .korean)))
        #expect(ko.text == "어제 Metformin 08:00 복용 누락 — 오늘 두 배로 드시지 마세요")
    }

    @Test("a carried dose that closes during the day joins the list: by name, then time")
    func carriedDoseJoinsOnceClosed() throws {
        let today = [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:05:00+09:00")]
        let open = try #require(Self.missed(Self.at("2026-11-22T15:59:00+09:00", today)))
        #expect(open.text == "Yesterday: Metformin 08:00 missed — don't double today's dose")
        let closed = try #require(Self.missed(Self.at("2026-11-22T16:00:00+09:00", today)))
        #expect(closed.text == "Yesterday: Metformin 08:00, Warfarin 18:00 missed — don't double today's dose")
        #expect(Self.at("2026-11-22T16:00:00+09:00", today).message.id == MessageID.missedYesterday)
    }

    @Test("a dose of yesterday taken or skipped, even after it closed, is not named")
    func resolvedDosesAreNotNamed() {
        let settled = [Fx.taken(1, "2026-11-21", "08:00", at: "2026-11-21T08:10:00+09:00"),
                       Fx.taken(2, "2026-11-21", "18:00", at: "2026-11-21T18:10:00+09:00")]
        #expect(Self.missed(Self.at("2026-11-22T07:00:00+09:00", settled)) == nil)
        // Skipped this morning, after it closed as missed: from that instant on it is not named.
        let skip = Fx.taken(1, "2026-11-21", "08:00", at: "2026-11-22T07:30:00+09:00", kind: .skipped)
        #expect(Self.missed(Self.at("2026-11-22T07:29:00+09:00", [skip])) != nil)
        #expect(Self.missed(Self.at("2026-11-22T07:30:00+09:00", [skip])) == nil)
    }

    @Test("without yesterday's slots in the plan, the summary's count is said in words")
    func countOnlyFromTheSummary() throws {
        let one = DaySummary(date: Fx.date("2026-11-21"), total: 2, taken: 1, onTime: 1, skipped: 0, missed: 1)
        let plan = Fx.plan("2026-11-22", Self.meds, carry: false)
        func text(_ y: DaySummary, _ catalog: Catalog = .english) -> String? {
            Self.missed(Fx.builder(plan, history: [y], catalog: catalog, meds: Self.meds)
                .snapshot(at: Fx.instant("2026-11-22T07:00:00+09:00"), validUntil: plan.dayEnd))?.text
        }
        #expect(text(one) == "Yesterday: 1 dose missed — don't double today's dose")
        var two = one
        two.missed = 2
        #expect(text(two) == "Yesterday: 2 doses missed — don't double today's dose")
        #expect(text(two, .korean) == "어제 2회분 복용 누락 — 오늘 두 배로 드시지 마세요")
    }

    @Test("the message is data: the doses as medicine and time, rendered by each catalog")
    func dosesAreData() {
        let m = Message(MessageID.missedYesterday, .warning,
                        ["count": .number(2), "doses": .doses([.init(name: "Metformin", time: "20:00"), .init(name: "Warfarin", time: "18:00")])])
        #expect(Catalog.english.render(m).text == "Yesterday: Metformin 20:00, Warfarin 18:00 missed — don't double today's dose")
        #expect(Catalog.korean.render(m).text == "어제 Metformin 20:00, Warfarin 18:00 복용 누락 — 오늘 두 배로 드시지 마세요")
    }
}

@Suite struct LowStockOnTheBarTests {
    static let aspirin = Fx.med(1, "Aspirin", at: ["08:00"])
    /// 5 left at one a day: 5 days, low (≤ 7).
    static let magnesium = Fx.med(2, "Magnesium", at: ["21:00"], stock: 5)

    static func at(_ iso: String, events: [DoseEvent] = [], meds: [Medication]? = nil, catalog: Catalog = .english) -> Snapshot {
        let m = meds ?? [aspirin, magnesium]
        let plan = Fx.plan("2026-11-22", m, events, carry: false)
        return Fx.builder(plan, catalog: catalog, meds: m).snapshot(at: Fx.instant(iso), validUntil: plan.dayEnd)
    }

    static let aspirinTaken = [Fx.taken(1, "2026-11-22", "08:00", at: "2026-11-22T08:05:00+09:00")]

    @Test("upcoming: the next dose, then the medicine running low")
    func upcomingShowsLowStock() {
        let s = Self.at("2026-11-22T12:00:00+09:00", events: Self.aspirinTaken)
        #expect(s.state == .upcoming)
        #expect(s.text.hasSuffix("1/2 · Magnesium 21:00 · Magnesium low (5 days)"), "\(s.text)")
        let ko = Self.at("2026-11-22T12:00:00+09:00", events: Self.aspirinTaken, catalog: .korean)
        #expect(ko.text.hasSuffix("1/2 · Magnesium 21:00 · Magnesium 부족 (5일분)"), "\(ko.text)")
    }

    @Test("a due or late dose keeps the line")
    func dueAndLateKeepTheLine() {
        let due = Self.at("2026-11-22T08:30:00+09:00")
        #expect(due.state == .due && !due.text.contains("low"), "\(due.text)")
        let late = Self.at("2026-11-22T10:30:00+09:00")
        #expect(late.state == .late && !late.text.contains("low"), "\(late.text)")
    }

    @Test("done, missed and nothing today show it too")
    func otherStatesShowIt() {
        let both = Self.aspirinTaken + [Fx.taken(2, "2026-11-22", "21:00", at: "2026-11-22T21:05:00+09:00")]
        let done = Self.at("2026-11-22T22:00:00+09:00", events: both)
        #expect(done.state == .done && done.text.hasSuffix(" · Magnesium low (5 days)"), "\(done.text)")
        // Aspirin 08:00 closes at 10:00 (its 12:00 less the window) untaken; the rest taken: missed.
        let twice = Fx.med(1, "Aspirin", at: ["08:00", "12:00"])
        let missed = Self.at("2026-11-22T22:00:00+09:00", events: [
            Fx.taken(1, "2026-11-22", "12:00", at: "2026-11-22T12:05:00+09:00"),
            Fx.taken(2, "2026-11-22", "21:00", at: "2026-11-22T21:05:00+09:00")], meds: [twice, Self.magnesium])
        #expect(missed.state == .missed && missed.text.hasSuffix("2/3 · missed · Magnesium low (5 days)"), "\(missed.text)")
        let weekly = Fx.med(3, "Weekly", .weekdays([.monday]), stock: Amount(hundredths: 50))
        let none = Self.at("2026-11-22T12:00:00+09:00", meds: [weekly])
        #expect(none.state == .none && none.text.hasSuffix("nothing today · Weekly low (3 days)"), "\(none.text)")
    }

    @Test("an empty stock says out; a stock no schedule counts in days says low")
    func outAndNoDays() {
        let empty = Fx.med(2, "Magnesium", at: ["21:00"], stock: 0)
        let s = Self.at("2026-11-22T12:00:00+09:00", events: Self.aspirinTaken, meds: [Self.aspirin, empty])
        #expect(s.text.hasSuffix("Magnesium 21:00 · Magnesium out"), "\(s.text)")
        var ibu = Fx.med(3, "Ibuprofen", .asNeeded(maxPerDay: nil, minInterval: nil), at: [], stock: Amount(hundredths: 50))
        ibu.perDose = 1
        let a = Self.at("2026-11-22T12:00:00+09:00", events: Self.aspirinTaken, meds: [Self.aspirin, ibu])
        #expect(a.text.hasSuffix(" · Ibuprofen low"), "\(a.text)")
    }

    @Test("only the most urgent of several is on the line; every one is in the tooltip")
    func mostUrgentFirst() {
        let warfarin = Fx.med(3, "Warfarin", at: ["18:00"], stock: 3)
        let s = Self.at("2026-11-22T12:00:00+09:00", events: Self.aspirinTaken, meds: [Self.aspirin, Self.magnesium, warfarin])
        #expect(s.text.hasSuffix("1/3 · Warfarin 18:00 · Warfarin low (3 days)"), "\(s.text)")
        #expect(!s.text.contains("Magnesium low"))
        #expect(s.tooltip.contains("Magnesium: 5 days left") && s.tooltip.contains("Warfarin: 3 days left"), "\(s.tooltip)")
    }
}
