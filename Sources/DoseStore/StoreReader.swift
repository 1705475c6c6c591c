import DoseCore
import Foundation
import GRDB

/// Everything dosebar reads from its database, seen from one transaction.
///
/// Valid only inside the `DoseStore.read` or `DoseStore.write` call that handed it over.
public struct StoreReader {
    let db: Database
    let path: String
    /// ``RawStatement``s of this transaction (a writer's readers share its own).
    let statements: RawStatement.Cache

    init(db: Database, path: String, statements: RawStatement.Cache = RawStatement.Cache()) {
        self.db = db
        self.path = path
        self.statements = statements
    }

    /// Medicines with all their schedule versions, ordered by id; archived ones only when asked.
    ///
    /// The queries of a `take` are SQL in cached statements: the query interface builds them anew and
    /// looks the tables' primary keys up on every run (its cost: Benchmarks/README.md).
    public func medications(includeArchived: Bool) throws -> [Medication] {
        var records: [MedicationRecord] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: includeArchived ? Self.medicationsSQL : Self.activeMedicationsSQL))
        while let row = try rows.next() { records.append(try MedicationRecord(indexed: row)) }
        var byMedication: [Int64: [ScheduleVersion]] = [:]
        let versions = try Row.fetchCursor(db.cachedStatement(sql: includeArchived ? Self.versionsSQL : Self.activeVersionsSQL))
        while let row = try versions.next() {
            let v = try ScheduleVersionRecord(indexed: row)
            byMedication[v.medicationID, default: []].append(try v.scheduleVersion())
        }
        return records.map { $0.medication(versions: byMedication[$0.id ?? 0] ?? []) }
    }

    /// The medicine with this id (archived or not), with all its schedule versions.
    public func medication(id: Int64) throws -> Medication? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: Self.medicationSQL), arguments: [id]) else { return nil }
        let record = try MedicationRecord(indexed: row)
        var versions: [ScheduleVersion] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: Self.versionsOfMedicationSQL), arguments: [id])
        while let row = try rows.next() { versions.append(try ScheduleVersionRecord(indexed: row).scheduleVersion()) }
        return record.medication(versions: versions)
    }

    /// A medicine's stock; nil when it is not tracked or there is no such medicine. (A take reads
    /// this, not the whole medicine with its schedule versions.)
    public func stock(medicationID: Int64) throws -> Amount? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT stock FROM medication WHERE id = ?"), arguments: [medicationID])
            .map(Amount.init(hundredths:))
    }

    static let medicationsSQL = "SELECT \(MedicationRecord.indexedColumns) FROM medication m ORDER BY m.id"
    static let activeMedicationsSQL = "SELECT \(MedicationRecord.indexedColumns) FROM medication m WHERE m.archived_on IS NULL ORDER BY m.id"
    static let medicationSQL = "SELECT \(MedicationRecord.indexedColumns) FROM medication m WHERE m.id = ?"
    static let versionsSQL = "SELECT \(ScheduleVersionRecord.indexedColumns) FROM schedule_version v ORDER BY v.medication_id, v.effective"
    static let activeVersionsSQL = """
        SELECT \(ScheduleVersionRecord.indexedColumns) FROM schedule_version v JOIN medication m ON m.id = v.medication_id
        WHERE m.archived_on IS NULL ORDER BY v.medication_id, v.effective
        """
    static let versionsOfMedicationSQL = """
        SELECT \(ScheduleVersionRecord.indexedColumns) FROM schedule_version v WHERE v.medication_id = ? ORDER BY v.effective
        """

    /// Effective events (``CountingEvents``: taken or skipped, not undone, not a sync duplicate) whose day is in `days`, of every
    /// medicine, ordered by day then by the order they were logged.
    ///
    /// An event's day is its slot's date, or for an as-needed dose the local date it was taken on.
    /// Uses the `event_day` index: the cost follows the range, not the length of history.
    public func events(days: ClosedRange<LocalDate>) throws -> [DoseEvent] {
        var events: [DoseEvent] = []
        if days.upperBound.dayNumber - days.lowerBound.dayNumber >= Self.longRange {
            // The events cancelled and the duplicates, read once, and the rule (``CountingEvents``)
            // asked of each row here, not its SQL translation (two subqueries a row, nearly half of
            // reading a year of 50 medicines: the summaries after another device's 20 years).
            // `CountingEventsStoreTests` holds both ways to the rule.
            let cancelled = Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT target FROM event WHERE target IS NOT NULL")))
            let duplicates = Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT event_id FROM sync_duplicate")))
            let statement = try db.cachedStatement(sql: Self.allEventsInDaysSQL)
            try statement.setArguments([days.lowerBound.dayNumber, days.upperBound.dayNumber])
            try RawStatement.rows(of: statement, in: db) { row in
                let e = try EventRecord.event(indexed: row)
                if CountingEvents.counts(e, cancelled: cancelled) && !duplicates.contains(e.id) { events.append(e) }
            }
            return events
        }
        let statement = try db.cachedStatement(sql: Self.eventsInDaysSQL)
        try statement.setArguments([days.lowerBound.dayNumber, days.upperBound.dayNumber])
        try RawStatement.rows(of: statement, in: db) { events.append(try EventRecord.event(indexed: $0)) }
        return events
    }

    /// From how many days on ``events(days:)`` filters the rows itself.
    static let longRange = 62

    /// The instant every event of a new action (one take, one import) is logged at: `now`, or a
    /// millisecond after the event written last (the highest id) when that was logged in the same
    /// second. Undo reverts the doses of one action together, told by consecutive events logged at
    /// one instant: two commands at one fixed clock (`DOSEBAR_NOW`, a replay, two clicks at once)
    /// stay two actions.
    public func actionInstant(now: Date) throws -> Date {
        guard let last = try Double.fetchOne(db.cachedStatement(sql: "SELECT logged_at FROM event ORDER BY id DESC LIMIT 1"))
            .map(Date.init(timeIntervalSince1970:)), last >= now, last < now.addingTimeInterval(1) else { return now }
        return last.addingTimeInterval(0.001)
    }

    /// The newest effective taken or skipped event (of one medicine when given): what `undo` reverts.
    public func latestUndoable(medicationID: Int64?) throws -> DoseEvent? {
        let record: EventRecord?
        if let medicationID {
            record = try EventRecord.fetchOne(db, sql: Self.latestUndoableOfMedicationSQL, arguments: [medicationID])
        } else {
            record = try EventRecord.fetchOne(db, sql: Self.latestUndoableSQL)
        }
        return try record?.event()
    }

    /// The event with this id, whatever its kind and whether or not it was undone.
    public func event(id: Int64) throws -> DoseEvent? {
        try EventRecord.fetchOne(db, key: id)?.event()
    }

    /// Takes in force recorded without a terminal (origin `click`) after the event `id`, in the
    /// order they were written: the doses `daemon --notify` confirms (DESIGN §2).
    public func clickTakes(after id: Int64) throws -> [DoseEvent] {
        let statement = try db.cachedStatement(sql: """
            SELECT \(EventRecord.indexedColumns) FROM event e
            WHERE e.id > ? AND e.origin = 'click' AND e.kind = 'taken' AND \(Self.effective)
            ORDER BY e.id
            """)
        try statement.setArguments([id])
        var events: [DoseEvent] = []
        try RawStatement.rows(of: statement, in: db) { events.append(try EventRecord.event(indexed: $0)) }
        return events
    }

    /// The id of the event written last (0 when none).
    public func lastEventID() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM event")) ?? 0
    }

    /// Whether an `undone` event cancels the event with this id.
    public func isUndone(eventID: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM event WHERE target = ?)"), arguments: [eventID]) ?? false
    }

    /// Cached day summaries from `from` through `through` inclusive, ascending; days without one are absent.
    public func summaries(from: LocalDate, through: LocalDate) throws -> [DaySummary] {
        try DaySummaryRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM day_summary WHERE day BETWEEN ? AND ? ORDER BY day"),
                                      arguments: [from.dayNumber, through.dayNumber])
            .map(\.summary)
    }

    /// Cached outcomes of the finished days in `days` judged in the zone named `zone`; none when they were
    /// judged in another zone. Unreadable ones are left out (they are judged again).
    public func outcomes(days: ClosedRange<LocalDate>, zone: String) throws -> [LocalDate: DayOutcome] {
        guard try meta(Self.outcomeZoneKey) == zone else { return [:] }
        var out: [LocalDate: DayOutcome] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT data FROM day_outcome WHERE day BETWEEN ? AND ?",
                                       arguments: [days.lowerBound.dayNumber, days.upperBound.dayNumber])
        while let row = try rows.next() {
            guard let data = row.dataNoCopy(atIndex: 0), let outcome = data.withUnsafeBytes({ DayOutcome(raw: $0) }) else { continue }
            out[outcome.date] = outcome
        }
        return out
    }

    /// The zone log, earliest first (DESIGN §3 "Where the person is"): empty until a command first ran
    /// with this database.
    public func zoneLog() throws -> [ZoneEntry] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT at, zone, first FROM zone_change ORDER BY at, zone, first")).map {
            ZoneEntry(at: Date(timeIntervalSince1970: $0[0]), zone: $0[1], first: $0[2])
        }
    }

    /// The zone log's entries with no sync operation yet (``StoreWriter/addZone(_:op:)``).
    public func unsyncedZones() throws -> [ZoneEntry] {
        try Row.fetchAll(db, sql: "SELECT at, zone, first FROM zone_change WHERE op IS NULL ORDER BY at, zone, first").map {
            ZoneEntry(at: Date(timeIntervalSince1970: $0[0]), zone: $0[1], first: $0[2])
        }
    }

    /// SQLite's `PRAGMA data_version`: it changes when another connection commits.
    public func dataVersion() throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// One row of the zone log.
    public struct ZoneEntry: Sendable, Equatable {
        public var at: Date
        public var zone: String
        /// A device's first entry, not a change (the schema's notes on `zone_change`).
        public var first: Bool

        public init(at: Date, zone: String, first: Bool) {
            self.at = at; self.zone = zone; self.first = first
        }
    }

    /// The `meta` key naming the zone the cached day outcomes were judged in.
    static let outcomeZoneKey = "outcome_zone"

    /// The cached summary of the latest day that has one.
    public func lastSummary() throws -> DaySummary? {
        try DaySummaryRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM day_summary ORDER BY day DESC LIMIT 1"))?.summary
    }

    /// A value stored with `StoreWriter.setMeta`, or nil.
    public func meta(_ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key])
    }

    /// Whether `StoreWriter.markNotified` was called with this key.
    public func wasNotified(_ key: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM notified WHERE key = ?)", arguments: [key]) ?? false
    }

    // MARK: - Queries (shared with the tests that check their plans)

    /// Whether event `e` is effective: the SQL translation of ``CountingEvents`` rules 1–3 (SQL cannot
    /// call it). Taken or skipped (rule 1), not the target of an undo (rule 2: only an `undone` event
    /// has a target), and not a duplicate of an earlier dose of its slot (rule 3: `sync_duplicate`
    /// holds ``SyncMerge/resolve(_:)``'s answer). `CountingEventsStoreTests` checks it against
    /// ``CountingEvents/effective(_:duplicates:)``.
    static let effective = "e.kind IN ('taken', 'skipped') AND NOT EXISTS (SELECT 1 FROM event u WHERE u.target = e.id)"
        + " AND NOT EXISTS (SELECT 1 FROM sync_duplicate d WHERE d.event_id = e.id)"

    static let eventsInDaysSQL = """
        SELECT \(EventRecord.indexedColumns) FROM event e
        WHERE e.day BETWEEN ? AND ? AND \(effective)
        ORDER BY e.day, e.id
        """

    /// ``eventsInDaysSQL`` without the rule: every event of the days, undos included.
    static let allEventsInDaysSQL = """
        SELECT \(EventRecord.indexedColumns) FROM event e
        WHERE e.day BETWEEN ? AND ?
        ORDER BY e.day, e.id
        """

    static let latestUndoableOfMedicationSQL = """
        SELECT e.* FROM event e
        WHERE e.medication_id = ? AND \(effective)
        ORDER BY e.id DESC LIMIT 1
        """

    static let latestUndoableSQL = """
        SELECT e.* FROM event e
        WHERE \(effective)
        ORDER BY e.id DESC LIMIT 1
        """
}
