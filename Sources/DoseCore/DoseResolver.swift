import Foundation

/// Decides which dose a `take` or `skip` refers to (DESIGN §2). Pure: plans and instants are inputs.
public enum DoseResolver {
    /// What a take/skip will record.
    public enum Target: Sendable {
        case slot(PlannedSlot)
        /// An extra dose of an as-needed medicine.
        case extra(Medication)
    }

    /// Finds an active medicine by name: case-insensitive whole name first, then a unique prefix.
    /// A name that only an archived medicine of `medications` has is refused as archived, unless
    /// `archived` allows it (history keeps archived medicines; an active one wins a tie of names).
    public static func match(_ name: String, in medications: [Medication], catalog: Catalog = .english,
                             archived allowed: Bool = false) throws -> Medication {
        let active = medications.filter { $0.archivedOn == nil }
        if let m = try find(name, in: active, catalog) { return m }
        if allowed, let m = try find(name, in: medications.filter { $0.archivedOn != nil }, catalog) { return m }
        if let archived = try? find(name, in: medications.filter { $0.archivedOn != nil }, catalog), let day = archived.archivedOn {
            throw DosebarError.badData(catalog.text("error.archived", ["name": archived.name, "date": day.description]))
        }
        throw DosebarError.badData(catalog.text("error.unknown", ["name": name]))
    }

    private static func find(_ name: String, in medications: [Medication], _ catalog: Catalog) throws -> Medication? {
        let needle = name.lowercased()
        if let exact = medications.first(where: { $0.name.lowercased() == needle }) { return exact }
        let candidates = medications.filter { $0.name.lowercased().hasPrefix(needle) }
        if candidates.count > 1 {
            throw DosebarError.badData(catalog.text("error.ambiguous", ["name": name,
                                                                        "names": candidates.map(\.name).joined(separator: catalog.listSeparator)]))
        }
        return candidates.first
    }

    /// `take NAME` (or `skip NAME`) at `now` with no `--at`: the medicine's earliest due/late slot today,
    /// else its next slot if it opens within the window, else an extra as-needed dose.
    public static func target(for m: Medication, plan: DayPlan, now: Date, allowExtra: Bool, catalog: Catalog = .english) throws -> Target {
        let mine = plan.slots.filter { $0.key.medicationID == m.id }
        if let open = mine.first(where: { [.due, .late].contains($0.status(at: now)) }) { return .slot(open) }
        if let soon = mine.first(where: { $0.status(at: now) == .upcoming }),
           soon.instant.timeIntervalSince(now) <= Double(soon.window) {
            return .slot(soon)
        }
        if allowExtra, let item = plan.asNeeded.first(where: { $0.medication.id == m.id }) {
            let taken = item.taken.filter { $0 <= now }
            if let max = item.maxPerDay, taken.count >= max {
                throw DosebarError.badData(catalog.counted("error.max_per_day", taken.count, ["name": m.name, "max": String(max)]))
            }
            if let gap = item.minInterval, let last = taken.last, now.timeIntervalSince(last) < Double(gap) {
                let when = plan.zone.local(last.addingTimeInterval(Double(gap))).clock
                throw DosebarError.badData(catalog.text("error.min_interval", ["name": m.name, "time": when]))
            }
            return .extra(m)
        }
        if let upcoming = mine.first(where: { $0.status(at: now) == .upcoming }) {
            throw DosebarError.badData(catalog.text("error.not_due", ["name": m.name, "time": plan.zone.local(upcoming.instant).clock]))
        }
        if mine.isEmpty {
            throw DosebarError.badData(catalog.text("error.not_scheduled_today", ["name": m.name]))
        }
        throw DosebarError.badData(catalog.text("error.nothing_to_take", ["name": m.name]))
    }

