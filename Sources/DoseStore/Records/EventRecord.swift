import DoseCore
import Foundation
import GRDB

/// One row of `event`: a take, skip or undo, never updated or deleted once written.
struct EventRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "event"

    enum Columns {
        static let id = Column("id")
        static let medicationID = Column("medication_id")
        static let kind = Column("kind")
        static let day = Column("day")
        static let slotTime = Column("slot_time")
        static let at = Column("at")
        static let loggedAt = Column("logged_at")
        static let target = Column("target")
        static let stockDelta = Column("stock_delta")
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
    var stockDelta: Int

    init(_ e: DoseEvent, day: LocalDate) {
        id = nil
        medicationID = e.medicationID
        kind = e.kind.rawValue
        self.day = day.dayNumber
        slotTime = e.slot?.time.minuteOfDay
        at = e.at.timeIntervalSince1970
        loggedAt = e.loggedAt.timeIntervalSince1970
        target = e.target
        stockDelta = e.stockDelta
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        medicationID = try row.decode(forColumn: Columns.medicationID)
        kind = try row.decode(forColumn: Columns.kind)
        day = try row.decode(forColumn: Columns.day)
        slotTime = try row.decode(forColumn: Columns.slotTime)
        at = try row.decode(forColumn: Columns.at)
        loggedAt = try row.decode(forColumn: Columns.loggedAt)
        target = try row.decode(forColumn: Columns.target)
        stockDelta = try row.decode(forColumn: Columns.stockDelta)
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.medicationID] = medicationID
        container[Columns.kind] = kind
        container[Columns.day] = day
        container[Columns.slotTime] = slotTime
        container[Columns.at] = at
        container[Columns.loggedAt] = loggedAt
        container[Columns.target] = target
        container[Columns.stockDelta] = stockDelta
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func event() throws -> DoseEvent {
        guard let kind = DoseEvent.Kind(rawValue: kind) else {
            throw DosebarError.badData("event #\(id ?? 0) has an unknown kind '\(self.kind)'; "
                + "it was written by a newer dosebar — upgrade dosebar")
        }
        let slot = slotTime.map {
            SlotKey(medicationID: medicationID, date: LocalDate(dayNumber: day), time: LocalTime(minuteOfDay: $0))
        }
        return DoseEvent(id: id ?? 0, medicationID: medicationID, kind: kind, slot: slot,
                         at: Date(timeIntervalSince1970: at), loggedAt: Date(timeIntervalSince1970: loggedAt),
                         target: target, stockDelta: stockDelta)
    }
}
