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
        guard !name.isBlank else {
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

    /// The slots of `m` a take or skip can reach from `plan`: yesterday's still open after midnight
    /// (carried), the day's, and the next day's when given; in time order. `untracked`: also those
    /// before the medicine's tracking start (only a back-dated or named dose reaches them).
    static func slots(of m: Medication, plan: DayPlan, following: DayPlan?, untracked: Bool = false) -> [PlannedSlot] {
        var out = plan.carried.filter { $0.key.medicationID == m.id } + plan.slots.filter { $0.key.medicationID == m.id }
        if untracked { out += (plan.carriedUntracked + plan.untracked).filter { $0.key.medicationID == m.id } }
        if let following { out += following.slots.filter { $0.key.medicationID == m.id } }
        return out.sorted { $0.instant < $1.instant }
    }

    /// `take NAME` (or `skip NAME`) at `now` with no `--at` (DESIGN §2): the medicine's open slot,
    /// whatever day it belongs to (a 22:00 dose taken at 00:30 is last night's); else its next slot if
    /// that opens within the window; else a dose of an as-needed medicine; else exit 65 saying when
    /// it is next due. Never two doses: a forgotten slot that closed is missed, not caught up.
    /// `following` is asked only when no slot of the day (or carried) is open or to come: the next
    /// day's slots come after all of those, and are never open within the day.
    /// A slot with a dose is never picked again, even one logged for a time after `now` (a clock
    /// that stepped back): when it is the one this take would pick, exit 65 naming that dose.
    public static func target(for m: Medication, plan: DayPlan, following: () throws -> DayPlan? = { nil }, now: Date,
                              allowExtra: Bool, force: Bool = false, catalog: Catalog = .english) throws -> Target {
        var mine = slots(of: m, plan: plan, following: nil)
        if let open = mine.first(where: { $0.isFree(at: now) }) { return .slot(open) }
        var upcoming = mine.first { $0.event == nil && $0.status(at: now) == .upcoming }
        if upcoming == nil, let following = try following() {
            mine = slots(of: m, plan: plan, following: following)
            upcoming = mine.first { $0.event == nil && $0.status(at: now) == .upcoming }
        }
        if let soon = upcoming, soon.opensWithinWindow(after: now) { return .slot(soon) }
        if let taken = mine.first(where: {
            $0.isResolvedLater(than: now) && ($0.spans(now) || $0.opensWithinWindow(after: now))
        }) {
            throw resolved(taken, plan: plan, today: plan.zone.date(of: now), catalog: catalog)
        }
        if allowExtra, let item = plan.asNeeded.first(where: { $0.medication.id == m.id }) {
            if let refusal = limitRefusal(m, item.maxPerDay, item.minInterval, taken: item.taken.filter { $0 <= now },
                                          now: now, plan: plan, catalog: catalog) {
                if !force { throw DosebarError.badData(refusal) }
                return .extra(m, overLimit: true)
            }
            return .extra(m)
        }
        // A slot that would be open but is before the medicine was added: ask, do not guess.
        if let early = plan.untracked.first(where: { $0.key.medicationID == m.id && $0.isOpen(at: now) }) {
            throw untracked(early, plan: plan, catalog: catalog)
        }
        if let upcoming {
            let day = plan.zone.date(of: upcoming.instant), time = plan.zone.local(upcoming.instant).clock
            if day == plan.date {
                throw DosebarError.badData(catalog.text("error.not_due", ["name": m.name, "time": time]))
            }
            throw DosebarError.badData(catalog.text("error.not_due.day", ["name": m.name, "when": nextWhen(day, time, plan: plan, catalog)]))
        }
        if !mine.contains(where: { $0.key.date == plan.date }) {
            throw DosebarError.badData(catalog.text("error.not_scheduled_today", ["name": m.name]))
        }
        throw DosebarError.badData(catalog.text("error.nothing_to_take", ["name": m.name]))
    }

    /// `tomorrow at 08:00`, `on 2026-11-26 at 08:00`.
    private static func nextWhen(_ day: LocalDate, _ time: String, plan: DayPlan, _ catalog: Catalog) -> String {
        day == plan.date.adding(days: 1) ? catalog.text("next.tomorrow", ["time": time])
            : catalog.text("next.date", ["time": time, "date": day.description])
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

    /// `take NAME --at X` (DESIGN §2): the slot `take NAME` would have picked at X, whether or not it
    /// has been resolved since — open at X (T ≤ X < C), else opening within its window (T − W ≤ X < T).
    /// An unresolved one wins; when the slot X points at is already taken or skipped, exit 65 naming
    /// it ("the 08:00 dose was taken at 07:50"), never a slot hours away. Slots before the medicine's
    /// tracking start count: a back-dated dose makes them tracked. An as-needed medicine logs a dose.
    public static func target(for m: Medication, plan: DayPlan, following: () throws -> DayPlan? = { nil }, at x: Date,
                              allowExtra: Bool, force: Bool = false, now: Date? = nil, catalog: Catalog = .english) throws -> Target {
        let mine = slots(of: m, plan: plan, following: try following(), untracked: true)
        let openAtX = mine.filter { $0.spans(x) }
        let opening = mine.filter { $0.opensWithinWindow(after: x) }
        if let free = openAtX.first(where: { $0.event == nil }) ?? opening.first(where: { $0.event == nil }) { return .slot(free) }
        if let resolved = openAtX.first ?? opening.first {
            throw Self.resolved(resolved, plan: plan, today: now.map(plan.zone.date(of:)) ?? plan.date, catalog: catalog)
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
        let local = plan.zone.local(x)
        let when = plan.zone.date(of: x) == (now.map(plan.zone.date(of:)) ?? plan.date) ? local.clock
            : catalog.text("confirm.slot.date", ["time": local.clock, "date": plan.zone.date(of: x).description])
        if let next = mine.first(where: { $0.instant > x }) {
            let day = plan.zone.date(of: next.instant), time = plan.zone.local(next.instant).clock
            throw DosebarError.badData(catalog.text("error.nothing_at", [
                "name": m.name, "when": when,
                "next": day == plan.zone.date(of: x) ? time : nextWhen(day, time, plan: plan, catalog)]))
        }
        throw DosebarError.badData(catalog.text("error.nothing_at.none", ["name": m.name, "when": when]))
    }

    /// `--slot [DATE ]HH:MM`: the dose of `m` at that nominal time on `plan`'s day, tracked or not;
    /// exit 65 when it does not exist (listing that day's doses) or is already resolved.
    public static func named(_ m: Medication, time: LocalTime, plan: DayPlan, today: LocalDate,
                             catalog: Catalog = .english) throws -> Target {
        let day = (plan.slots + plan.untracked).filter { $0.key.medicationID == m.id }.sorted { $0.instant < $1.instant }
        guard let slot = day.first(where: { $0.key.time == time }) else {
            let times = day.map(\.key.time.description).joined(separator: ", ")
            throw DosebarError.badData(catalog.text("error.no_slot", [
                "name": m.name, "time": time.description, "date": plan.date.description,
                "times": times.isEmpty ? "" : catalog.text("error.no_slot.times", ["times": times])]))
        }
        if slot.event != nil { throw resolved(slot, plan: plan, today: today, catalog: catalog) }
        return .slot(slot)
    }

    /// `today`, `yesterday's 22:00`, `2026-11-20 22:00`: a slot named relative to `today`.
    public static func slotName(_ slot: PlannedSlot, zone: Zone, today: LocalDate, catalog: Catalog) -> String {
        let time = zone.local(slot.instant).clock
        let key = slot.key.date == today ? "slot.named.today" : slot.key.date == today.adding(days: -1) ? "slot.named.yesterday"
            : slot.key.date == today.adding(days: 1) ? "slot.named.tomorrow" : "slot.named"
        return catalog.text(key, ["time": time, "date": slot.key.date.description])
    }

    /// The medicine's name as it is typed in a command (quoted when it holds a space or quote).
    static func hint(_ m: Medication) -> String {
        m.name.contains(where: { $0 == " " || $0 == "'" }) ? "\"\(m.name)\"" : m.name
    }

    /// "the 08:00 dose was taken at 07:50".
    static func resolved(_ slot: PlannedSlot, plan: DayPlan, today: LocalDate, catalog: Catalog) -> DosebarError {
        let e = slot.event!
        let local = plan.zone.local(e.at), day = plan.zone.date(of: e.at)
        let when = day == today ? local.clock : catalog.text("confirm.slot.date", ["time": local.clock, "date": day.description])
        let args = ["name": slot.medication.name, "slot": slotName(slot, zone: plan.zone, today: today, catalog: catalog),
                    "when": when, "hint": hint(slot.medication),
                    "unknown": e.timeKnown ? "" : catalog.text("error.slot_taken.unknown")]
        return .badData(catalog.text(e.kind == .skipped ? "error.slot_skipped" : "error.slot_taken", args))
    }

    /// A slot before the medicine's tracking start: named, with the command that records it.
    static func untracked(_ slot: PlannedSlot, plan: DayPlan, verb: String = "take", catalog: Catalog) -> DosebarError {
        let m = slot.medication
        let added = m.trackedFrom.map { t in
            let day = plan.zone.date(of: t)
            return day == plan.date ? plan.zone.local(t).clock
                : catalog.text("confirm.slot.date", ["time": plan.zone.local(t).clock, "date": day.description])
        } ?? ""
        let key = slot.key.date == plan.date ? slot.key.time.description : "\"\(slot.key.date) \(slot.key.time)\""
        return .badData(catalog.text("error.untracked", ["name": m.name, "hint": hint(m), "added": added, "key": key, "verb": verb,
                                                        "slot": slotName(slot, zone: plan.zone, today: plan.date, catalog: catalog)]))
    }

    /// `take` with no names (a bar click, a notification's "Taken"): each medicine's open slot, one
    /// per medicine whatever day it belongs to; with `next`, when none is open at all, every slot at
    /// the earliest upcoming time today whose window has opened (T − W ≤ now; one per medicine):
    /// a double-click at 08:01 never takes the 18:00 dose. `at`: as it was then, of slots not
    /// resolved since. A slot with a dose logged for a time after `now` (a clock that stepped back)
    /// is open by the clock but never taken again: it holds its medicine's turn and is left out.
    public static func dueSlots(plan: DayPlan, now: Date, next: Bool) -> [PlannedSlot] {
        var seen = Set<Int64>()
        let open = (plan.carried + plan.slots).filter { $0.event.map { $0.at > now } ?? true && $0.instant <= now && now < $0.cutoff }
            .sorted { $0.instant < $1.instant }
            .filter { seen.insert($0.key.medicationID).inserted }
        // In display order: carried first, then the day's, each by time and name.
        let order = Dictionary((plan.carried + plan.slots).enumerated().map { ($1.key, $0) }) { a, _ in a }
        let due = open.filter { $0.event == nil }.sorted { order[$0.key]! < order[$1.key]! }
        if !due.isEmpty || !next || !open.isEmpty { return due }
        let upcoming = plan.slots.filter {
            $0.event == nil && $0.status(at: now) == .upcoming && $0.opensWithinWindow(after: now)
        }
        guard let first = upcoming.first else { return [] }
        var once = Set<Int64>()
        return upcoming.filter { $0.instant == first.instant && once.insert($0.key.medicationID).inserted }
    }

    /// What `take`/`skip` with `names` (every open dose when empty) means on `plan`'s day: at `at`
    /// (back-dating) or now; `slot`: the dose named by `--slot` (on `plan`'s day). A slot named twice is recorded once.
    /// `following`: the next day's plan, built only when a named medicine needs it.
    public static func targets(names: [String], taking: Bool, plan: DayPlan, following: () throws -> DayPlan? = { nil },
                               medications: [Medication],
                               at: Date?, now: Date, next: Bool, force: Bool = false, slot: LocalTime? = nil,
                               catalog: Catalog = .english) throws -> [Target] {
        if names.isEmpty {
            if slot != nil { throw DosebarError.usage(catalog.text("error.slot_needs_name")) }
            let when = at ?? now
            let slots = dueSlots(plan: plan, now: when, next: next && at == nil)
            guard !slots.isEmpty else {
                if let at {
                    let local = plan.zone.local(at), day = plan.zone.date(of: at)
                    let when = day == plan.zone.date(of: now) ? local.clock
                        : catalog.text("confirm.slot.date", ["time": local.clock, "date": day.description])
                    throw DosebarError.badData(catalog.text("error.nothing_open_at", ["when": when]))
                }
                throw nothingDue(plan: plan, following: try following(), at: when, catalog: catalog)
            }
            return slots.map { .slot($0) }
        }
        let today = plan.zone.date(of: now)
        var targets: [Target] = []
        for name in names {
            let m = try match(name, in: medications, catalog: catalog)
            let t: Target
            if let slot {
                t = try named(m, time: slot, plan: plan, today: today, catalog: catalog)
            } else if let at {
                t = try target(for: m, plan: plan, following: following, at: at, allowExtra: taking, force: force, now: now,
                               catalog: catalog)
            } else if !taking {
                t = try skipTarget(for: m, plan: plan, now: now, catalog: catalog)
            } else {
                t = try target(for: m, plan: plan, following: following, now: now, allowExtra: true, force: force, catalog: catalog)
            }
            if case .slot(let s) = t, targets.contains(where: { if case .slot(let o) = $0 { o.key == s.key } else { false } }) {
                continue
            }
            targets.append(t)
        }
        return targets
    }

    /// `skip NAME` with no `--at`: its open dose (whatever day), else its next one today.
    public static func skipTarget(for m: Medication, plan: DayPlan, now: Date, catalog: Catalog = .english) throws -> Target {
        let mine = slots(of: m, plan: plan, following: nil)
        if let s = mine.first(where: { $0.isFree(at: now) })
            ?? mine.first(where: { $0.event == nil && $0.status(at: now) == .upcoming && $0.key.date == plan.date }) {
            return .slot(s)
        }
        // Resolved by a dose logged for a later time (a clock that stepped back): not skipped over it.
        if let taken = mine.first(where: {
            $0.isResolvedLater(than: now) && ($0.isOpen(at: now) || $0.status(at: now) == .upcoming && $0.key.date == plan.date)
        }) {
            throw resolved(taken, plan: plan, today: plan.zone.date(of: now), catalog: catalog)
        }
        if let early = plan.untracked.first(where: { $0.key.medicationID == m.id && $0.isOpen(at: now) }) {
            throw untracked(early, plan: plan, verb: "skip", catalog: catalog)
        }
        throw DosebarError.badData(catalog.text(mine.contains { $0.key.date == plan.date } ? "error.nothing_to_skip" : "error.not_scheduled_today",
                                                ["name": m.name]))
    }

    /// `take` with no names when nothing is to take: names the next dose (its medicines, when
    /// several share its time) and, on the day, how to take it early on purpose (`--slot`; a dose
    /// of a day to come cannot be named, DoseRecorder). `following`: the next day's plan.
    public static func nothingDue(plan: DayPlan, following: DayPlan? = nil, at: Date, catalog: Catalog = .english) -> DosebarError {
        let ahead = { (slots: [PlannedSlot]) in slots.filter { $0.event == nil && $0.status(at: at) == .upcoming } }
        let upcoming = ahead(plan.slots).isEmpty ? ahead(following?.slots ?? []) : ahead(plan.slots)
        guard let next = upcoming.first else { return .badData(catalog.text("error.nothing_due")) }
        var names: [String] = []
        for s in upcoming where s.instant == next.instant && !names.contains(s.medication.name) { names.append(s.medication.name) }
        let time = plan.zone.local(next.instant).clock, day = plan.zone.date(of: next.instant)
        let name = names.joined(separator: catalog.listSeparator)
        if day == plan.zone.date(of: at), next.key.date == plan.date {
            return .badData(catalog.text("error.nothing_due_next", ["name": name, "time": time, "hint": hint(next.medication),
                                                                    "slot": next.key.time.description]))
        }
        return .badData(catalog.text("error.nothing_due_next.day", ["name": name, "when": nextWhen(day, time, plan: plan, catalog)]))
    }
}

extension PlannedSlot {
    /// Open at `t` and without a dose: a take or skip may record it. (``isOpen(at:)`` alone would
    /// also say yes of a slot whose dose is logged for a time after `t`.)
    func isFree(at t: Date) -> Bool { event == nil && isOpen(at: t) }

    /// Resolved by a dose logged for a time after `t`: a snapshot at `t` does not count it yet
    /// (DESIGN §3), but it is taken (or skipped), and never recorded a second time.
    func isResolvedLater(than t: Date) -> Bool { event.map { $0.at > t } ?? false }
}
