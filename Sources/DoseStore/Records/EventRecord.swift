import DoseCore
import Foundation
import GRDB

/// One row of `event`: a take, skip or undo, never updated or deleted once written.
struct EventRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "event"

    enum CodingKeys: String, CodingKey {
        case id, medicationID = "medication_id", kind, day, slotTime = "slot_time", at, loggedAt = "logged_at", target
        case stockDelta = "stock_delta", timeKnown = "time_known", overLimit = "over_limit", origin
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let medicationID = Column(CodingKeys.medicationID)
        static let kind = Column(CodingKeys.kind)
        static let day = Column(CodingKeys.day)
        static let slotTime = Column(CodingKeys.slotTime)
        static let at = Column(CodingKeys.at)
        static let loggedAt = Column(CodingKeys.loggedAt)
        static let target = Column(CodingKeys.target)
    }

    var id: Int64?
    var medicationID: Int64
    var kind: String
    /// `LocalDate.dayNumber`: the slot's date, or the local date of `at` for an as-needed dose.
    var day: Int
    /// `LocalTime.minuteOfDay` of the slot; nil for as-needed doses and undos.
    var slotTime: Int?
    /// Unix seconds.
    var at: Double
    /// Unix seconds.
    var loggedAt: Double
    var target: Int64?
    /// Hundredths of a unit (``Amount``).
    var stockDelta: Int
    /// 1, or 0 when the imported record did not say when the dose was taken (schema `v2`).
    var timeKnown: Int
    /// 1 for an as-needed dose forced beyond its limits (schema `v9-over-limit`).
    var overLimit: Int
    /// ``DoseEvent/Origin``'s raw value; NULL for rows older than schema `v15-event-origin`.
    var origin: String?

    init(_ e: DoseEvent, day: LocalDate) {
        id = nil
        medicationID = e.medicationID
        kind = e.kind.rawValue
        self.day = day.dayNumber
        slotTime = e.slot?.time.minuteOfDay
        at = e.at.timeIntervalSince1970
        loggedAt = e.loggedAt.timeIntervalSince1970
        target = e.target
        stockDelta = e.stockDelta.hundredths
        timeKnown = e.timeKnown ? 1 : 0
        overLimit = e.overLimit ? 1 : 0
        origin = e.origin?.rawValue
    }

    /// The columns `init(indexed:)` reads, in its order (for queries that fetch many events).
    static let indexedColumns = "e.id, e.medication_id, e.kind, e.day, e.slot_time, e.at, e.logged_at, e.target, e.stock_delta, e.time_known, e.over_limit, e.origin"

    /// A row of `indexedColumns`, read by position through SQLite's C API (``RawStatement/rows(of:in:_:)``):
    /// decoding a year of events through `Codable` looked every column up by name and cost four
    /// times the query itself, and GRDB's `Row` as much as SQLite's own reading of them.
    init(indexed row: RawStatement.Columns) {
        id = row.int(0)
        medicationID = row.int(1)
        kind = row.text(2)
        day = Int(row.int(3))
        slotTime = row.optionalInt(4).map { Int($0) }
        at = row.double(5)
        loggedAt = row.double(6)
        target = row.optionalInt(7)
        stockDelta = Int(row.int(8))
        timeKnown = Int(row.int(9))
        overLimit = Int(row.int(10))
        origin = Self.origin(indexed: row)?.rawValue
    }

    /// A row read by column name, not through `Codable` (see ``MedicationRecord/init(indexed:)``).
    init(row: Row) throws {
        typealias K = CodingKeys
        id = try row.decode(forColumn: K.id.rawValue)
        medicationID = try row.decode(forColumn: K.medicationID.rawValue)
        kind = try row.decode(forColumn: K.kind.rawValue)
        day = try row.decode(forColumn: K.day.rawValue)
        slotTime = try row.decode(forColumn: K.slotTime.rawValue)
        at = try row.decode(forColumn: K.at.rawValue)
        loggedAt = try row.decode(forColumn: K.loggedAt.rawValue)
        target = try row.decode(forColumn: K.target.rawValue)
        stockDelta = try row.decode(forColumn: K.stockDelta.rawValue)
        timeKnown = try row.decode(forColumn: K.timeKnown.rawValue)
        overLimit = try row.decode(forColumn: K.overLimit.rawValue)
        // A row of a query that did not select it (or of a database before v15) has none.
        origin = row.hasColumn(K.origin.rawValue) ? try row.decode(forColumn: K.origin.rawValue) : nil
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The columns written, by name, not through `Encodable` (every take writes one).
    func encode(to container: inout PersistenceContainer) throws {
        typealias K = CodingKeys
        container[K.id.rawValue] = id
        container[K.medicationID.rawValue] = medicationID
        container[K.kind.rawValue] = kind
        container[K.day.rawValue] = day
        container[K.slotTime.rawValue] = slotTime
        container[K.at.rawValue] = at
        container[K.loggedAt.rawValue] = loggedAt
        container[K.target.rawValue] = target
        container[K.stockDelta.rawValue] = stockDelta
        container[K.timeKnown.rawValue] = timeKnown
        container[K.overLimit.rawValue] = overLimit
        container[K.origin.rawValue] = origin
    }

    /// The event of a row of `indexedColumns`, its kind told from the column's bytes: making a
    /// string of it for each of another device's events, read again for their summaries, weighed
    /// on reading them. A kind this dosebar does not know is refused as ``event()`` does.
    static func event(indexed row: RawStatement.Columns) throws -> DoseEvent {
        let kind: DoseEvent.Kind
        if row.text(2, is: "taken") {
            kind = .taken
        } else if row.text(2, is: "skipped") {
            kind = .skipped
        } else if row.text(2, is: "undone") {
            kind = .undone
        } else {
            return try EventRecord(indexed: row).event()
        }
        return Self.event(kind: kind, id: row.int(0), medicationID: row.int(1), day: Int(row.int(3)),
                          slotTime: row.optionalInt(4).map { Int($0) }, at: row.double(5), loggedAt: row.double(6),
                          target: row.optionalInt(7), stockDelta: Int(row.int(8)), timeKnown: Int(row.int(9)),
                          overLimit: Int(row.int(10)), origin: origin(indexed: row))
    }

    /// The origin in column 11 of a row of `indexedColumns`, told from its bytes like the kind (no
    /// string made); nil when NULL or a word this dosebar does not know.
    static func origin(indexed row: RawStatement.Columns) -> DoseEvent.Origin? {
        // Another device's first: its history is most of the rows a long read goes through.
        if row.text(11, is: "device") { return .device }
        if row.text(11, is: "click") { return .click }
        if row.text(11, is: "terminal") { return .terminal }
        if row.text(11, is: "notification") { return .notification }
        if row.text(11, is: "import") { return .import }
        return nil
    }

    func event() throws -> DoseEvent {
        guard let kind = DoseEvent.Kind(rawValue: kind) else {
            throw DosebarError.badData("event #\(id ?? 0) has an unknown kind '\(self.kind)'; "
                + "it was written by a newer dosebar — upgrade dosebar")
        }
        return Self.event(kind: kind, id: id ?? 0, medicationID: medicationID, day: day, slotTime: slotTime, at: at,
                          loggedAt: loggedAt, target: target, stockDelta: stockDelta, timeKnown: timeKnown, overLimit: overLimit,
                          origin: origin.flatMap(DoseEvent.Origin.init(rawValue:)))
    }

    /// The event of a row's columns, its kind known.
    private static func event(kind: DoseEvent.Kind, id: Int64, medicationID: Int64, day: Int, slotTime: Int?, at: Double,
                              loggedAt: Double, target: Int64?, stockDelta: Int, timeKnown: Int, overLimit: Int,
                              origin: DoseEvent.Origin?) -> DoseEvent {
        let slot = slotTime.map {
            SlotKey(medicationID: medicationID, date: LocalDate(dayNumber: day), time: LocalTime(minuteOfDay: $0))
        }
        return DoseEvent(id: id, medicationID: medicationID, kind: kind, slot: slot,
                         at: Date(timeIntervalSince1970: at), loggedAt: Date(timeIntervalSince1970: loggedAt),
                         target: target, stockDelta: Amount(hundredths: stockDelta), timeKnown: timeKnown != 0, overLimit: overLimit != 0,
                         origin: origin)
    }
}
