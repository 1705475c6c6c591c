@testable import DoseCore
import Foundation
import Testing

/// A plan places its slots, the day before's carried ones and their next slots through each day's
/// frame (its start plus the minutes when the day keeps one offset), not a zone look-up per time.
/// Every day of a year, in zones whose clocks change at 02:00, at midnight (Santiago, Havana) and by
/// half an hour (Lord Howe): each slot's instant and cut-off must be the ones `Zone` gives directly.
@Suite struct DayFrameTests {
    static let zones = ["America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe", "Asia/Seoul"]

    /// The cut-off as the rule reads (DESIGN §3), every instant from `Zone` itself: the next slot is
    /// the first later one that day, or the first of the next day on which the medicine has slots.
    static func expected(_ m: Medication, on date: LocalDate, zone: Zone) -> [(key: SlotKey, instant: Date, cutoff: Date)] {
        guard let s = m.schedule(on: date), s.occurs(on: date) else { return [] }
        let instants = s.times.map { zone.instant(date, $0) }
        var after: [Date] = []
        for d in [date.adding(days: 1), date.adding(days: 2)] {
            if let n = m.schedule(on: d), n.occurs(on: d) { after += n.times.map { zone.instant(d, $0) } }
        }
        return s.times.indices.map { i in
            // The first slot strictly after T (a zone change can place two at one instant).
            let next = (instants + after).filter { $0 > instants[i] }.min()
            return (SlotKey(medicationID: m.id, date: date, time: s.times[i]), instants[i],
                    PlannedSlot.cutoff(instant: instants[i], window: s.window, next: next))
        }
    }

    @Test("slots, carried slots and cut-offs as the zone places them, every day of 2026", arguments: zones)
    func everyDay(zoneID: String) {
        let zone = Fx.zone(zoneID)
        let meds = [
            Fx.med(1, "Around midnight", at: ["00:00", "00:30", "01:30", "02:30", "03:00", "12:00", "23:30"], from: "2025-12-01", window: 3600),
            Fx.med(2, "Every other day", .everyDays(2), at: ["00:15", "02:00"], from: "2025-12-01", window: 43200),
        ]
        var day = Fx.date("2026-01-01")
        var mismatches: [String] = []
        while day <= Fx.date("2026-12-31") {
            let plan = DayPlan(date: day, medications: meds, events: [], zone: zone, carry: true)
            let want = meds.flatMap { Self.expected($0, on: day, zone: zone) }
            let got = plan.slots.map { ($0.key, $0.instant, $0.cutoff) }
            for w in want where !got.contains(where: { $0.0 == w.key && $0.1 == w.instant && $0.2 == w.cutoff }) {
                mismatches.append("\(day) \(w.key): \(w.instant) until \(w.cutoff)")
            }
            #expect(got.count == want.count, "\(day)")
            // Carried: the day before's slots whose cut-off is past this day's start, as the zone has them.
            let start = zone.startOfDay(day)
            let yesterday = meds.flatMap { Self.expected($0, on: day.adding(days: -1), zone: zone) }.filter { $0.cutoff > start }
            let carriedKeys: [SlotKey] = plan.carried.map(\.key).sorted()
            let wantKeys: [SlotKey] = yesterday.map(\.key).sorted()
            #expect(carriedKeys == wantKeys, "\(day)")
            for c in plan.carried {
                let w = yesterday.first { $0.key == c.key }
                if w?.instant != c.instant || w?.cutoff != c.cutoff { mismatches.append("carried \(day) \(c.key)") }
            }
            #expect(plan.dayStart == start && plan.dayEnd == zone.endOfDay(day))
            day = day.adding(days: 1)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
