import DoseCore
import Foundation
import GRDB

/// One row of `medication`: a medicine without its schedule versions.
struct MedicationRecord: Codable, MutablePersistableRecord {
    static let databaseTableName = "medication"

    enum CodingKeys: String, CodingKey {
        case id, name, nameKey = "name_key", dose, group = "group_name", note, stock, perDose = "per_dose"
        case lowDays = "low_days", archivedOn = "archived_on", trackedFrom = "tracked_from"
        case urgent, repeatMinutes = "repeat_minutes"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let nameKey = Column(CodingKeys.nameKey)
        static let archivedOn = Column(CodingKeys.archivedOn)
    }

    var id: Int64?
    var name: String
    /// `name` folded for case-insensitive uniqueness (Unicode lowercase, NFC); unique among active medicines.
    var nameKey: String
    var dose: String?
    var group: String?
    var note: String?
    /// Hundredths of a unit (``Amount``).
    var stock: Int?
    /// Hundredths of a unit.
    var perDose: Int
    var lowDays: Int
    /// `LocalDate.dayNumber`.
    var archivedOn: Int?
    /// Unix seconds (``Medication/trackedFrom``); NULL: tracked from its first schedule day.
    var trackedFrom: Double?
    /// 0 or 1 (``Medication/urgent``).
    var urgent: Int
    /// ``Medication/repeatMinutes``.
    var repeatMinutes: Int?

    /// The key two names collide on: case and Unicode normalisation do not matter.
    static func key(for name: String) -> String { Medication.nameKey(name) }

    init(_ m: Medication) {
        id = nil
        name = m.name
        nameKey = Self.key(for: m.name)
        dose = m.dose
        group = m.group
        note = m.note
        stock = m.stock?.hundredths
        perDose = m.perDose.hundredths
        lowDays = m.lowDays
        archivedOn = m.archivedOn?.dayNumber
        trackedFrom = m.trackedFrom?.timeIntervalSince1970
        urgent = m.urgent ? 1 : 0
        repeatMinutes = m.repeatMinutes
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The columns `init(indexed:)` reads, in its order (the queries of ``StoreReader``).
    static let indexedColumns = "m.id, m.name, m.name_key, m.dose, m.group_name, m.note, m.stock, m.per_dose, m.low_days, m.archived_on, m.tracked_from, m.urgent, m.repeat_minutes"

    /// A row of `indexedColumns`, read by position (every query of medicines): the `Codable`
    /// decoding GRDB would otherwise use cost more than the query, and a look-up per column by
    /// name was most of what reading 50 medicines still cost; a take reads them twice.
    init(indexed row: Row) throws {
        id = try row.decode(atIndex: 0)
        name = try row.decode(atIndex: 1)
        nameKey = try row.decode(atIndex: 2)
        dose = try row.decode(atIndex: 3)
        group = try row.decode(atIndex: 4)
        note = try row.decode(atIndex: 5)
        stock = try row.decode(atIndex: 6)
        perDose = try row.decode(atIndex: 7)
        lowDays = try row.decode(atIndex: 8)
        archivedOn = try row.decode(atIndex: 9)
        trackedFrom = try row.decode(atIndex: 10)
        urgent = try row.decode(atIndex: 11)
        repeatMinutes = try row.decode(atIndex: 12)
    }

    func medication(versions: [ScheduleVersion]) -> Medication {
        Medication(id: id ?? 0, name: name, dose: dose, group: group, note: note, stock: stock.map(Amount.init(hundredths:)),
                   perDose: Amount(hundredths: perDose), lowDays: lowDays, urgent: urgent != 0,
                   repeatMinutes: repeatMinutes, archivedOn: archivedOn.map(LocalDate.init(dayNumber:)),
                   trackedFrom: trackedFrom.map(Date.init(timeIntervalSince1970:)), versions: versions)
    }
}
