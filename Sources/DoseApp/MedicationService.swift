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

    /// Adds `medication` (its id is ignored) with its schedule versions; a name an active
    /// medicine has (in any letter case or Unicode form) is refused by the store.
    public func add(_ medication: Medication) throws {
        try store.write { w in
            let id = try w.insertMedication(medication)
            if let journal = try SyncJournal.open(w, context), let added = try w.reader.medication(id: id) {
                try journal.added(added)
                try journal.finish()
            }
            if let start = medication.versions.map(\.schedule.start).min() {
                try w.historyChanged(on: start, today: context.today)
            }
        }
    }

    /// Changes the active medicine `name` names: `change` edits its details, `schedule` (if
    /// given) builds the schedule in force from `effective` on out of the one in force then.
    /// Returns the medicine and its new schedule.
    public func edit(_ name: String, change: (inout Medication) -> Void, effective: LocalDate,
                     schedule: ((Schedule?) throws -> Schedule)?) throws -> (Medication, Schedule?) {
        try store.write { w in
            var m = try DoseResolver.match(name, in: try w.reader.medications(includeArchived: true), catalog: context.catalog)
            let before = m
            change(&m)
            try w.updateMedication(m)
            let journal = try SyncJournal.open(w, context)
            guard let schedule else {
                try journal?.edited(from: before, to: m, version: nil)
                try journal?.finish()
                return (m, nil)
            }
            let new = try schedule(m.schedule(on: effective) ?? m.currentSchedule)
            let version = ScheduleVersion(effective: effective, schedule: new)
            try w.putVersion(medicationID: m.id, version)
            try journal?.edited(from: before, to: m, version: version)
            try journal?.finish()
            try w.historyChanged(on: effective, today: context.today)
            return (m, new)
        }
    }

    /// Archives the medicine `name` names from today on; its history stays. Returns its name.
    public func remove(_ name: String) throws -> String {
        try store.write { w in
            var m = try DoseResolver.match(name, in: try w.reader.medications(includeArchived: true), catalog: context.catalog)
            m.archivedOn = context.today
            try w.updateMedication(m)
            if let journal = try SyncJournal.open(w, context) {
                try journal.archived(m)
                try journal.finish()
            }
            return m.name
        }
    }
}
