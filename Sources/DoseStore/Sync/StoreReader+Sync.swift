import DoseCore
import Foundation
import GRDB

// What sync runs once per operation (hundreds of thousands for a long history) uses cached
// statements: compiled once, not at every call.

extension StoreReader {
    /// The operation with this id, when stored: its ``LineHash`` (nil inside when stored before
    /// hashes were kept).
    /// Another device's take or skip is looked up in the event that keeps it too (``SyncedDose``).
    public func operationHash(id: String) throws -> Int64?? {
        if let stored = try storedOperationHash(id: id) { return stored }
        let kept = try RawStatement(db, cache: statements, sql: "SELECT op_hash FROM event WHERE op = ?").run { $0.text(id) }
        return kept.row ? .some(kept.value) : nil
    }

    /// ``operationHash(id:)`` of a take or skip of `device` stamped `stamp`: a stamp after the
    /// device's highest one kept in an event (`highWater`, ``syncHighWater()``) is looked up in
    /// `operation` only. A dose that reuses an event's id with a later stamp is not found here:
    /// the events' index refuses it (``SyncedDose/IDTaken``).
    public func operationHash(id: String, stamp: String, highWater: String?) throws -> Int64?? {
        guard let highWater, stamp <= highWater else { return try storedOperationHash(id: id) }
        return try operationHash(id: id)
    }

    /// The hash of the row of `operation` with this id, when there is one.
    private func storedOperationHash(id: String) throws -> Int64?? {
        let stored = try RawStatement(db, cache: statements, sql: "SELECT hash FROM operation WHERE id = ?").run { $0.text(id) }
        return stored.row ? .some(stored.value) : nil
    }

    /// Every id in `operation`, when there are at most `limit`; nil when there are more. (A batch
    /// of another device's lines asks each line's id there: a set of a few hundred ids answers a
    /// fresh device's 583,088 look-ups for 50 medicines × 20 years.)
    public func operationIDs(atMost limit: Int) throws -> Set<String>? {
        let statement = try db.cachedStatement(sql: "SELECT id FROM operation LIMIT ?")
        statement.setUncheckedArguments([limit + 1])
        var ids = Set<String>()
        try RawStatement.rows(of: statement, in: db) { ids.insert($0.text(0)) }
        return ids.count > limit ? nil : ids
    }

    /// Per device, the highest stamp of its doses kept in events (`sync_device`).
    public func syncHighWater() throws -> [String: String] {
        Dictionary(try Row.fetchAll(db, sql: "SELECT device, stamp FROM sync_device").map { ($0[0] as String, $0[1] as String) },
                   uniquingKeysWith: max)
    }

    /// Every line skipped, by file and line.
    public func skippedLines() throws -> [SkippedLine] {
        try Row.fetchAll(db, sql: "SELECT * FROM sync_skipped ORDER BY file, line").map {
            SkippedLine(file: $0["file"], line: $0["line"], hash: $0["hash"], op: $0["op"], reason: $0["reason"])
        }
    }

    /// This device's operations after `seq`, in the order they were made. Each has its line
    /// (`operation_own` holds the rows with one).
    public func operations(device: String, after seq: Int64) throws -> [StoredOperation] {
        try Row.fetchAll(db, sql: "SELECT * FROM operation WHERE seq > ? AND body != '' AND device = ? ORDER BY seq",
                         arguments: [seq, device])
            .map(StoredOperation.init(row:))
    }

