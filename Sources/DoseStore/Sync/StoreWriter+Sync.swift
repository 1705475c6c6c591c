import DoseCore
import Foundation
import GRDB

// What sync runs once per operation (hundreds of thousands for a long history) uses cached
// statements: compiled once, not at every call.

extension StoreWriter {
    /// Stores an operation (with the event it wrote, if any); false (and nothing written) when one
    /// with its id is already stored.
    @discardableResult
    public func insertOperation(_ op: StoredOperation) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO operation (id, device, stamp, kind, medicine, amount, body, applied, event_id, hash, origin)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """).execute(arguments: [op.id, op.device, op.stamp, op.kind, op.medicine, op.amount, op.body, op.applied ? 1 : 0, op.eventID,
                                     op.hash, op.origin])
        return db.changesCount > 0
    }

    /// Raises the highest stamp of `device`'s doses kept in events (``StoreReader/syncHighWater()``).
    public func raiseHighWater(device: String, stamp: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_device (device, stamp) VALUES (?, ?)
            ON CONFLICT (device) DO UPDATE SET stamp = max(stamp, excluded.stamp)
            """).execute(arguments: [device, stamp])
    }

    /// Keeps a skipped line; false when this content of this file was skipped before (it was
    /// warned about then).
    @discardableResult
    public func insertSkipped(_ s: SkippedLine) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO sync_skipped (file, hash, line, op, reason) VALUES (?, ?, ?, ?, ?) ON CONFLICT (file, hash) DO NOTHING
            """).execute(arguments: [s.file, s.hash, s.line, s.op, s.reason])
        return db.changesCount > 0
    }

    /// Forgets a waiting operation (one stored before the gate refused it).
    public func deleteWaiting(operation id: String) throws {
        try db.execute(sql: "DELETE FROM operation WHERE id = ? AND applied = 0", arguments: [id])
    }

    /// Marks a waiting operation as applied, with the event it wrote: its line is not needed any more.
    public func markApplied(operation id: String, eventID: Int64?) throws {
        try db.cachedStatement(sql: "UPDATE operation SET applied = 1, body = '', origin = NULL, event_id = ? WHERE id = ?")
            .execute(arguments: [eventID, id])
    }

    /// Names a local medicine by a global id (kept if the id already names one), made by an `add`
    /// of `name` by `device` at `stamp`.
    public func linkMedicine(gid: String, medicationID: Int64, name: String, device: String, stamp: String) throws {
        try db.execute(sql: """
            INSERT INTO sync_medicine (gid, medication_id, name_key, device, stamp) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (gid) DO NOTHING
            """, arguments: [gid, medicationID, Medication.nameKey(name), device, stamp])
    }

    /// Records the stamp that won for `field` of a medicine.
    public func setRegister(medicationID: Int64, field: String, stamp: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_register (medication_id, field, stamp) VALUES (?, ?, ?)
            ON CONFLICT (medication_id, field) DO UPDATE SET stamp = excluded.stamp
            """).execute(arguments: [medicationID, field, stamp])
    }

    /// Keeps the take operations a `confirm` names: taken twice on purpose (``Schema/v13DoubleDose``).
    public func confirmTakes(_ operations: [String]) throws {
        for op in operations {
            try db.cachedStatement(sql: "INSERT INTO double_confirmed (op) VALUES (?) ON CONFLICT (op) DO NOTHING").execute(arguments: [op])
        }
    }

    /// Marks the duplicates among the events of one slot (``SyncMerge/resolve(_:)``).
    public func resolveSlot(medicationID: Int64, day: LocalDate, slotTime: LocalTime) throws {
        let events = try reader.slotEvents(medicationID: medicationID, day: day, slotTime: slotTime)
        // Events are never deleted: a slot's only event never lost to another.
        guard events.count > 1 else { return }
        var doses: [SyncMerge.SlotDose] = []
        for e in events {
            doses.append(SyncMerge.SlotDose(event: e.id, at: e.at, operation: try reader.operation(eventID: e.id) ?? "",
                                            undone: try reader.isUndone(eventID: e.id)))
        }
        for e in events {
            try db.cachedStatement(sql: "DELETE FROM sync_duplicate WHERE event_id = ?").execute(arguments: [e.id])
        }
        for loser in SyncMerge.resolve(doses).duplicates {
            try db.cachedStatement(sql: "INSERT INTO sync_duplicate (event_id) VALUES (?)").execute(arguments: [loser.event])
        }
    }
}

extension StoreWriter {
    /// Runs `body` in a savepoint: when it throws `DosebarError.badData` (an operation that cannot
    /// apply here yet, such as a rename onto a name in use) its writes are rolled back and the
    /// answer is false; other errors end the transaction.
    public func attempt(_ body: () throws -> Bool) throws -> Bool {
        var result = false
        do {
            try db.inSavepoint {
                result = try body()
                return result ? .commit : .rollback
            }
        } catch let e as DosebarError {
            guard case .badData = e else { throw e }
            return false
        }
        return result
    }
}