    /// `take NAME --at X`: on X's day, the unresolved slot whose window contains X, else the nearest
    /// unresolved slot; an as-needed medicine logs an extra dose.
    public static func target(for m: Medication, plan: DayPlan, at x: Date, allowExtra: Bool, catalog: Catalog = .english) throws -> Target {
        let open = plan.slots.filter { $0.key.medicationID == m.id && $0.event == nil }
        let inWindow = open.filter { abs($0.instant.timeIntervalSince(x)) <= Double($0.window) }
        if let best = (inWindow.isEmpty ? open : inWindow).min(by: { abs($0.instant.timeIntervalSince(x)) < abs($1.instant.timeIntervalSince(x)) }) {
            return .slot(best)
        }
        if allowExtra, plan.asNeeded.contains(where: { $0.medication.id == m.id }) { return .extra(m) }
        let mine = plan.slots.contains { $0.key.medicationID == m.id }
        throw DosebarError.badData(catalog.text(mine ? "error.resolved_on" : "error.not_scheduled_on",
                                                ["name": m.name, "date": plan.date.description]))
    }

    /// `take` with no names: every due or late slot now; with `next`, when none is due, every slot at
    /// the earliest upcoming time.
    public static func dueSlots(plan: DayPlan, now: Date, next: Bool) -> [PlannedSlot] {
        let due = plan.slots.filter { [.due, .late].contains($0.status(at: now)) }
        if !due.isEmpty || !next { return due }
        let upcoming = plan.slots.filter { $0.status(at: now) == .upcoming }
        guard let first = upcoming.first else { return [] }
        return upcoming.filter { $0.instant == first.instant }
    }

    /// What `take`/`skip` with `names` (every due dose when empty) means on `plan`'s day: at `at`
    /// (back-dating) or now. A slot named twice is recorded once.
    public static func targets(names: [String], taking: Bool, plan: DayPlan, medications: [Medication],
                               at: Date?, now: Date, next: Bool, catalog: Catalog = .english) throws -> [Target] {
        if names.isEmpty {
            let when = at ?? now
            let slots = dueSlots(plan: plan, now: when, next: next && at == nil)
            guard !slots.isEmpty else { throw nothingDue(plan: plan, at: when, catalog: catalog) }
            return slots.map { .slot($0) }
        }
        var targets: [Target] = []
        for name in names {
            let m = try match(name, in: medications, catalog: catalog)
            let t: Target
            if let at {
                t = try target(for: m, plan: plan, at: at, allowExtra: taking, catalog: catalog)
            } else if !taking {
                t = try skipTarget(for: m, plan: plan, now: now, catalog: catalog)
            } else {
                t = try target(for: m, plan: plan, now: now, allowExtra: true, catalog: catalog)
            }
            if case .slot(let s) = t, targets.contains(where: { if case .slot(let o) = $0 { o.key == s.key } else { false } }) {
                continue
            }
            targets.append(t)
        }
        return targets
    }

    /// `skip NAME` with no `--at`: the earliest due or late dose, else the next one today.
    public static func skipTarget(for m: Medication, plan: DayPlan, now: Date, catalog: Catalog = .english) throws -> Target {
        let mine = plan.slots.filter { $0.key.medicationID == m.id }
        if let s = mine.first(where: { [.due, .late, .upcoming].contains($0.status(at: now)) }) { return .slot(s) }
        throw DosebarError.badData(catalog.text(mine.isEmpty ? "error.not_scheduled_today" : "error.nothing_to_skip", ["name": m.name]))
    }

    /// `take` with no names when nothing is due: says what is next.
    public static func nothingDue(plan: DayPlan, at: Date, catalog: Catalog = .english) -> DosebarError {
        if let next = plan.slots.first(where: { $0.status(at: at) == .upcoming }) {
            return .badData(catalog.text("error.nothing_due_next", ["name": next.medication.name,
                                                                    "time": plan.zone.local(next.instant).clock]))
        }
        return .badData(catalog.text("error.nothing_due"))
    }
}
