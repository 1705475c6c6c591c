import DoseCore
import DoseStore
import Foundation

/// Logs a notification's answer on exactly the doses it named: each slot that is still
/// unresolved gets a taken (moving stock as `take` does) or skipped event at `now`; slots
/// resolved meanwhile (a bar click, a terminal) are left alone. One write transaction.
struct SlotRecorder {
    let context: AppContext
    let store: DoseStore

    /// Returns how many doses were logged.
    @discardableResult
    func record(_ kind: DoseEvent.Kind, slots: [SlotKey]) throws -> Int {
        let now = context.now, zone = context.zone
        let days = Set(slots.map(\.date))
        return try store.write { w -> Int in
            let meds = try w.medications(includeArchived: false)
            var count = 0
            for day in days.sorted() {
                let plan = DayPlan(date: day, medications: meds, events: try w.events(days: day...day), zone: zone)
                for key in slots where key.date == day {
                    guard let slot = plan.slots.first(where: { $0.key == key }), slot.event == nil else { continue }
                    var delta = 0
                    if kind == .taken, let stock = try w.medication(id: key.medicationID)?.stock {
                        delta = min(stock, slot.medication.perDose)
                        try w.setStock(medicationID: key.medicationID, stock - delta)
                    }
                    _ = try w.insertEvent(DoseEvent(id: 0, medicationID: key.medicationID, kind: kind, slot: key,
                                                    at: now, loggedAt: now, stockDelta: delta), day: day)
                    count += 1
                }
                if day < zone.date(of: now) { try w.invalidateSummaries(from: day) }
            }
            return count
        }
    }
}
