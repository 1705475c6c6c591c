@testable import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// The zone log (DESIGN §3 "Where the person is"): a person who travels keeps every past slot where it
/// was lived; from the change on, slots follow the new clock; flying west never repeats a dose and
/// flying east never loses one.
@Suite struct ZoneLogTests {
    static func tz(_ id: String) -> TimeZone { TimeZone(identifier: id)! }
    static func log(_ base: String, _ changes: [(String, String)]) -> Zone {
        Zone(tz(base), changes: changes.map { ZoneChange(at: Fx.instant($0.0), timeZone: tz($0.1)) })
    }

    @Test("Seoul to New York: the past stays, the next 22:00 comes at 22:00 New York time, 38 h later")
    func westward() {
        // Left Seoul 2026-12-07 10:00 KST (01:00 UTC), the laptop's clock said New York from then on.
        let zone = Self.log("Asia/Seoul", [("2026-12-07T01:00:00Z", "America/New_York")])
        let seoul = Fx.zone("Asia/Seoul"), ny = Fx.zone("America/New_York")
        let t = Fx.time("22:00"), morning = Fx.time("08:00")
        #expect(zone.instant(Fx.date("2026-12-06"), t) == seoul.instant(Fx.date("2026-12-06"), t))
        #expect(zone.instant(Fx.date("2026-12-07"), morning) == seoul.instant(Fx.date("2026-12-07"), morning))
        #expect(zone.instant(Fx.date("2026-12-07"), t) == ny.instant(Fx.date("2026-12-07"), t))
        let gap = zone.instant(Fx.date("2026-12-07"), t).timeIntervalSince(zone.instant(Fx.date("2026-12-06"), t))
        #expect(gap == 38 * 3600)
        // After the change the wall clock reads 12-06 20:00, but 12-07 has begun: it lasts until New York's midnight.
        #expect(zone.date(of: Fx.instant("2026-12-07T01:00:00Z")) == Fx.date("2026-12-07"))
        #expect(zone.time(of: Fx.instant("2026-12-07T01:00:00Z")) == Fx.time("20:00"))
        #expect(zone.endOfDay(Fx.date("2026-12-07")) == ny.startOfDay(Fx.date("2026-12-08")))
        // Before the change every instant keeps its Seoul date.
        #expect(zone.date(of: Fx.instant("2026-12-06T16:00:00Z")) == Fx.date("2026-12-07"))
        #expect(zone.date(of: Fx.instant("2026-12-06T14:00:00Z")) == Fx.date("2026-12-06"))
    }

    @Test("New York to Seoul: a dose the clock jumped over comes at the change, none is lost")
    func eastward() {
        let c = Fx.instant("2026-12-08T00:00:00Z") // 12-07 19:00 in New York, 12-08 09:00 in Seoul
        let zone = Self.log("America/New_York", [("2026-12-08T00:00:00Z", "Asia/Seoul")])
        let seoul = Fx.zone("Asia/Seoul")
        #expect(zone.instant(Fx.date("2026-12-07"), Fx.time("18:00")) == Fx.instant("2026-12-07T23:00:00Z"))
        #expect(zone.instant(Fx.date("2026-12-07"), Fx.time("22:00")) == c)
        #expect(zone.instant(Fx.date("2026-12-08"), Fx.time("08:00")) == c)
        #expect(zone.instant(Fx.date("2026-12-08"), Fx.time("10:00")) == seoul.instant(Fx.date("2026-12-08"), Fx.time("10:00")))
        #expect(zone.startOfDay(Fx.date("2026-12-08")) == c)
        // The 22:00 of 12-07 that came at the change is still 12-07's: carried into 12-08.
        let m = Fx.med(1, "Yasmin", at: ["22:00"], from: "2026-12-01")
        let plan = DayPlan(date: Fx.date("2026-12-08"), medications: [m], events: [], zone: zone, carry: true)
        #expect(plan.carried.map(\.key.date) == [Fx.date("2026-12-07")])
        #expect(plan.carried.first?.instant == c)
        #expect(plan.slots.map(\.instant) == [seoul.instant(Fx.date("2026-12-08"), Fx.time("22:00"))])
    }

