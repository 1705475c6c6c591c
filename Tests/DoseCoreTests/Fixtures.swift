import DoseCore
import Foundation

/// Builders for test data: dates, zones, medicines and events.
enum Fx {
    static func date(_ s: String) -> LocalDate { LocalDate(s)! }
    static func time(_ s: String) -> LocalTime { LocalTime(s)! }
    static func zone(_ id: String) -> Zone { Zone(TimeZone(identifier: id)!) }
    static func instant(_ s: String) -> Date { ISO8601.parse(s)! }

    static func med(_ id: Int64, _ name: String, _ recurrence: Recurrence = .daily, at times: [String] = ["08:00"],
                    from: String = "2026-01-01", until: String? = nil, window: Int = 7200, stock: Amount? = nil,
                    archivedOn: String? = nil) -> Medication {
        Medication(id: id, name: name, stock: stock, archivedOn: archivedOn.map(date),
                   versions: [ScheduleVersion(effective: date(from), schedule: Schedule(
                       recurrence: recurrence, times: times.map(time), window: window, start: date(from),
                       until: until.map(date)))])
    }

    static func taken(_ m: Int64, _ day: String, _ slot: String?, at: String, kind: DoseEvent.Kind = .taken) -> DoseEvent {
        let key = slot.map { SlotKey(medicationID: m, date: date(day), time: time($0)) }
        return DoseEvent(id: Int64.random(in: 1...Int64.max / 2), medicationID: m, kind: kind, slot: key,
                         at: instant(at), loggedAt: instant(at))
    }

    /// The plan of `day`; `events` may hold the day before's too (its slots still open after midnight are
    /// carried). `carry: false`: as if every slot of the day before was settled before midnight.
    static func plan(_ day: String, _ meds: [Medication], _ events: [DoseEvent] = [], tz: String = "Asia/Seoul",
                     carry: Bool = true) -> DayPlan {
        DayPlan(date: date(day), medications: meds, events: events, zone: zone(tz), carry: carry)
    }

    static func builder(_ plan: DayPlan, history: [DaySummary] = [], catalog: Catalog = .english, meds: [Medication]) -> SnapshotBuilder {
        SnapshotBuilder(plan: plan, history: History(today: plan.date, recent: history), medications: meds, catalog: catalog)
    }
}
