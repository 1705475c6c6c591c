import DoseCore
import Foundation
import GRDB

/// Everything dosebar writes to its database, inside one `IMMEDIATE` transaction; its
/// ``reader`` reads inside the same transaction.
///
/// Valid only inside the `DoseStore.write` call that handed it over.
public struct StoreWriter {
    let db: Database
    let path: String
    /// The store's clock when the transaction began: the gate refuses instants more than 24 h after it.
    let now: Date
    /// ``RawStatement``s of this transaction, its readers' too.
    let statements = RawStatement.Cache()

    init(db: Database, path: String, now: Date) {
        self.db = db
        self.path = path
        self.now = now
    }

    /// Every read of ``StoreReader``, inside this write transaction (`w.reader.medications(…)`),
    /// so a decision and its write see the same data.
    public var reader: StoreReader { StoreReader(db: db, path: path, statements: statements) }

    // MARK: - Medicines

    /// Adds a medicine with its schedule versions and returns its new id (`m.id` is ignored).
    ///
    /// Throws `FieldRules.Violation` when a field breaks a rule (name, texts, amounts, schedules),
    /// `badData` when an active medicine already has this name, in any letter case.
    public func insertMedication(_ m: Medication) throws -> Int64 {
        try FieldRules.medication(m)
        if let t = m.trackedFrom { try FieldRules.instant(t.timeIntervalSince1970, now: now, field: "tracked from") }
        var record = MedicationRecord(m)
        do {
            try record.insert(db)
        } catch where StoreErrors.isDuplicateName(error) {
            throw duplicateName(m.name)
        }
        guard let id = record.id else { throw DosebarError.internal("inserted medicine has no id") }
        for v in m.versions {
            try ScheduleVersionRecord(medicationID: id, v).insert(db, onConflict: .replace)
        }
        return id
    }

    /// Replaces the medicine's name, dose, group, note, stock, per-dose, low-days, archive date
    /// and tracking start (not its schedule versions: see ``putVersion(medicationID:_:)``).
    ///
    /// Every field that changes must pass ``FieldRules``; one left as it was is not checked again,
    /// so a medicine an older dosebar stored out of range can still be renamed, edited or archived.
    public func updateMedication(_ m: Medication) throws {
        var record = MedicationRecord(m)
        record.id = m.id
        try validateChanges(record)
        do {
            try record.update(db)
        } catch RecordError.recordNotFound {
            throw unknownMedication(m.id)
        } catch where StoreErrors.isDuplicateName(error) {
            throw duplicateName(m.name)
        }
    }

    /// Adds a schedule version; one with the same effective date replaces the old one.
    public func putVersion(medicationID: Int64, _ v: ScheduleVersion) throws {
        try FieldRules.scheduleVersion(v)
        guard try MedicationRecord.exists(db, key: medicationID) else { throw unknownMedication(medicationID) }
        try ScheduleVersionRecord(medicationID: medicationID, v).insert(db, onConflict: .replace)
    }

    /// Sets the units on hand (nil: stock not tracked).
    public func setStock(medicationID: Int64, _ stock: Amount?) throws {
        if let stock { try FieldRules.stock(stock) }
        try db.execute(sql: "UPDATE medication SET stock = ? WHERE id = ?", arguments: [stock?.hundredths, medicationID])
        if db.changesCount == 0 { throw unknownMedication(medicationID) }
    }

    /// Moves the medicine's tracking start earlier, to `instant` (an import of doses before it, another
    /// device's `add` or import): never later. Nil is the earliest of all, its first schedule day;
    /// a medicine tracked from there stays so. Returns whether it moved.
    @discardableResult
    public func trackFrom(medicationID: Int64, noLaterThan instant: Date?) throws -> Bool {
        if let instant {
            try FieldRules.instant(instant.timeIntervalSince1970, now: now, field: "tracked from")
            try db.execute(sql: "UPDATE medication SET tracked_from = ? WHERE id = ? AND tracked_from > ?",
                           arguments: [instant.timeIntervalSince1970, medicationID, instant.timeIntervalSince1970])
        } else {
            try db.execute(sql: "UPDATE medication SET tracked_from = NULL WHERE id = ? AND tracked_from IS NOT NULL",
                           arguments: [medicationID])
        }
        return db.changesCount > 0
    }

    // MARK: - Events