    @Test("a change to the zone already in force, or two at one instant, is one log on every device")
    func normalised() {
        let a = Self.log("Asia/Seoul", [("2026-12-07T01:00:00Z", "Asia/Seoul"), ("2026-12-08T01:00:00Z", "Europe/Paris"),
                                        ("2026-12-08T01:00:00Z", "America/New_York")])
        let b = Self.log("Asia/Seoul", [("2026-12-08T01:00:00Z", "America/New_York"), ("2026-12-08T01:00:00Z", "Europe/Paris")])
        #expect(a.changes.map(\.name) == ["Europe/Paris"])
        #expect(a.fingerprint == b.fingerprint)
    }

    static let zones = ["Asia/Seoul", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Kathmandu",
                        "America/St_Johns", "Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"]
    /// Instants around the DST days of New York and London and a plain week.
    static let around = ["2026-03-08T06:00:00Z", "2026-03-29T00:30:00Z", "2026-11-01T05:00:00Z", "2026-10-04T15:00:00Z",
                         "2026-12-06T12:00:00Z"]

    /// A random log of one to four changes within three days around one of `around`.
    static func randomLog(_ rng: inout SplitMix64) -> (Zone, ClosedRange<LocalDate>) {
        let centre = Fx.instant(around[rng.int(0...(around.count) - 1)])
        let base = zones[rng.int(0...(zones.count) - 1)]
        var changes: [ZoneChange] = []
        var at = centre.addingTimeInterval(Double(rng.int(0...(72) - 1) - 36) * 3600)
        for _ in 0..<(1 + rng.int(0...(4) - 1)) {
            at = at.addingTimeInterval(Double(rng.int(0...(40 * 60) - 1)) * 60)
            changes.append(ZoneChange(at: at, timeZone: tz(zones[rng.int(0...(zones.count) - 1)])))
        }
        let d = Zone(tz(base)).date(of: centre)
        return (Zone(tz(base), changes: changes), d.adding(days: -4)...d.adding(days: 6))
    }

    static let minutes = [0, 30, 60, 90, 120, 150, 179, 180, 420, 480, 720, 1080, 1320, 1350, 1410, 1439]

