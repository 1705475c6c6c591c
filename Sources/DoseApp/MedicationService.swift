import DoseCore
import DoseStore
import Foundation

/// Adds, changes and archives medicines. A schedule change never rewrites the past: it is a new
/// version from its effective day on, and summaries from a past day on are recomputed.
public struct MedicationService {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// The medicines (with the archived ones when `includeArchived`), for `list` and completion.
    public func medications(includeArchived: Bool) throws -> [Medication] {
        try store.read { try $0.medications(includeArchived: includeArchived) }
    }

    /// Adds `medication` (its id is ignored) with its schedule versions; a name an active
    /// medicine has (in any letter case or Unicode form) is refused by the store. It is tracked
    /// from now (DESIGN §3 Tracking start) unless it says otherwise.
    public func add(_ medication: Medication) throws {
        var medication = medication
        if medication.trackedFrom == nil { medication.trackedFrom = context.now }
        // An amount per time lives in the versions (the medicine's row has one amount).
        if let list = medication.perDoseTimes {
            for i in medication.versions.indices where medication.versions[i].dosing == nil {
                medication.versions[i].dosing = Dosing(text: medication.dose, perDose: medication.perDose, perTime: list)
            }
        }
        try context.change(store) { scope in
            let w = scope.writer
            let id = try w.insertMedication(medication)
            if let journal = try scope.journal(), let added = try w.reader.medication(id: id) {
                try journal.added(added)
            }
            if let start = medication.versions.map(\.schedule.start).min() { scope.historyChanged(on: start) }
        }
    }

    /// Changes the active medicine `name` names: `change` edits its details (seeing the dose text
    /// and amount in force on `effective`), `schedule` (if given) builds the schedule in force from
    /// `effective` on out of the one in force then. A new dose text or amount is a dose version
    /// from `effective` on (DESIGN §2 `edit`): the days before keep theirs. Returns the medicine and
    /// its new schedule.
    public func edit(_ name: String, change: (inout Medication) throws -> Void, effective: LocalDate,
                     schedule: ((Schedule?) throws -> Schedule)?) throws -> (Medication, Schedule?) {
        try context.change(store) { scope in
            let w = scope.writer
            let before = try DoseResolver.match(name, in: try w.reader.medications(includeArchived: true), catalog: context.catalog)
            // The change sees the dose of its day, not the newest one.
            let dosingBefore = before.dosing(on: effective)
            var m = before.on(effective)
            try change(&m)
            let dosing = Dosing(text: m.dose, perDose: m.perDose, perTime: m.perDoseTimes)
            let first = before.versions.map(\.effective).min()
            let doseChanged = dosing != dosingBefore && first != nil
            // A version before the first one would be overridden by it from its day on and decide
            // nothing (the days before are not the medicine's): refused, naming the first day (65:
            // a well-formed date that this medicine's data rules out, like an unknown name).
            if schedule != nil, let first, effective < first {
                throw DosebarError.badData(context.catalog.text("error.effective_before_start",
                                                                ["name": before.name, "date": first.description]))
            }
            // A dose change alone before the first day (a medicine that starts later) is its dose from the start.
            let doseFrom = max(effective, first ?? effective)
            // The medicine's own dose is what versions without one of their own read (and what a
            // device of an older dosebar shows): the new one once it is in force today.
            if first != nil && (!doseChanged || doseFrom > context.today) {
                m.dose = before.dose; m.perDose = before.perDose
            }
            m.perDoseTimes = nil
            m.versions = before.versions
            try w.updateMedication(m)
            let journal = try scope.journal()
            var written: [ScheduleVersion] = []
            var new: Schedule?
            if let schedule {
                new = try schedule(before.schedule(on: effective) ?? before.currentSchedule)
            }
            // New times with amounts per time that name the old ones: which amount goes with which
            // new time is the person's to say (a usage error: nothing is written).
            let kept = doseChanged ? dosing : before.version(on: effective)?.dosing
            if let new, let kept, let list = kept.perTime, list.map(\.time) != new.times {
                throw DosebarError.usage(context.catalog.text("usage.per_dose_times_stale",
                                                              ["name": before.name, "amounts": context.catalog.amounts(kept)]))
            }
            if doseChanged {
                written = Self.doseVersions(before, dosing: dosing, from: doseFrom, schedule: new)
            } else if let new {
                // A schedule change keeps the dose in force on its day.
                written = [ScheduleVersion(effective: effective, schedule: new, dosing: before.version(on: effective)?.dosing)]
            }
            for v in written { try w.putVersion(medicationID: m.id, v) }
            try journal?.edited(from: before, to: m, versions: written)
            if !written.isEmpty { scope.scheduleChanged(on: min(effective, doseFrom)) }
            guard let stored = try w.reader.medication(id: m.id) else { throw DosebarError.internal("edit: \(m.name) is gone") }
            return (stored, new)
        }
    }