    /// Appends a taken or skipped event and returns its id (`e.id` is ignored).
    ///
    /// `day` is the slot's date for a scheduled dose and the local date of `e.at` for an
    /// as-needed one: it is what ``StoreReader/events(days:)`` selects on.
    /// `synced`: the operation of another device that wrote it (schema `v11-synced-doses`); its
    /// origin is then `device`, whatever `e.origin` says.
    public func insertEvent(_ e: DoseEvent, day: LocalDate, synced: SyncedDose? = nil) throws -> Int64 {
        guard e.kind != .undone else {
            throw DosebarError.internal("an undo is written with insertUndo(of:at:), not insertEvent")
        }
        if let slot = e.slot, slot.medicationID != e.medicationID || slot.date != day {
            throw DosebarError.internal("event slot \(slot) of medicine #\(slot.medicationID) "
                + "does not match medicine #\(e.medicationID) on \(day)")
        }
        try FieldRules.date(day, field: "day")
        try FieldRules.instant(e.at.timeIntervalSince1970, now: now, field: "at")
        try FieldRules.instant(e.loggedAt.timeIntervalSince1970, now: now, field: "logged at")
        if e.stockDelta != .zero { try FieldRules.units(e.stockDelta) }
        // Another device's take: its units reach the stock derivation from here (zero: none taken).
        if let units = synced?.units, units != 0 { try FieldRules.units(Amount(hundredths: units)) }
        var record = EventRecord(e, day: day)
        record.target = nil
        if synced != nil { record.origin = DoseEvent.Origin.device.rawValue }
        return try insert(&record, synced: synced)
    }

    /// Appends an `undone` event cancelling `target` and returns its id. Events are never
    /// modified or deleted. The undo records `-target.stockDelta`; restoring the stock itself
    /// is the caller's job (``setStock(medicationID:_:)``). `origin`: where the undo came from.
    public func insertUndo(of target: DoseEvent, at: Date, origin: DoseEvent.Origin? = nil) throws -> Int64 {
        guard let stored = try EventRecord.fetchOne(db, key: target.id),
              stored.kind == DoseEvent.Kind.taken.rawValue || stored.kind == DoseEvent.Kind.skipped.rawValue
        else {
            throw DosebarError.badData("event #\(target.id) is not a dose that can be undone")
        }
        try FieldRules.instant(at.timeIntervalSince1970, now: now, field: "at")
        if try reader.isUndone(eventID: target.id) {
            throw DosebarError.badData("that dose was already undone; nothing to undo")
        }
        var record = stored
        record.id = nil
        record.kind = DoseEvent.Kind.undone.rawValue
        record.slotTime = nil
        record.at = at.timeIntervalSince1970
        record.loggedAt = at.timeIntervalSince1970
        record.target = target.id
        record.origin = origin?.rawValue
        // Saturating: a stored delta of -2^63 (an older sync's) has no negation in Int.
        record.stockDelta = 0.saturatingSubtracting(stored.stockDelta)
        return try insert(&record)
    }

