import DoseCore
import DoseStore
import Foundation

/// Records takes and skips: decides the slot inside one write transaction (so parallel
/// clicks never take the same dose twice), appends the events and moves stock.
struct DoseLogger {
    let context: AppContext
    let store: DoseStore

    /// One recorded event, for the confirmation line.
    struct Logged {
        var medication: Medication
        var slot: PlannedSlot?
        var at: Date
    }

    /// Logs `kind` for `names` (every due dose when empty) at `at` (default now).
    func log(_ kind: DoseEvent.Kind, names: [String], at: Date?, next: Bool) throws -> [Logged] {
        let now = context.now, zone = context.zone
        if let at, at > now.addingTimeInterval(60) {
            throw DosebarError.badData("--at \(zone.local(at).iso8601) is in the future: log a dose when it happens")
        }
        let when = at ?? now
        let day = zone.date(of: when)
        return try store.write { w -> [Logged] in
            let meds = try w.medications(includeArchived: false)
            let plan = DayPlan(date: day, medications: meds, events: try w.events(days: day...day), zone: zone)
            var targets: [DoseResolver.Target] = []
            if names.isEmpty {
                let slots = DoseResolver.dueSlots(plan: plan, now: when, next: next && at == nil)
                guard !slots.isEmpty else { throw nothingDue(plan: plan, at: when) }
                targets = slots.map { .slot($0) }
            } else {
                for name in names {
                    let m = try DoseResolver.match(name, in: meds)
                    let t: DoseResolver.Target
                    if let at {
                        t = try DoseResolver.target(for: m, plan: plan, at: at, allowExtra: kind == .taken)
                    } else if kind == .skipped {
                        t = try skipTarget(for: m, plan: plan, now: now)
                    } else {
                        t = try DoseResolver.target(for: m, plan: plan, now: now, allowExtra: true)
                    }
                    if case .slot(let s) = t, targets.contains(where: { if case .slot(let o) = $0 { o.key == s.key } else { false } }) {
                        continue
                    }
                    targets.append(t)
                }
            }
            var logged: [Logged] = []
            for t in targets {
                let (m, slot): (Medication, PlannedSlot?) = switch t {
                case .slot(let s): (s.medication, s)
                case .extra(let m): (m, nil)
                }
                var delta = 0
                let current = try w.medication(id: m.id)
                if kind == .taken, let stock = current?.stock {
                    delta = min(stock, m.perDose)
                    try w.setStock(medicationID: m.id, stock - delta)
                }
                let event = DoseEvent(id: 0, medicationID: m.id, kind: kind, slot: slot?.key, at: when, loggedAt: now,
                                      stockDelta: delta)
                _ = try w.insertEvent(event, day: slot?.key.date ?? day)
                logged.append(Logged(medication: m, slot: slot, at: when))
            }
            if day < zone.date(of: now) { try w.invalidateSummaries(from: day) }
            return logged
        }
    }

    /// `skip NAME`: the earliest due or late dose, else the next one today.
    private func skipTarget(for m: Medication, plan: DayPlan, now: Date) throws -> DoseResolver.Target {
        let mine = plan.slots.filter { $0.key.medicationID == m.id }
        if let s = mine.first(where: { [.due, .late, .upcoming].contains($0.status(at: now)) }) { return .slot(s) }
        throw DosebarError.badData(mine.isEmpty ? "\(m.name) is not scheduled today" : "\(m.name): nothing left to skip today")
    }

    private func nothingDue(plan: DayPlan, at: Date) -> DosebarError {
        if let next = plan.slots.first(where: { $0.status(at: at) == .upcoming }) {
            return .badData("nothing is due now; next: \(next.medication.name) at \(plan.zone.local(next.instant).clock) (use --next to take it early)")
        }
        return .badData("nothing is due now and nothing is left today")
    }

    /// One line per logged dose: `Took Aspirin 100 mg (08:00 dose) at 08:05.`
    func describe(_ kind: DoseEvent.Kind, _ items: [Logged]) -> [String] {
        items.map { l in
            let verb = kind == .taken ? "Took" : "Skipped"
            let dose = l.medication.dose.map { " " + $0 } ?? ""
            let slot = l.slot.map { " (\(context.zone.local($0.instant).clock) dose)" } ?? " (extra dose)"
            let at = context.zone.local(l.at)
            let when = context.zone.date(of: l.at) == context.today ? at.clock : "\(context.zone.date(of: l.at)) \(at.clock)"
            return kind == .taken ? "\(verb) \(l.medication.name)\(dose)\(slot) at \(when)." : "\(verb) \(l.medication.name)\(slot)."
        }
    }
}
