import DoseCore
import DoseStore
import Foundation

/// Applies an ``ImportPlan`` in one write transaction: all of it or nothing, and idempotent — a
/// slot already resolved, or an as-needed dose already logged at the same second, is "already
/// there" and adds nothing. Imported doses do not move stock (the stock on hand is what it is now).
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
            return try store.write { w in
                let summary = try apply(plan, in: w, progress)
                if dryRun { throw DryRun(summary: summary) }
                return summary
            }
        } catch let dry as DryRun {
            var summary = dry.summary
            summary.dryRun = true
            return summary
        }
    }

    private func apply(_ plan: ImportPlan, in w: StoreWriter, _ progress: WorkProgress) throws -> ImportSummary {
        let journal = try SyncJournal.open(w, context)
        let summary = try apply(plan, in: w, journal, progress)
        try journal?.finish()
        return summary
    }

    private func apply(_ plan: ImportPlan, in w: StoreWriter, _ journal: SyncJournal?, _ progress: WorkProgress) throws -> ImportSummary {
        let zone = context.zone, today = context.today
        let logged = try w.reader.actionInstant(now: context.now)
        var summary = ImportSummary()
        summary.missed = plan.missed
        summary.noEquivalent = plan.noEquivalent
        var earliest: LocalDate?
        func touched(_ d: LocalDate) { earliest = min(earliest ?? d, d) }

        // Medicines: an active one of that name first, else the newest archived one, else a new one.
        var byKey: [String: Medication] = [:]
        let existing = try w.reader.medications(includeArchived: true)
        for pm in plan.medicines {
            let key = Medication.nameKey(pm.name)
            if byKey[key] != nil { continue }
            let same = existing.filter { Medication.nameKey($0.name) == key }
            if let m = same.first(where: { $0.archivedOn == nil }) ?? same.last {
                byKey[key] = m
                summary.reused.append(m.name)
                continue
            }
            // Tracked from now or the first miss the file records, and from each imported dose before that (``insert``).
            var template = pm.template
            template.trackedFrom = min(context.now, plan.firstMissed[key] ?? context.now)
            let id = try w.insertMedication(template)
            guard let m = try w.reader.medication(id: id) else { throw DosebarError.internal("imported medicine #\(id) vanished") }
            byKey[key] = m
            try journal?.added(m)
            let schedule = m.currentSchedule.map { s in
                let times = s.times.map(\.description).joined(separator: ", ")
                return context.catalog.describe(s) + (times.isEmpty ? "" : " " + times)
            } ?? ""
            summary.added.append((m.name, schedule, pm.origin))
            if let start = m.versions.map(\.schedule.start).min() { touched(start) }
        }

        // What is already there, over the days the doses fall on.
        let days = plan.doses.map { dose -> LocalDate in
            switch dose.slot {
            case .nominal(let d, _), .instant(let d, _): d
            case .asNeeded: zone.date(of: dose.at)
            }
        }
        guard let first = days.min(), let last = days.max() else {
            if let earliest { try w.historyChanged(on: earliest, today: today) }
            return summary
        }
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
        var plans: [LocalDate: DayPlan] = [:]
        func dayPlan(of day: LocalDate) -> DayPlan {
            if let p = plans[day] { return p }
            let p = DayPlan(date: day, medications: planned, events: [], zone: zone, carry: false)
            plans[day] = p
            return p
        }
        var unmatched: [String: (name: String, taken: Int, skipped: Int)] = [:]
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
            let asNeeded = dayPlan.asNeeded.contains { $0.medication.id == m.id }
            if let slot {
                if resolved.contains(slot.key) { summary.alreadyThere += 1; continue }
                resolved.insert(slot.key)
                try insert(dose, medication: m, slot: slot.key, day: day, logged: logged, in: w, journal, &summary)
            } else if asNeeded && dose.kind == .taken {
                let key = Self.instantKey(m.id, dose.at)
                if asNeededAt.contains(key) { summary.alreadyThere += 1; continue }
                asNeededAt.insert(key)
                try insert(dose, medication: m, slot: nil, day: zone.date(of: dose.at), logged: logged, in: w, journal, &summary)
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
        if let earliest { try w.historyChanged(on: earliest, today: today) }
        return summary
    }

    /// Writes one imported event: no stock moves (`stock_delta` 0), logged at the import's instant.
    private func insert(_ dose: ImportPlan.Dose, medication m: Medication, slot: SlotKey?, day: LocalDate, logged: Date,
                        in w: StoreWriter, _ journal: SyncJournal?, _ summary: inout ImportSummary) throws {
        let event = DoseEvent(id: 0, medicationID: m.id, kind: dose.kind, slot: slot, at: dose.at, loggedAt: logged,
                              stockDelta: 0, timeKnown: dose.timeKnown, overLimit: dose.overLimit)
        let id = try w.insertEvent(event, day: day)
        // A dose before the tracking start moves it (DESIGN §3): the operation says so, for other devices.
        let moved = try w.trackFrom(medicationID: m.id, noLaterThan: dose.at)
        try journal?.dose(event, eventID: id, day: day, medication: m, units: 0, trackedFrom: moved ? dose.at : nil)
        if dose.kind == .taken { summary.taken += 1 } else { summary.skipped += 1 }
        if dose.kind == .taken && !dose.timeKnown { summary.timeUnknown += 1 }
    }

    /// An as-needed dose's identity: the medicine and the whole second it was taken at.
    private static func instantKey(_ id: Int64, _ at: Date) -> String {
        "\(id)@\(Int(unixSecondsOf: at))"
    }
}