    /// One cached statement, not `record.insert(db)`: sync writes an event per dose of another
    /// device's whole history, and encoding each record through `Codable` cost more than the insert.
    private func insert(_ record: inout EventRecord, synced: SyncedDose? = nil) throws -> Int64 {
        do {
            if let synced {
                // One per dose of another device's history: bound through SQLite's C API (``RawStatement``).
                try RawStatement(db, cache: statements, sql: """
                    INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known, over_limit,
                                       op, op_device, op_stamp, op_units, op_hash, origin)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'device')
                    """).run { b in
                        b.int(record.medicationID); b.text(record.kind); b.int(record.day); b.int(record.slotTime)
                        b.double(record.at); b.double(record.loggedAt); b.int(record.target); b.int(record.stockDelta)
                        b.int(record.timeKnown); b.int(record.overLimit)
                        b.text(synced.id); b.text(synced.device); b.text(synced.stamp); b.int(synced.units); b.int(synced.hash)
                    }
            } else {
                try db.cachedStatement(sql: """
                    INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known, over_limit,
                                       origin)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [record.medicationID, record.kind, record.day, record.slotTime, record.at, record.loggedAt,
                                             record.target, record.stockDelta, record.timeKnown, record.overLimit, record.origin])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw unknownMedication(record.medicationID)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
                    && synced != nil && error.message?.hasSuffix("event.op") == true {
            throw SyncedDose.IDTaken(id: synced?.id ?? "")
        }
        let id = synced == nil ? db.lastInsertedRowID : RawStatement.lastInsertedRowID(db)
        record.id = id
        return id
    }

    // MARK: - Summaries, meta, notifications

    /// Drops cached summaries of `date` and every later day (history changed there).
    public func invalidateSummaries(from date: LocalDate) throws {
        // Cached statements: every take runs them (its day is usually today, with nothing to delete).
        try db.cachedStatement(sql: "DELETE FROM day_summary WHERE day >= ?").execute(arguments: [date.dayNumber])
        try db.cachedStatement(sql: "DELETE FROM day_outcome WHERE day >= ?").execute(arguments: [date.dayNumber])
    }

    /// Adds an entry to the zone log; false when it was there already (a set: synced entries arrive
    /// more than once). `op`: the sync operation carrying it, also given to one already there.
    @discardableResult
    public func addZone(_ entry: StoreReader.ZoneEntry, op: String? = nil) throws -> Bool {
        let key: StatementArguments = [entry.at.timeIntervalSince1970, entry.zone, entry.first]
        try db.execute(sql: "INSERT OR IGNORE INTO zone_change (at, zone, first, op) VALUES (?, ?, ?, ?)", arguments: key + [op])
        let added = db.changesCount > 0
        if !added, let op {
            try db.execute(sql: "UPDATE zone_change SET op = ? WHERE at = ? AND zone = ? AND first = ? AND op IS NULL",
                           arguments: [op] + key)
        }
        return added
    }

    /// Keeps the outcomes of finished days judged in the zone named `zone`; outcomes judged in another
    /// zone are dropped first (a day's slots fall on other instants there).
    public func saveOutcomes(_ outcomes: [DayOutcome], zone: String) throws {
        if try reader.meta(StoreReader.outcomeZoneKey) != zone {
            try db.execute(sql: "DELETE FROM day_outcome")
            try setMeta(StoreReader.outcomeZoneKey, zone)
        }
        let statement = try db.makeStatement(sql: "INSERT OR REPLACE INTO day_outcome (day, data) VALUES (?, ?)")
        for o in outcomes { try statement.execute(arguments: [o.date.dayNumber, Data(o.bytes)]) }
    }

    /// History changed on `day`: its summary and outcome and every later one are recomputed on the
    /// next load. Today and later days normally have none yet, but a clock that was once ahead
    /// (DOSEBAR_NOW, a fast clock corrected since) summarised them as finished; kept, they would
    /// contradict history once the clock reaches them again (issue 42), so they go too, whatever
    /// `today` is.
    public func historyChanged(on day: LocalDate, today: LocalDate) throws {
        try invalidateSummaries(from: day)
    }

    /// A medicine's schedule changed from `day` on (an edit, an archive, a resume): the day before
    /// is judged again too, since the cut-off of its last slots depends on the next slot, on `day`
    /// (DESIGN §3).
    public func scheduleChanged(on day: LocalDate, today: LocalDate) throws {
        try historyChanged(on: day.adding(days: -1), today: today)
    }

    /// Inserts or replaces the summaries of their days.
    public func saveSummaries(_ s: [DaySummary]) throws {
        // One row per past day (7,300 for 20 years after an import or a first sync): bound through
        // SQLite's C API (``RawStatement``): GRDB's record insert costs many times more a row.
        let insert = try RawStatement(db, cache: statements, sql: """
            INSERT OR REPLACE INTO day_summary (day, total, taken, on_time, skipped, missed, streak, best, troubled)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for summary in s {
            let r = try DaySummaryRecord(summary)
            try insert.run { b in
                b.int(r.day); b.int(r.total); b.int(r.taken); b.int(r.onTime); b.int(r.skipped); b.int(r.missed)
                b.int(r.streak); b.int(r.best); b.text(r.troubled)
            }
        }
    }

    /// Stores a small named value; nil removes it.
    public func setMeta(_ key: String, _ value: String?) throws {
        if let value {
            try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                .execute(arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// Remembers that the notification `key` was sent (the first time is kept).
    public func markNotified(_ key: String, at: Date) throws {
        try db.execute(sql: "INSERT INTO notified (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                       arguments: [key, at.timeIntervalSince1970])
    }

    /// Forgets notifications sent before `date`, so the table does not grow forever.
    public func forgetNotified(before date: Date) throws {
        try db.execute(sql: "DELETE FROM notified WHERE at < ?", arguments: [date.timeIntervalSince1970])
    }

    // MARK: - Helpers

    /// The gate for an update: the fields that differ from the stored row pass ``FieldRules``.
    private func validateChanges(_ record: MedicationRecord) throws {
        let old = try record.id.flatMap { id in
            try Row.fetchOne(db.cachedStatement(sql: StoreReader.medicationSQL), arguments: [id]).map(MedicationRecord.init(indexed:))
        }
        if record.name != old?.name { try FieldRules.name(record.name) }
        if record.dose != old?.dose { try FieldRules.doseText(record.dose) }
        if record.group != old?.group { try FieldRules.group(record.group) }
        if record.note != old?.note { try FieldRules.note(record.note) }
        if record.stock != old?.stock, let stock = record.stock { try FieldRules.stock(Amount(hundredths: stock)) }
        if record.perDose != old?.perDose { try FieldRules.perDose(Amount(hundredths: record.perDose)) }
        if record.lowDays != old?.lowDays { try FieldRules.lowDays(record.lowDays) }
        if record.repeatMinutes != old?.repeatMinutes, let n = record.repeatMinutes { try FieldRules.repeatMinutes(n) }
        if record.archivedOn != old?.archivedOn, let day = record.archivedOn {
            try FieldRules.date(LocalDate(dayNumber: day), field: "archived on")
        }
        if record.trackedFrom != old?.trackedFrom, let t = record.trackedFrom { try FieldRules.instant(t, now: now, field: "tracked from") }
    }

    private func duplicateName(_ name: String) -> DosebarError {
        .badData("a medicine named \(name) already exists; pick another name or edit that one")
    }

    private func unknownMedication(_ id: Int64) -> DosebarError {
        .badData("no medicine with id \(id)")
    }
}