    @Test("placement: slots never reorder, each lies within its day, days follow each other")
    func ordered() {
        var rng = SplitMix64(seed: Property.base ^ 43)
        for round in 0..<300 {
            let (zone, days) = Self.randomLog(&rng)
            var last = Date.distantPast
            var d = days.lowerBound
            while d <= days.upperBound {
                let start = zone.startOfDay(d), end = zone.endOfDay(d)
                #expect(start <= end, "\(round) \(d) \(zone.fingerprint)")
                var afterGap = false
                for m in Self.minutes {
                    let t = zone.instant(d, minuteOfDay: m)
                    // A time in a DST gap moves forward by the gap and may pass the next one (DESIGN §3): one zone does that too.
                    #expect((afterGap || t >= last) && t >= start && t <= end, "\(round) \(d) \(m) \(zone.fingerprint)")
                    if t < end { #expect(zone.date(of: t) == d, "\(round) \(d) \(m) \(zone.fingerprint)") }
                    last = t
                    let zones = [zone.base] + zone.changes.map(\.timeZone)
                    afterGap = zones.contains { Zone($0).time(of: Zone.wallInstant($0, d, m)).minuteOfDay != m }
                }
                d = d.adding(days: 1)
            }
        }
    }

    @Test("a new change never moves what came before it, and everything after it is at or after it")
    func pastStays() {
        var rng = SplitMix64(seed: Property.base ^ 4343)
        for round in 0..<300 {
            let (zone, days) = Self.randomLog(&rng)
            let c = (zone.changes.last?.at ?? zone.startOfDay(days.lowerBound)).addingTimeInterval(Double(1 + rng.int(0...(48 * 60) - 1)) * 60)
            let next = Zone(zone.base, name: zone.baseName,
                            changes: zone.changes + [ZoneChange(at: c, timeZone: Self.tz(Self.zones[rng.int(0...(Self.zones.count) - 1)]))])
            var d = days.lowerBound
            while d <= days.upperBound.adding(days: 2) {
                for m in Self.minutes {
                    let before = zone.instant(d, minuteOfDay: m), after = next.instant(d, minuteOfDay: m)
                    if before < c {
                        #expect(after == before, "\(round) \(d) \(m) \(next.fingerprint)")
                        #expect(next.date(of: before) == zone.date(of: before))
                    } else {
                        #expect(after >= c, "\(round) \(d) \(m) \(next.fingerprint)")
                    }
                }
                d = d.adding(days: 1)
            }
        }
    }

    @Test("a day plan places slots and cut-offs as the log does, on days with and without a change")
    func plans() {
        var rng = SplitMix64(seed: Property.base ^ 434343)
        let meds = [
            Fx.med(1, "Around midnight", at: ["00:00", "00:30", "02:30", "12:00", "23:30"], from: "2025-12-01", window: 3600),
            Fx.med(2, "Every other day", .everyDays(2), at: ["00:15", "22:00"], from: "2025-12-01", window: 43200),
        ]
        for round in 0..<60 {
            let (zone, days) = Self.randomLog(&rng)
            var d = days.lowerBound
            while d <= days.upperBound {
                let plan = DayPlan(date: d, medications: meds, events: [], zone: zone, carry: true)
                let want = meds.flatMap { DayFrameTests.expected($0, on: d, zone: zone) }
                #expect(plan.slots.count == want.count, "\(round) \(d)")
                for w in want {
                    let got = plan.slots.first { $0.key == w.key }
                    #expect(got?.instant == w.instant && got?.cutoff == w.cutoff, "\(round) \(d) \(w.key) \(zone.fingerprint)")
                }
                #expect(plan.dayStart == zone.startOfDay(d) && plan.dayEnd == zone.endOfDay(d))
                d = d.adding(days: 1)
            }
        }
    }

    /// The placement rule as DESIGN §3 states it: change after change, from the first zone on.
    static func folded(_ zone: Zone, _ date: LocalDate, _ minute: Int) -> Date {
        var t = Zone.wallInstant(zone.base, date, minute)
        for c in zone.changes {
            if t < c.at { break }
            let there = Zone.wallInstant(c.timeZone, date, minute)
            t = there >= c.at ? there : c.at
        }
        return t
    }

    @Test("a log of many flights places every time as the whole fold does, looking up only the changes near it")
    func manyChangesAgreeWithTheFold() {
        var g = SplitMix64(seed: 43)
        let zones = ["Asia/Seoul", "America/New_York", "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati",
                     "Pacific/Pago_Pago", "Europe/London", "Australia/Lord_Howe", "UTC"].map(Self.tz)
        for _ in 0..<20 {
            var at = Fx.instant("2024-01-01T00:00:00Z").timeIntervalSince1970
            var changes: [ZoneChange] = []
            for _ in 0..<Int.random(in: 1...60, using: &g) {
                // From an hour to two months apart: flights on consecutive days, and long stays.
                at += Double(Int.random(in: 3600...(60 * 86400), using: &g))
                changes.append(ZoneChange(at: Date(timeIntervalSince1970: at), timeZone: zones.randomElement(using: &g)!))
            }
            let zone = Zone(zones.randomElement(using: &g)!, changes: changes)
            for _ in 0..<300 {
                let date = Fx.date("2023-12-25").adding(days: Int.random(in: 0...(365 * 4), using: &g))
                let minute = Int.random(in: 0...1440, using: &g)
                #expect(zone.instant(date, minuteOfDay: minute) == Self.folded(zone, date, minute), "\(date) \(minute)")
            }
            // The zone in force and whether a span holds a change, as a walk through the log says.
            for _ in 0..<100 {
                let t = Date(timeIntervalSince1970: Double(Int.random(in: 1_703_000_000...1_830_000_000, using: &g)))
                let walked = zone.changes.lastIndex { $0.at <= t }.map { zone.changes[$0].name } ?? zone.baseName
                #expect(zone.name(at: t) == walked)
                let end = t.addingTimeInterval(Double(Int.random(in: 0...(3 * 86400), using: &g)))
                #expect(zone.isSettled(t, end) == !zone.changes.contains { $0.at >= t && $0.at <= end })
            }
            for c in zone.changes { #expect(!zone.isSettled(c.at, c.at) && zone.name(at: c.at) == c.name) }
        }
    }
}
