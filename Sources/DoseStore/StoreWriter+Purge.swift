import DoseCore
import Foundation
import GRDB

// `purge` (DESIGN §2): a medicine and everything about it deleted for good (schema `v7-purge`),
// then the file compacted so the deleted bytes are gone from it and from its log.

extension StoreReader {
    /// How many taken or skipped doses of a medicine are recorded, undone ones not counted.
    public func doseCount(medicationID: Int64) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM event e WHERE e.medication_id = ? AND e.kind IN ('taken', 'skipped')
            AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id)
            """, arguments: [medicationID]) ?? 0
    }

    /// Whether a medicine of this global id was purged (here or on another device).
    public func isPurged(gid: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_purged WHERE gid = ?)"), arguments: [gid]) ?? false
    }

    /// The global ids of every purged medicine.
    public func purgedGids() throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT gid FROM sync_purged"))
    }

    /// The highest `operation.seq` stored (0 when none): a new operation's is the next.
    public func lastOperationSeq() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM operation") ?? 0
    }

    /// The global ids a local medicine is known by.
    public func gids(medicationID: Int64) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT gid FROM sync_medicine WHERE medication_id = ? ORDER BY rank", arguments: [medicationID])
    }
}

extension StoreWriter {
    /// Deletes a medicine and everything that names it: its schedule versions, events (undos and
    /// duplicates included), sync operations, registers and global ids, the notifications sent for
    /// it, and the cached day summaries and outcomes from its first day on (they are recomputed).
    /// Returns the global ids it had (empty when sync never named it); they are not remembered as
    /// purged here (``rememberPurged(_:)``).
    public func purgeMedication(id: Int64) throws -> [String] {
        guard try MedicationRecord.exists(db, key: id) else { throw DosebarError.badData("no medicine with id \(id)") }
        let gids = try reader.gids(medicationID: id)
        // Summaries and outcomes of days before its first scheduled day or dose never mention it.
        let earliest = try Int.fetchOne(db, sql: """
            SELECT min(d) FROM (SELECT min(start_day) AS d FROM schedule_version WHERE medication_id = ?
                                UNION ALL SELECT min(effective) FROM schedule_version WHERE medication_id = ?
                                UNION ALL SELECT min(day) FROM event WHERE medication_id = ?)
            """, arguments: [id, id, id])
        // The medicine's row goes first (events may be deleted only once it is gone); the foreign
        // keys are checked when the transaction commits, when nothing names it any more.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        // Deleted rows' bytes zeroed in their pages, whatever SQLite was built with (Debian's zeroes
        // them by default; VACUUM after the purge rewrites the file in any case).
        let secure = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
        try db.execute(sql: "PRAGMA secure_delete = 1")
        defer { try? db.execute(sql: "PRAGMA secure_delete = \(secure)") }
        let events = "SELECT id FROM event WHERE medication_id = ?"
        if !gids.isEmpty {
            let marks = Array(repeating: "?", count: gids.count).joined(separator: ", ")
            try db.execute(sql: "DELETE FROM operation WHERE medicine IN (\(marks))", arguments: StatementArguments(gids))
        }
        try db.execute(sql: "DELETE FROM operation WHERE event_id IN (\(events))", arguments: [id])
        try db.execute(sql: "DELETE FROM sync_duplicate WHERE event_id IN (\(events))", arguments: [id])
        try db.execute(sql: "DELETE FROM sync_register WHERE medication_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM sync_medicine WHERE medication_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM schedule_version WHERE medication_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM medication WHERE id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM event WHERE medication_id = ?", arguments: [id])
        // The daemon's keys: `due:<medication id>:<slot>`, `late:…` (DoseAlert.key).
        try db.execute(sql: "DELETE FROM notified WHERE substr(key, 1, length(?)) = ? OR substr(key, 1, length(?)) = ?",
                       arguments: ["due:\(id):", "due:\(id):", "late:\(id):", "late:\(id):"])
        if let first = earliest { try invalidateSummaries(from: LocalDate(dayNumber: first)) }
        // What notifications the daemon left on screen or snoozed names doses by medicine id and
        // name: dropped when one of them is this medicine's (the daemon withdraws those anyway).
        for (key, value) in try Row.fetchAll(db, sql: "SELECT key, value FROM meta").map({ ($0[0] as String, $0[1] as String) })
        where Self.namesMedication(id, json: value) {
            try setMeta(key, nil)
        }
        return gids
    }

    /// Remembers global ids as purged: an operation naming one is skipped from then on, and those
    /// stored (waiting ones of a medicine never seen here) are forgotten; purges are kept.
    public func rememberPurged(_ gids: [String]) throws {
        for gid in gids {
            try db.execute(sql: "INSERT INTO sync_purged (gid) VALUES (?) ON CONFLICT (gid) DO NOTHING", arguments: [gid])
            try db.execute(sql: "DELETE FROM operation WHERE medicine = ? AND kind != 'purge'", arguments: [gid])
        }
    }

    /// Whether a JSON value holds an object with `"medicationID": id` (the daemon's stored alerts).
    static func namesMedication(_ id: Int64, json: String) -> Bool {
        guard json.contains("medicationID"),
              let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) else { return false }
        func search(_ v: Any) -> Bool {
            if let d = v as? [String: Any] {
                if let n = d["medicationID"] as? NSNumber, n.int64Value == id { return true }
                return d.values.contains(where: search)
            }
            if let a = v as? [Any] { return a.contains(where: search) }
            return false
        }
        return search(value)
    }
}

extension DoseStore {
    /// Rewrites the database file without the space deleted rows left (`VACUUM`), then copies the
    /// log into it and empties the log (`wal_checkpoint(TRUNCATE)`), so no file of the database
    /// still holds deleted bytes. False when another connection's open read kept part of the log
    /// (what it holds goes with the next checkpoint after that read ends).
    @discardableResult
    public func compact() throws -> Bool {
        let path = path
        do {
            return try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                let busy: Int = row?[0] ?? 1
                return busy == 0
            }
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }
}
