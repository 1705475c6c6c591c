import DoseCore
import DoseStore
import Foundation

/// Applies an ``ImportPlan`` in one write transaction: all of it or nothing, and idempotent — a
/// slot already resolved, or a dose without a slot (as needed, or an extra dose of a scheduled
/// medicine) already logged at the same second, is "already there" and adds nothing. Imported
/// doses do not move stock (the stock on hand is what it is now).
/// A medicine is tracked from its earliest imported dose when that is earlier than its tracking start
/// (a new one's: the import's now).
public struct ImportService {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// Thrown inside the transaction of a dry run so that nothing is committed.
    private struct DryRun: Error { var summary: ImportSummary }

    /// Writes what `plan` brings (or, with `dryRun`, only says what it would write); `progress`
    /// counts its doses.
    public func apply(_ plan: ImportPlan, dryRun: Bool, progress: WorkProgress = .silent) throws -> ImportSummary {
        do {
            return try context.change(store, progress: progress) { scope in
                let summary = try apply(plan, in: scope, progress)
                if dryRun { throw DryRun(summary: summary) }
                return summary
            }
        } catch let dry as DryRun {
            var summary = dry.summary
            summary.dryRun = true
            return summary
        }
    }

    private func apply(_ plan: ImportPlan, in scope: WriteScope, _ progress: WorkProgress) throws -> ImportSummary {
        let w = scope.writer, journal = try scope.journal()
        let zone = context.zone
        let logged = try w.reader.actionInstant(now: context.now)
        var summary = ImportSummary()
        summary.missed = plan.missed
        summary.noEquivalent = plan.noEquivalent
        func touched(_ d: LocalDate) { scope.historyChanged(on: d) }

        // Medicines: an active one of that name first, else the newest archived one, else a new one.
        var byKey: [String: Medication] = [:]
        var lineOf: [Int64: Int] = [:]
        let existing = try w.reader.medications(includeArchived: true)
        for pm in plan.medicines {
            let key = Medication.nameKey(pm.name)
            if byKey[key] != nil { continue }
            let same = existing.filter { Medication.nameKey($0.name) == key }
            if let m = same.first(where: { $0.archivedOn == nil }) ?? same.last {
                byKey[key] = m
                summary.reused.append(m.name)
                lineOf[m.id] = summary.medicines.count
                var line = ImportSummary.Line(name: m.name, added: false)
                line.missed = plan.missedBy[key] ?? 0
                summary.medicines.append(line)
                continue
            }
            // Tracked from now or the first miss the file records, and from each imported dose before that (``insert``).
            var template = pm.template
            template.trackedFrom = min(context.now, plan.firstMissed[key] ?? context.now)
            let id = try w.insertMedication(template)
            guard let m = try w.reader.medication(id: id) else { throw DosebarError.internal("imported medicine #\(id) vanished") }
            byKey[key] = m
            try journal?.added(m)
            let schedule = m.currentSchedule.map(context.catalog.describeWithTimes) ?? ""
            summary.added.append((m.name, schedule, pm.origin))
            lineOf[m.id] = summary.medicines.count
            var line = ImportSummary.Line(name: m.name, added: true)
            line.missed = plan.missedBy[key] ?? 0
            line.versions = m.versions.count
            line.stock = m.stock
            summary.medicines.append(line)
            if let start = m.versions.map(\.schedule.start).min() { touched(start) }
        }

        // What is already there, over the days the doses fall on.
        let days = plan.doses.map { dose -> LocalDate in
            switch dose.slot {
            case .nominal(let d, _), .instant(let d, _): d
            case .asNeeded: zone.date(of: dose.at)
            }
        }
        // An extra dose is stored on the day it was taken, which can follow its slot's day (00:30 after a 22:00).
        let stored = days + plan.doses.map { zone.date(of: $0.at) }
        guard let first = stored.min(), let last = stored.max() else { return summary }
        var resolved = Set<SlotKey>()
        var asNeededAt = Set<String>()
        for e in try w.reader.events(days: first...last) {
            if let slot = e.slot { resolved.insert(slot) } else if e.kind == .taken { asNeededAt.insert(Self.instantKey(e.medicationID, e.at)) }
        }
        // Plans see a medicine on the day it was archived, as history does: what was logged that day stays.
        // And every slot, tracked or not: an imported dose makes its slot tracked (DESIGN §3).
        let planned = byKey.values.map { m -> Medication in
            var m = m
            m.archivedOn = m.archivedOn?.adding(days: 1)
            m.trackedFrom = nil
            return m
        }
        let plannedByID = Dictionary(planned.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var plans: [LocalDate: DayPlan] = [:]
        func dayPlan(of day: LocalDate) -> DayPlan {
            if let p = plans[day] { return p }
            let p = DayPlan(date: day, medications: planned, events: [], zone: zone, carry: false)
            plans[day] = p
            return p
        }
        var unmatched: [String: (name: String, taken: Int, skipped: Int)] = [:]
        // Each medicine's tracking start as the import moves it: the store is asked to move it only for
        // a dose before it (why: Benchmarks/README.md, "Measured reasons in the code"). Nil: never moves.
        var tracked: [Int64: Date] = [:]
        for m in byKey.values { if let t = m.trackedFrom { tracked[m.id] = t } }
        progress.begin(.doses, total: plan.doses.count)
        defer { progress.end() }
        for (i, (dose, day)) in zip(plan.doses, days).enumerated() {
            progress.step(i)
            guard let m = byKey[Medication.nameKey(dose.name)] else {
                throw DosebarError.internal("import: \(dose.name) has a dose but no medicine")
            }
            let dayPlan = dayPlan(of: day)
            var slot: PlannedSlot?
            switch dose.slot {
            case .nominal(_, let time):
                slot = dayPlan.slots.first { $0.key.medicationID == m.id && $0.key.time == time }
            case .instant(_, let instant):
                slot = dayPlan.slots.first { $0.key.medicationID == m.id && Int(unixSecondsOf: $0.instant) == Int(unixSecondsOf: instant) }
            case .asNeeded:
                break
            }
            // A take without a slot is a dose at its own instant: as needed, or an extra dose of a
            // scheduled medicine on a day its schedule is in force (history shows it with the as-needed ones).
            let takenOn = zone.date(of: dose.at)
            let asPlanned = plannedByID[m.id]
            let scheduled = asPlanned.map { Self.inForce($0, on: takenOn) && !($0.schedule(on: takenOn)?.recurrence.isAsNeeded ?? true) } ?? false
            let withoutSlot = dose.kind == .taken && slot == nil && (dayPlan.asNeeded.contains { $0.medication.id == m.id } || scheduled)
            var line = summary.medicines[lineOf[m.id]!]
            defer { summary.medicines[lineOf[m.id]!] = line }
            if let slot {
                if resolved.contains(slot.key) { summary.alreadyThere += 1; line.alreadyThere += 1; continue }
                resolved.insert(slot.key)
                try insert(dose, medication: m, slot: slot.key, day: day, logged: logged, in: w, journal, &summary, &line, &tracked)
            } else if withoutSlot {
                let key = Self.instantKey(m.id, dose.at)
                if asNeededAt.contains(key) { summary.alreadyThere += 1; line.alreadyThere += 1; continue }
                asNeededAt.insert(key)
                try insert(dose, medication: m, slot: nil, day: takenOn, logged: logged, in: w, journal, &summary, &line, &tracked)
                if scheduled { summary.extra += 1; line.extra += 1 }
                touched(takenOn)
                continue
            } else {
                var u = unmatched[m.name.lowercased()] ?? (m.name, 0, 0)
                if dose.kind == .taken { u.taken += 1 } else { u.skipped += 1 }
                unmatched[m.name.lowercased()] = u
                continue
            }
            touched(day)
        }
        for (_, u) in unmatched.sorted(by: { $0.key < $1.key }) {
            summary.noEquivalent.append(context.catalog.text("import.no_slot", ["name": u.name, "taken": String(u.taken),
                                                                              "skipped": String(u.skipped)]))
        }
        return summary
    }

    /// Writes one imported event: no stock moves (`stock_delta` 0), logged at the import's instant.
    private func insert(_ dose: ImportPlan.Dose, medication m: Medication, slot: SlotKey?, day: LocalDate, logged: Date,
                        in w: StoreWriter, _ journal: SyncJournal?, _ summary: inout ImportSummary,
                        _ line: inout ImportSummary.Line, _ tracked: inout [Int64: Date]) throws {
        let event = DoseEvent(id: 0, medicationID: m.id, kind: dose.kind, slot: slot, at: dose.at, loggedAt: logged,
                              stockDelta: 0, timeKnown: dose.timeKnown, overLimit: dose.overLimit, origin: .import)
        let id = try w.insertEvent(event, day: day)
        // A dose before the tracking start moves it (DESIGN §3): the operation says so, for other devices.
        var moved = false
        if let from = tracked[m.id], dose.at < from {
            moved = try w.trackFrom(medicationID: m.id, noLaterThan: dose.at)
            tracked[m.id] = dose.at
        }
        try journal?.dose(event, eventID: id, day: day, medication: m, units: 0, trackedFrom: moved ? dose.at : nil)
        if dose.kind == .taken { summary.taken += 1; line.taken += 1 } else { summary.skipped += 1; line.skipped += 1 }
        if dose.kind == .taken && !dose.timeKnown { summary.timeUnknown += 1; line.timeUnknown += 1 }
    }

    /// Whether a schedule of `m` is in force on `day` (its course, not whether a dose falls on it).
    private static func inForce(_ m: Medication, on day: LocalDate) -> Bool {
        guard let s = m.schedule(on: day) else { return false }
        return s.start <= day && s.until.map { day <= $0 } ?? true
    }

    /// An as-needed dose's identity: the medicine and the whole second it was taken at
    /// (``DoseEvent/second(of:)``).
    private static func instantKey(_ id: Int64, _ at: Date) -> String {
        "\(id)@\(DoseEvent.second(of: at))"
    }
}