    /// The versions a dose change from `effective` writes: every version without a dose of its own
    /// gets the one it showed (the medicine's), so the days before keep it; a version on `effective`
    /// (the one in force then, or `schedule`) gets `dosing`, and so does each later one up to the
    /// first that already changes the dose (a change planned for a later day stays).
    static func doseVersions(_ m: Medication, dosing: Dosing, from effective: LocalDate, schedule: Schedule?) -> [ScheduleVersion] {
        let base = Dosing(text: m.dose, perDose: m.perDose, perTime: m.perDoseTimes)
        var versions = m.versions.map { v -> ScheduleVersion in
            var v = v
            if v.dosing == nil { v.dosing = base }
            return v
        }
        let changed = Set(m.versions.indices.filter { m.versions[$0].dosing == nil })
        var out: [ScheduleVersion] = []
        let old = m.dosing(on: effective)
        var onDay = false
        var replacing = true
        for i in versions.indices {
            var v = versions[i]
            var touched = changed.contains(i)
            if v.effective == effective {
                onDay = true
                if let schedule { v.schedule = schedule }
                v.dosing = dosing
                touched = true
            } else if v.effective > effective && replacing {
                // Amounts per time go on only to versions of the same times (a later version of
                // other times keeps its own dose, as a change planned for later does).
                let fits = dosing.perTime.map { $0.map(\.time) == v.schedule.times } ?? true
                if v.dosing == old && fits { v.dosing = dosing; touched = true } else { replacing = false }
            }
            versions[i] = v
            if touched { out.append(v) }
        }
        if !onDay, let s = schedule ?? m.version(on: effective)?.schedule ?? m.versions.first?.schedule {
            out.append(ScheduleVersion(effective: effective, schedule: s, dosing: dosing))
        }
        return out.sorted { $0.effective < $1.effective }
    }

    /// Archives the medicine `name` names from today on; its history stays. Returns its name.
    public func remove(_ name: String) throws -> String {
        try context.change(store) { scope in
            let w = scope.writer
            var m = try DoseResolver.match(name, in: try w.reader.medications(includeArchived: true), catalog: context.catalog)
            m.archivedOn = context.today
            try w.updateMedication(m)
            // Its last open dose now has no next one: yesterday's cut-offs may move.
            scope.scheduleChanged(on: context.today)
            try scope.journal()?.archived(m)
            return m.name
        }
    }

    /// What ``resume(_:)`` did.
    public struct Resumed: Sendable {
        public var medication: Medication
        /// The day it had been archived on.
        public var archivedOn: LocalDate
    }

    /// Brings the archived medicine `name` names back from today, with its history and stock, on
    /// the schedule it had. The days it was archived stay without doses: its schedule versions from
    /// the day after the one it was removed on end before them, and a version from today schedules
    /// it again (today's slots before now are due or late as for a medicine added today). The day
    /// it was removed is judged by its schedule again, as if it had not been removed.
    public func resume(_ name: String) throws -> Resumed {
        let catalog = context.catalog
        return try context.change(store) { scope in
            let w = scope.writer
            let all = try w.reader.medications(includeArchived: true)
            let active = all.filter { $0.archivedOn == nil }
            let m: Medication
            // Of medicines removed under one name, the one removed last.
            let archived = all.filter { $0.archivedOn != nil }.sorted { ($0.archivedOn!, $0.id) > ($1.archivedOn!, $1.id) }
            do {
                m = try DoseResolver.match(name, in: archived, catalog: catalog, archived: true)
            } catch {
                if let a = try? DoseResolver.match(name, in: active, catalog: catalog) {
                    throw DosebarError.badData(catalog.text("error.not_removed", ["name": a.name]))
                }
                throw error
            }
            if let other = active.first(where: { Medication.nameKey($0.name) == Medication.nameKey(m.name) }) {
                throw DosebarError.badData(catalog.text("error.resume_conflict", ["name": m.name, "other": other.name]))
            }
            guard let archivedOn = m.archivedOn else { throw DosebarError.internal("resume: \(m.name) is not archived") }
            let today = context.today
            var open = m
            open.archivedOn = nil
            var versions: [ScheduleVersion] = []
            let gapStart = archivedOn.adding(days: 1)
            if gapStart < today {
                // Every version in force in the gap ends the day before it (the first from its first day).
                let last = archivedOn
                // (Each with the dose it had: a version rewritten here keeps its dose.)
                let inGap: [(LocalDate, Schedule?, Dosing?)] = [(gapStart, open.schedule(on: gapStart), open.version(on: gapStart)?.dosing)]
                    + m.versions.filter { $0.effective > gapStart && $0.effective < today }.map { ($0.effective, $0.schedule, $0.dosing) }
                for (effective, schedule, dosing) in inGap {
                    guard var s = schedule else { continue }
                    if s.until.map({ $0 > last }) ?? true { s.until = last }
                    versions.append(ScheduleVersion(effective: effective, schedule: s, dosing: dosing))
                }
                // From today: the schedule it had, as it was (its start, so a cycle keeps its days).
                if let s = open.schedule(on: today) {
                    versions.append(ScheduleVersion(effective: today, schedule: s, dosing: open.version(on: today)?.dosing))
                }
            }
            try w.updateMedication(open)
            for v in versions { try w.putVersion(medicationID: open.id, v) }
            guard let resumed = try w.reader.medication(id: open.id) else { throw DosebarError.internal("resume: \(m.name) is gone") }
            try scope.journal()?.resumed(resumed, versions: versions)
            scope.scheduleChanged(on: min(archivedOn, today))
            return Resumed(medication: resumed, archivedOn: archivedOn)
        }
    }
}
