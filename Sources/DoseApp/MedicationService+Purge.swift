import DoseCore
import DoseStore
import Foundation

/// `purge` (DESIGN §2): a medicine and all its history deleted for good, then the database
/// compacted so its bytes are gone from every file of it. Backups are not touched.
extension MedicationService {
    /// What a purge would delete: the medicine and how many doses of it are recorded.
    public struct PurgeTarget: Sendable {
        public var medication: Medication
        public var doses: Int
    }

    /// The medicine `name` names, active (first) or archived, with its number of recorded doses.
    public func purgeTarget(_ name: String) throws -> PurgeTarget {
        try store.read { r in
            let m = try DoseResolver.match(name, in: try r.medications(includeArchived: true), catalog: context.catalog, archived: true)
            return PurgeTarget(medication: m, doses: try r.doseCount(medicationID: m.id))
        }
    }

    /// Deletes the medicine and everything about it (``StoreWriter/purgeMedication(id:)``). With sync
    /// on, a `purge` operation per global id it had tells every device to do the same, and this
    /// device's file loses its lines at the next flush (``SyncService/flush()``). Call ``compact()``
    /// once the change is flushed and the shared directory refreshed.
    public func purge(_ target: PurgeTarget) throws {
        try context.change(store) { scope in
            let gids = try scope.writer.purgeMedication(id: target.medication.id)
            if let journal = try scope.journal(), !gids.isEmpty { try journal.purged(gids: gids) }
        }
    }

    /// The database's write-ahead log, which another process's open read can keep (``compact()``).
    public var logPath: String { store.path + "-wal" }

    /// Compacts the database after a purge: false when another process's open read kept part of
    /// the log (it is emptied when that process lets go of the database).
    public func compact() throws -> Bool {
        try store.compact()
    }
}