    /// How many of this device's operations come after `seq`.
    public func operationCount(device: String, after seq: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM operation WHERE seq > ? AND body != '' AND device = ?",
                         arguments: [seq, device]) ?? 0
    }

    /// Operations that wait for something they name, in stamp order.
    public func pendingOperations() throws -> [StoredOperation] {
        try Row.fetchAll(db, sql: "SELECT * FROM operation WHERE applied = 0 ORDER BY stamp, id").map(StoredOperation.init(row:))
    }

    /// Whether an operation that waits is a schedule of the medicine with global id `gid`, stamped
    /// at or before `millis` (the 13 digits of a stamp: one held beyond it does not count).
    public func hasPendingSchedule(gid: String, notAfter millis: Int64) throws -> Bool {
        let digits = String(millis)
        let bound = String(repeating: "0", count: max(0, 13 - digits.count)) + digits
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM operation WHERE applied = 0 AND kind = 'schedule' AND medicine = ? AND substr(stamp, 1, 13) <= ?)
            """, arguments: [gid, bound]) ?? false
    }

    /// Whether an operation waits for something it names.
    public func hasPendingOperations() throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM operation WHERE applied = 0)") ?? false
    }

    /// Every device that wrote an operation this database knows, by id.
    public func deviceProgress() throws -> [DeviceProgress] {
        try Row.fetchAll(db, sql: """
            SELECT device, sum(applied) AS applied, sum(1 - applied) AS pending,
                   max(CASE WHEN applied = 1 THEN stamp END) AS last
            FROM (SELECT device, applied, stamp FROM operation
                  UNION ALL SELECT op_device, 1, op_stamp FROM event WHERE op IS NOT NULL)
            GROUP BY device ORDER BY device
            """).map { DeviceProgress(device: $0["device"], applied: $0["applied"], pending: $0["pending"], last: $0["last"]) }
    }

    /// The local medicine a global id names.
    public func medicationID(gid: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT medication_id FROM sync_medicine WHERE gid = ?"), arguments: [gid])
    }

    /// The global id other devices know a local medicine by (the first one it got).
    public func gid(medicationID: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT gid FROM sync_medicine WHERE medication_id = ? ORDER BY rank LIMIT 1"),
                            arguments: [medicationID])
    }

    /// The medicines an `add` of `nameKey` could be (``SyncMerge/match(_:among:)``): those with an
    /// add of that name, the active one of that name, and those with one of the global ids `gids`;
    /// each with every add that named it.
    public func knownMedicines(nameKey: String, gids: [String]) throws -> [SyncMerge.KnownMedicine] {
        let byGid = gids.isEmpty ? "" : " OR gid IN (" + Array(repeating: "?", count: gids.count).joined(separator: ", ") + ")"
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.id, m.name_key AS current, m.archived_on, s.gid, s.name_key, s.device, s.stamp
            FROM medication m LEFT JOIN sync_medicine s ON s.medication_id = m.id
            WHERE m.id IN (SELECT medication_id FROM sync_medicine WHERE name_key = ?\(byGid))
               OR (m.name_key = ? AND m.archived_on IS NULL)
            ORDER BY m.id, s.rank
            """, arguments: [nameKey] + StatementArguments(gids) + [nameKey])
        var known: [SyncMerge.KnownMedicine] = []
        for row in rows {
            let id: Int64 = row["id"]
            if known.last?.id != id {
                let archived = (row["archived_on"] as Int64?) != nil
                known.append(SyncMerge.KnownMedicine(id: id, adds: [], activeNameKey: archived ? nil : row["current"]))
            }
            if let gid: String = row["gid"] {
                known[known.count - 1].adds.append(SyncMerge.MedicineAdd(gid: gid, nameKey: row["name_key"], device: row["device"],
                                                                         stamp: row["stamp"]))
            }
        }
        return known
    }

    /// The global ids of the medicines other than `medicationID` that a new medicine of `nameKey`
    /// is not: every one with an add of that name or named so now.
    public func gids(nameKey: String, besides medicationID: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT gid FROM sync_medicine WHERE medication_id != ? AND medication_id IN (
                SELECT medication_id FROM sync_medicine WHERE name_key = ?
                UNION SELECT id FROM medication WHERE name_key = ?)
            ORDER BY rank
            """, arguments: [medicationID, nameKey, nameKey])
    }

    /// The stamp of the write that won for `field` of a medicine.
    public func register(medicationID: Int64, field: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT stamp FROM sync_register WHERE medication_id = ? AND field = ?"),
                            arguments: [medicationID, field])
    }

    /// The event an operation wrote (or was found to be).
    /// Another device's take or skip is found through the event that keeps its id (``SyncedDose``).
    public func eventID(operation: String) throws -> Int64? {
        if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT event_id FROM operation WHERE id = ?"), arguments: [operation]) {
            return id
        }
        return try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM event WHERE op = ?"), arguments: [operation])
    }

    /// The first operation (by stamp) that names this event: a row of `operation`, or the other
    /// device's that the event keeps.
    public func operation(eventID: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM (SELECT stamp, id FROM operation WHERE event_id = ?
                            UNION ALL SELECT op_stamp, op FROM event WHERE id = ? AND op IS NOT NULL)
            ORDER BY stamp, id LIMIT 1
            """), arguments: [eventID, eventID])
    }

    /// The last day any event of a medicine is about (nil: it has none): a slot of a later day has
    /// no dose yet.
    public func lastEventDay(medicationID: Int64) throws -> LocalDate? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT max(day) FROM event WHERE medication_id = ?"), arguments: [medicationID])
            .map(LocalDate.init(dayNumber:))
    }

    /// Taken or skipped events of one slot (or, with `slotTime` nil, as-needed doses of that day),
    /// undone or not, duplicate or not.
    public func slotEvents(medicationID: Int64, day: LocalDate, slotTime: LocalTime?) throws -> [DoseEvent] {
        let sql = "SELECT \(EventRecord.indexedColumns) FROM event e WHERE medication_id = ? AND day = ? AND kind IN ('taken', 'skipped') AND "
            + (slotTime == nil ? "slot_time IS NULL" : "slot_time = ?")
        var args: StatementArguments = [medicationID, day.dayNumber]
        if let slotTime { _ = args.append(contentsOf: [slotTime.minuteOfDay]) }
        let statement = try db.cachedStatement(sql: sql + " ORDER BY id")
        try statement.setArguments(args)
        var events: [DoseEvent] = []
        try RawStatement.rows(of: statement, in: db) { events.append(try EventRecord.event(indexed: $0)) }
        return events
    }

    /// Every taken or skipped event not undone (for `sync init`), in the order they were logged.
    public func allDoseEventsNotUndone() throws -> [DoseEvent] {
        try EventRecord.fetchAll(db, sql: "SELECT * FROM event e WHERE \(Self.effective) ORDER BY id").map { try $0.event() }
    }

    /// Whether an event is a duplicate that lost to an earlier event of its slot.
    public func isDuplicate(eventID: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_duplicate WHERE event_id = ?)", arguments: [eventID]) ?? false
    }

    /// How many doses of each day of `days` lost to an earlier dose of their slot taken on another
    /// device (`sync_duplicate`, not undone), for one medicine or all; days without any are absent.
    /// Counted when read, so the kept day outcomes need not know about them.
    public func duplicateCounts(days: ClosedRange<LocalDate>, medicationID: Int64?) throws -> [LocalDate: Int] {
        var sql = """
            SELECT e.day AS day, count(*) AS n FROM sync_duplicate d JOIN event e ON e.id = d.event_id
            WHERE e.day BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id)
            """
        var args: StatementArguments = [days.lowerBound.dayNumber, days.upperBound.dayNumber]
        if let medicationID { sql += " AND e.medication_id = ?"; _ = args.append(contentsOf: [medicationID]) }
        return Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: sql + " GROUP BY e.day", arguments: args)
            .map { (LocalDate(dayNumber: $0["day"]), $0["n"] as Int) })
    }

    /// A live take (not undone) of a slot that may be taken twice (DESIGN §10), with the first
    /// operation that names its event and that operation's device.
    public struct SlotTakeRow: Sendable, Equatable {
        public var slot: SlotKey
        public var event: Int64
        public var at: Date
        public var operation: String
        public var device: String
    }

    /// The live takes of every slot of `days` (all days when nil; of one medicine when given) with
    /// a live take that lost to an earlier dose (`sync_duplicate`): only sync makes those, so a
    /// database that never synced reads one empty table.
    public func doubleDoseTakes(days: ClosedRange<LocalDate>?, medicationID: Int64?) throws -> [SlotTakeRow] {
        let live = "e.kind = 'taken' AND e.slot_time IS NOT NULL AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id)"
        var filter = ""
        var args: StatementArguments = []
        if let days { filter += " AND e.day BETWEEN ? AND ?"; _ = args.append(contentsOf: [days.lowerBound.dayNumber, days.upperBound.dayNumber]) }
        if let medicationID { filter += " AND e.medication_id = ?"; _ = args.append(contentsOf: [medicationID]) }
        // Nothing lost to an earlier dose: nothing to read (every snapshot asks).
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_duplicate)")) == true else { return [] }
        // CROSS JOIN keeps the order written: from the few duplicates to their slots' takes by the
        // `event_slot` index. Left to itself SQLite 3.40 scanned every event twice, in every
        // snapshot (Benchmarks/README.md, "Travel and a query that scanned the history").
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.id, e.medication_id, e.day, e.slot_time, e.at
            FROM (SELECT DISTINCT e.medication_id AS m, e.day AS d, e.slot_time AS t
                  FROM sync_duplicate s CROSS JOIN event e ON e.id = s.event_id WHERE \(live)\(filter)) slots
            CROSS JOIN event e ON e.medication_id = slots.m AND e.day = slots.d AND e.slot_time = slots.t
            WHERE \(live) ORDER BY e.medication_id, e.day, e.slot_time, e.id
            """, arguments: args)
        let first = try db.cachedStatement(sql: """
            SELECT id, device FROM (SELECT stamp, id, device FROM operation WHERE event_id = ?1
                                    UNION ALL SELECT op_stamp, op, op_device FROM event WHERE id = ?1 AND op IS NOT NULL)
            ORDER BY stamp, id LIMIT 1
            """)
        return try rows.compactMap { row in
            let id: Int64 = row[0]
            guard let op = try Row.fetchOne(first, arguments: [id]),
                  let minute = row[3] as Int? else { return nil }
            let time = LocalTime(minuteOfDay: minute)
            return SlotTakeRow(slot: SlotKey(medicationID: row[1], date: LocalDate(dayNumber: row[2]), time: time),
                               event: id, at: Date(timeIntervalSince1970: row[4]), operation: op[0], device: op[1])
        }
    }

    /// The take operations `confirm` operations named (``StoreWriter/confirmTakes(_:)``).
    public func confirmedTakes() throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT op FROM double_confirmed")))
    }

    /// The operations about a local medicine (under any of its global ids) that decide its stock
    /// (``SyncMerge/stock(_:effective:maximum:)``), applied, with the event a take names: from the
    /// last `stock` (an absolute value: what came before it counts for nothing) on, and the takes
    /// before it of a dose a later take names too (one event counts once). None when no operation
    /// sets or refills it (takes alone derive nothing). So a new take reads a few rows, not the
    /// medicine's whole history.
    public func stockOperations(medicationID: Int64) throws -> [SyncMerge.StockOperation] {
        let gids = try String.fetchAll(db, sql: "SELECT gid FROM sync_medicine WHERE medication_id = ?", arguments: [medicationID])
        let ofMedicine = "o.medicine IN (" + Array(repeating: "?", count: gids.count).joined(separator: ", ") + ") AND o.applied = 1"
        let medicine = StatementArguments(gids)
        // By stamp alone, so the index on (medicine, stamp) is walked back from the newest: with two
        // of one stamp (a device never makes two), the rows from either on are the same answer.
        let lastSet = try Row.fetchOne(db, sql: """
            SELECT o.stamp, o.id FROM operation o WHERE \(ofMedicine) AND o.kind = 'stock' ORDER BY o.stamp DESC LIMIT 1
            """, arguments: medicine)
        if lastSet == nil {
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM operation o WHERE \(ofMedicine) AND o.kind = 'refill')",
                                    arguments: medicine) == true else { return [] }
        }
        let fromStamp = lastSet?[0] as String? ?? "", fromID = lastSet?[1] as String? ?? ""
        let from: StatementArguments = [fromStamp, fromID]
        let columns = "o.stamp, o.id, o.kind, o.amount, o.event_id"
        // Other devices' takes are kept in their events (``SyncedDose``), found by medicine and stamp.
        let synced = "e.op_stamp, e.op, 'take', e.op_units, e.id"
        let ofEvents = "e.medication_id = ? AND e.op IS NOT NULL AND e.kind = 'taken'"
        let id: StatementArguments = [medicationID]
        var rows = try Row.fetchAll(db, sql: """
            SELECT \(columns) FROM operation o
            WHERE \(ofMedicine) AND o.kind IN ('stock', 'refill', 'take') AND (o.stamp, o.id) >= (?, ?)
            """, arguments: medicine + from)
        rows += try Row.fetchAll(db, sql: """
            SELECT \(synced) FROM event e INDEXED BY event_synced
            WHERE \(ofEvents) AND e.op_stamp >= ? AND (e.op_stamp, e.op) >= (?, ?)
            """, arguments: id + [fromStamp] + from)
        if lastSet != nil {
            // An event names one operation of its own: an earlier take of an event a later take
            // names is a row of `operation` (named by a later row or by the event), or the event's
            // own take (named by a later row).
            let later = """
                SELECT o.event_id FROM operation o WHERE \(ofMedicine) AND o.kind = 'take' AND (o.stamp, o.id) > (?, ?)
                UNION ALL SELECT e.id FROM event e INDEXED BY event_synced WHERE \(ofEvents) AND e.op_stamp >= ? AND (e.op_stamp, e.op) > (?, ?)
                """
            let laterArgs = medicine + from + id + [fromStamp] + from
            rows += try Row.fetchAll(db, sql: """
                SELECT \(columns) FROM operation o
                WHERE o.applied = 1 AND o.kind = 'take' AND (o.stamp, o.id) < (?, ?) AND o.event_id IN (\(later))
                """, arguments: from + laterArgs)
            // NOT INDEXED: found by id from the few takes after the set, not by walking every
            // synced take of the medicine before it (`event_synced`, SQLite's own pick, which grew
            // with the length of the history).
            rows += try Row.fetchAll(db, sql: """
                SELECT \(synced) FROM event e NOT INDEXED
                WHERE \(ofEvents) AND (e.op_stamp, e.op) < (?, ?) AND e.id IN (
                    SELECT o.event_id FROM operation o WHERE \(ofMedicine) AND o.kind = 'take' AND (o.stamp, o.id) > (?, ?))
                """, arguments: id + from + medicine + from)
        }
        return rows.compactMap { row in
            let amount: Int? = row[3]
            switch row[2] as String {
            case "stock": return SyncMerge.StockOperation(stamp: row[0], id: row[1], .set(amount.map(Amount.init(hundredths:))))
            case "refill": return SyncMerge.StockOperation(stamp: row[0], id: row[1], .refill(Amount(hundredths: amount ?? 0)))
            case "take": return SyncMerge.StockOperation(stamp: row[0], id: row[1], .take(units: Amount(hundredths: amount ?? 100), event: row[4]))
            default: return nil
            }
        }
    }

    /// Which of `events`, taken events of a medicine, subtract stock: those not undone, a slot's
    /// second take from another device (a duplicate for the slot's status) included (DESIGN §10:
    /// an extra dose that subtracts its stock).
    public func liveTakenEventIDs(medicationID: Int64, among events: Set<Int64>) throws -> Set<Int64> {
        let live = "e.kind = 'taken' AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id)"
        // A few (the takes since the last stock value): looked up one by one; else the medicine's all.
        guard events.count <= 500 else {
            return events.intersection(try Int64.fetchAll(db, sql: """
                SELECT e.id FROM event e WHERE e.medication_id = ? AND \(live)
                """, arguments: [medicationID]))
        }
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM event e WHERE e.id = ? AND \(live))")
        return try events.filter { try Bool.fetchOne(statement, arguments: [$0]) == true }
    }
}
