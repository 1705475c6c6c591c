@testable import DoseCore
import Foundation
import Testing

/// At a change of zone, each medicine whose interval between doses moved by more than its window gets
/// one message naming the gap and both choices (DESIGN §3 "Where the person is").
@Suite struct TravelGapTests {
    static func log(_ base: String, _ at: String, _ to: String) -> Zone {
        Zone(TimeZone(identifier: base)!, changes: [ZoneChange(at: Fx.instant(at), timeZone: TimeZone(identifier: to)!)])
    }

    @Test("west (Seoul to New York): 38 h instead of 24, keep it at 08:00 here; a 12 h medicine moves by 14 h too")
    func west() throws {
        let zone = Self.log("Asia/Seoul", "2026-12-07T01:00:00Z", "America/New_York")
        let meds = [Fx.med(1, "Yasmin", at: ["22:00"]), Fx.med(2, "Metformin", at: ["08:00", "20:00"])]
        let gaps = TravelGap.find(medications: meds, zone: zone, change: zone.changes[0])
        #expect(gaps.map(\.medication) == ["Metformin", "Yasmin"])
        let yasmin = try #require(gaps.last)
        #expect(yasmin.last == Fx.instant("2026-12-06T22:00:00+09:00"))
        #expect(yasmin.nextAt == Fx.instant("2026-12-07T22:00:00-05:00"))
        #expect(yasmin.gap == 38 * 3600 && yasmin.usual == 24 * 3600)
        #expect(yasmin.keep == Fx.instant("2026-12-07T08:00:00-05:00"))
        #expect(yasmin.next == SlotKey(medicationID: 1, date: Fx.date("2026-12-07"), time: Fx.time("22:00")))
        let text = Catalog.english.render(yasmin.message(zone: zone)).text
        #expect(text == "Yasmin: next dose 38 h after the last (usually 24 h). Take it at 08:00 here to keep 24 h "
                + "(`dosebar take Yasmin --slot 22:00`), or keep Asia/Seoul time: `dosebar edit Yasmin --keep-zone Asia/Seoul`")
        let metformin = try #require(gaps.first)
        #expect(metformin.gap == 26 * 3600 && metformin.usual == 12 * 3600, "08:00 KST, then 20:00 New York")
    }

    @Test("east (New York to Seoul): 10 h instead of 24; the usual interval ends the next day, named with its date")
    func east() throws {
        // Landed in Seoul at 12-11 20:00 KST (06:00 in New York); the last Yasmin was 12-10 22:00 New York.
        let zone = Self.log("America/New_York", "2026-12-11T11:00:00Z", "Asia/Seoul")
        let gaps = TravelGap.find(medications: [Fx.med(1, "Yasmin", at: ["22:00"])], zone: zone, change: zone.changes[0])
        let gap = try #require(gaps.first)
        #expect(gap.gap == 10 * 3600 && gap.usual == 24 * 3600)
        let text = Catalog.english.render(gap.message(zone: zone)).text
        #expect(text.contains("Take it at 12-12 12:00 here to keep 24 h (`dosebar take Yasmin --slot '2026-12-11 22:00'`)"), "\(text)")
        #expect(text.contains("keep America/New_York time"), "\(text)")
        #expect(Catalog.korean.render(gap.message(zone: zone)).text.contains("10시간"))
    }

    @Test("a move within the window is no news: Kolkata to Kathmandu (15 min), a 1 h window and a 2 h move is")
    func withinWindow() {
        let small = Self.log("Asia/Kolkata", "2026-12-07T06:00:00Z", "Asia/Kathmandu")
        #expect(TravelGap.find(medications: [Fx.med(1, "Aspirin", at: ["08:00", "20:00"])], zone: small, change: small.changes[0]).isEmpty)
        let seoulBangkok = Self.log("Asia/Seoul", "2026-12-07T06:00:00Z", "Asia/Bangkok")
        #expect(TravelGap.find(medications: [Fx.med(1, "Aspirin", at: ["20:00"])], zone: seoulBangkok, change: seoulBangkok.changes[0]).isEmpty)
        #expect(TravelGap.find(medications: [Fx.med(1, "Insulin", at: ["20:00"], window: 3600)], zone: seoulBangkok,
                               change: seoulBangkok.changes[0]).map(\.medication) == ["Insulin"])
        // As-needed medicines have no interval to move.
        #expect(TravelGap.find(medications: [Fx.med(1, "Ibuprofen", .asNeeded(maxPerDay: nil, minInterval: nil), at: [])],
                               zone: seoulBangkok, change: seoulBangkok.changes[0]).isEmpty)
    }

    @Test("the snapshot says the change for a day and each gap until its dose is taken or its window passed")
    func inSnapshots() throws {
        let zone = Self.log("Asia/Seoul", "2026-12-07T01:00:00Z", "America/New_York")
        let meds = [Fx.med(1, "Yasmin", at: ["22:00"])]
        func ids(_ events: [DoseEvent], at: String) -> [String] {
            let t = Fx.instant(at)
            let plan = DayPlan(date: zone.date(of: t), medications: meds, events: events, zone: zone)
            return Fx.builder(plan, meds: meds).snapshot(at: t, validUntil: t.addingTimeInterval(60)).messages.map(\.id)
        }
        #expect(!ids([], at: "2026-12-06T19:00:00-05:00").contains(MessageID.travelGap), "not before the change")
        #expect(ids([], at: "2026-12-06T20:30:00-05:00").contains(MessageID.travelGap))
        #expect(ids([], at: "2026-12-06T20:30:00-05:00").contains(MessageID.zoneChanged))
        #expect(!ids([], at: "2026-12-07T20:30:00-05:00").contains(MessageID.zoneChanged), "a day later it is news no more")
        #expect(ids([], at: "2026-12-07T21:00:00-05:00").contains(MessageID.travelGap))
        #expect(!ids([], at: "2026-12-08T00:01:00-05:00").contains(MessageID.travelGap), "its window has passed")
        // Taken early on purpose at the usual interval: the message goes.
        let early = Fx.taken(1, "2026-12-07", "22:00", at: "2026-12-07T08:00:00-05:00")
        #expect(ids([early], at: "2026-12-07T07:59:00-05:00").contains(MessageID.travelGap))
        #expect(!ids([early], at: "2026-12-07T08:01:00-05:00").contains(MessageID.travelGap))
        // The timeline has an entry at the change, so the bar says it from then on.
        let plan = DayPlan(date: Fx.date("2026-12-07"), medications: meds, events: [], zone: zone)
        #expect(TimelineProvider(builder: Fx.builder(plan, meds: meds)).instants().contains(Fx.instant("2026-12-07T01:00:00Z")))
    }
}
