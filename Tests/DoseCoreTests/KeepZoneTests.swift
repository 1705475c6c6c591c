@testable import DoseCore
import Foundation
import Testing

/// A medicine on a zone of its own (`--keep-zone`, DESIGN §3 "Where the person is"): its times stay on
/// that zone's clock wherever the person is ("08:00 here = 22:00 Asia/Seoul"); each slot belongs to
/// the person's day its instant falls in, none doubled or lost whatever the flights.
@Suite struct KeepZoneTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    static func kept(_ id: Int64, _ name: String, at: [String], zone: TimeZone = seoul, from: String = "2026-12-01",
                     recurrence: Recurrence = .daily) -> Medication {
        Medication(id: id, name: name, versions: [ScheduleVersion(effective: Fx.date(from), schedule: Schedule(
            recurrence: recurrence, times: at.map(Fx.time), start: Fx.date(from), keepZone: zone))])
    }
    /// Seoul, then New York from 12-07 10:00 KST, then Kathmandu (+05:45) from 12-10 09:00 New York, back to Seoul 12-12.
    static let flights = Zone(seoul, changes: [
        ZoneChange(at: Fx.instant("2026-12-07T01:00:00Z"), timeZone: TimeZone(identifier: "America/New_York")!),
        ZoneChange(at: Fx.instant("2026-12-10T14:00:00Z"), timeZone: TimeZone(identifier: "Asia/Kathmandu")!),
        ZoneChange(at: Fx.instant("2026-12-12T03:00:00Z"), timeZone: seoul),
    ])

    static func plans(_ meds: [Medication], zone: Zone, days: ClosedRange<Int>) -> [DayPlan] {
        days.map { DayPlan(date: Fx.date("2026-12-01").adding(days: $0), medications: meds, events: [], zone: zone, carry: false) }
    }

    @Test("every slot once, 24 h apart, at 22:00 Seoul time, on the person's day its instant falls in, across three flights")
    func everySlotOnce() {
        let meds = [Self.kept(1, "Yasmin", at: ["22:00"]), Self.kept(2, "Insulin", at: ["07:00", "19:00"])]
        let plans = Self.plans(meds, zone: Self.flights, days: 0...14)
        let slots = plans.flatMap(\.slots)
        for id in [Int64(1), 2] {
            let mine = slots.filter { $0.key.medicationID == id }
            let keys = mine.map(\.key)
            #expect(Set(keys).count == keys.count, "no slot twice")
            // Every date of the course from 12-01 to 12-14 is there (the 15th's may fall on a day not planned).
            let dates = Set(keys.map(\.date))
            for d in 0...13 { #expect(dates.contains(Fx.date("2026-12-01").adding(days: d)), "medicine \(id) day \(d)") }
            for slot in mine {
                #expect(slot.instant == Zone(Self.seoul).instant(slot.key.date, slot.key.time), "on Seoul's clock")
            }
            let instants = mine.map(\.instant).sorted()
            let gaps = Set(zip(instants, instants.dropFirst()).map { Int($1.timeIntervalSince($0)) })
            #expect(gaps == (id == 1 ? [86400] : [12 * 3600]), "the interval never moves: \(gaps)")
        }
        for plan in plans {
            #expect(plan.slots.allSatisfy { $0.instant >= plan.dayStart && $0.instant < plan.dayEnd }, "\(plan.date)")
        }
        // A snapshot puts each on the person's day (the bars' "yesterday" is for carried slots only).
        for plan in plans {
            let t = plan.dayStart.addingTimeInterval(60)
            let snapshot = Fx.builder(plan, meds: meds).snapshot(at: t, validUntil: t.addingTimeInterval(60))
            #expect(snapshot.doses.allSatisfy { $0.day == plan.date }, "\(plan.date): \(snapshot.doses.map(\.day))")
        }
        // In New York, 22:00 Seoul is 08:00 of the same date.
        let ny = plans.first { $0.date == Fx.date("2026-12-08") }!
        #expect(ny.slots.filter { $0.key.medicationID == 1 }.map { Self.flights.local($0.instant).clock } == ["08:00"])
    }

    @Test("a kept medicine's interval never moves: no travel gap for it; its cut-off is its next slot's")
    func noGap() throws {
        let meds = [Self.kept(1, "Yasmin", at: ["22:00"])]
        #expect(TravelGap.find(medications: meds, zone: Self.flights, change: Self.flights.changes[0]).isEmpty)
        let plan = DayPlan(date: Fx.date("2026-12-08"), medications: meds, events: [], zone: Self.flights)
        let slot = try #require(plan.slots.first)
        #expect(slot.cutoff == slot.instant.addingTimeInterval(86400 - 7200), "next slot 24 h later, less the window")
    }

    @Test("a take of a slot of another date resolves it on the day it falls in; history counts it once")
    func eventsAround() throws {
        let meds = [Self.kept(1, "Yasmin", at: ["08:00"])]
        // Person in New York: 08:00 Seoul on 12-09 is 18:00 New York on 12-08.
        let zone = Zone(Self.seoul, changes: [ZoneChange(at: Fx.instant("2026-12-07T01:00:00Z"), timeZone: TimeZone(identifier: "America/New_York")!)])
        let take = Fx.taken(1, "2026-12-09", "08:00", at: "2026-12-08T18:05:00-05:00")
        let plan = DayPlan(date: Fx.date("2026-12-08"), medications: meds, events: [take], zone: zone)
        let slot = try #require(plan.slots.first { $0.key.date == Fx.date("2026-12-09") })
        #expect(slot.status(at: Fx.instant("2026-12-08T19:00:00-05:00")) == .taken)
        let ledger = HistoryLedger(days: Fx.date("2026-12-07")...Fx.date("2026-12-09"), medications: meds, events: [take], zone: zone,
                                   now: Fx.instant("2026-12-10T12:00:00-05:00"))
        #expect(ledger.slots.filter { $0.status == .taken }.count == 1, "\(ledger.slots.map { "\($0.date) \($0.status)" })")
        #expect(DayPlan.eventDays(Fx.date("2026-12-08")...Fx.date("2026-12-08"), medications: meds)
                == Fx.date("2026-12-05")...Fx.date("2026-12-10"))
        #expect(DayPlan.eventDays(Fx.date("2026-12-08")...Fx.date("2026-12-08"), medications: [Fx.med(2, "Aspirin")])
                == Fx.date("2026-12-08")...Fx.date("2026-12-08"), "no wider without a kept zone")
    }

    @Test("edit --keep-zone from a day on: the days before keep the person's clock")
    func versioned() {
        let person = Schedule(recurrence: .daily, times: [Fx.time("22:00")], start: Fx.date("2026-12-01"))
        var kept = person
        kept.keepZone = Self.seoul
        let m = Medication(id: 1, name: "Yasmin", versions: [ScheduleVersion(effective: Fx.date("2026-12-01"), schedule: person),
                                                              ScheduleVersion(effective: Fx.date("2026-12-09"), schedule: kept)])
        let slots = Self.plans([m], zone: Self.flights, days: 0...12).flatMap(\.slots)
        let byDate = Dictionary(grouping: slots, by: \.key.date)
        #expect(byDate.values.allSatisfy { $0.count == 1 }, "\(slots.map(\.key))")
        // 12-08 in New York at 22:00 there; from 12-09 on at 22:00 Seoul.
        #expect(slots.first { $0.key.date == Fx.date("2026-12-08") }?.instant == Fx.instant("2026-12-08T22:00:00-05:00"))
        #expect(slots.first { $0.key.date == Fx.date("2026-12-09") }?.instant == Fx.instant("2026-12-09T22:00:00+09:00"))
    }
}
