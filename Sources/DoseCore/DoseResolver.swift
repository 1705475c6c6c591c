import Foundation

/// Decides which dose a `take` or `skip` refers to (DESIGN §2). Pure: plans and instants are inputs.
public enum DoseResolver {
    /// What a take/skip will record.
    public enum Target: Sendable {
        case slot(PlannedSlot)
        /// An extra dose of an as-needed medicine; `overLimit` when `--force` records it beyond
        /// `--max-per-day`/`--min-interval`.
        case extra(Medication, overLimit: Bool = false)
    }

    /// Finds an active medicine by name: case-insensitive whole name first, then a unique prefix.
    /// A name that only an archived medicine of `medications` has is refused as archived, unless
    /// `archived` allows it (history keeps archived medicines; an active one wins a tie of names).
    public static func match(_ name: String, in medications: [Medication], catalog: Catalog = .english,
                             archived allowed: Bool = false) throws -> Medication {
        // An empty name is a prefix of every name: with one medicine, `take ''` would take it.
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DosebarError.usage(catalog.text("error.empty_name"))
        }
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
    public static func target(for m: Medication, plan: DayPlan, now: Date, allowExtra: Bool, force: Bool = false,
                              catalog: Catalog = .english) throws -> Target {
        let mine = plan.slots.filter { $0.key.medicationID == m.id }
        if let open = mine.first(where: { [.due, .late].contains($0.status(at: now)) }) { return .slot(open) }
        if let soon = mine.first(where: { $0.status(at: now) == .upcoming }),
           soon.instant.timeIntervalSince(now) <= Double(soon.window) {
            return .slot(soon)
        }
        if allowExtra, let item = plan.asNeeded.first(where: { $0.medication.id == m.id }) {
            if let refusal = limitRefusal(m, item.maxPerDay, item.minInterval, taken: item.taken.filter { $0 <= now },
                                          now: now, plan: plan, catalog: catalog) {
                if !force { throw DosebarError.badData(refusal) }
                return .extra(m, overLimit: true)
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

    /// Why a dose of an as-needed medicine at `now` is beyond its limits, naming the limit, when the
    /// next dose is allowed and that `--force` records it anyway (DESIGN §2); nil within them.
    /// `taken`: the day's doses up to `now`; `dayCount`: all the day's doses (more than `taken` when back-dating).
    static func limitRefusal(_ m: Medication, _ maxPerDay: Int?, _ minInterval: Int?, taken: [Date], dayCount: Int? = nil,
                             now: Date, plan: DayPlan, catalog: Catalog) -> String? {
        let byGap = minInterval.flatMap { gap in taken.last.map { $0.addingTimeInterval(Double(gap)) } }
        let hint = m.name.contains(where: { $0 == " " || $0 == "'" }) ? "\"\(m.name)\"" : m.name
        func next(_ instant: Date) -> String {
            let local = plan.zone.local(instant), day = plan.zone.date(of: instant)
            let key = day == plan.date ? "limit.next.today" : day == plan.date.adding(days: 1) ? "limit.next.tomorrow" : "limit.next.date"
            return catalog.text(key, ["time": local.clock, "date": day.description])
        }
        let count = dayCount ?? taken.count
        if let max = maxPerDay, count >= max {
            // The day's count resets at the next midnight; a minimum interval may still reach past it.
            let allowed = Swift.max(plan.dayEnd, byGap ?? plan.dayEnd)
            return catalog.counted("error.limit.max_per_day", count,
                                   ["name": m.name, "max": String(max), "next": next(allowed), "force": hint])
        }
        if let gap = minInterval, let last = taken.last, let allowed = byGap, now < allowed {
            return catalog.text("error.limit.min_interval", ["name": m.name, "last": plan.zone.local(last).clock,
                                                             "gap": catalog.minutes(gap / 60), "next": next(allowed), "force": hint])
        }
        return nil
    }

    /// `take NAME --at X`: on X's day, the unresolved slot whose window contains X, else the nearest
    /// unresolved slot; an as-needed medicine logs an extra dose.
    public static func target(for m: Medication, plan: DayPlan, at x: Date, allowExtra: Bool, force: Bool = false,
                              catalog: Catalog = .english) throws -> Target {
        let open = plan.slots.filter { $0.key.medicationID == m.id && $0.event == nil }
        let inWindow = open.filter { abs($0.instant.timeIntervalSince(x)) <= Double($0.window) }
        if let best = (inWindow.isEmpty ? open : inWindow).min(by: { abs($0.instant.timeIntervalSince(x)) < abs($1.instant.timeIntervalSince(x)) }) {
            return .slot(best)
        }
        if allowExtra, let item = plan.asNeeded.first(where: { $0.medication.id == m.id }) {
            // Back-dated, the limits hold as at X: the day's doses, the last one before X.
            if let refusal = limitRefusal(m, item.maxPerDay, item.minInterval, taken: item.taken.filter { $0 <= x },
                                          dayCount: item.taken.count, now: x, plan: plan, catalog: catalog) {
                if !force { throw DosebarError.badData(refusal) }
                return .extra(m, overLimit: true)
            }
            return .extra(m)
        }
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
                               at: Date?, now: Date, next: Bool, force: Bool = false, catalog: Catalog = .english) throws -> [Target] {
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
                t = try target(for: m, plan: plan, at: at, allowExtra: taking, force: force, catalog: catalog)
            } else if !taking {
                t = try skipTarget(for: m, plan: plan, now: now, catalog: catalog)
            } else {
                t = try target(for: m, plan: plan, now: now, allowExtra: true, force: force, catalog: catalog)
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
