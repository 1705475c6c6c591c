import DoseCore
import Foundation
import GRDB

/// One row of `medication`: a medicine without its schedule versions.
struct MedicationRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "medication"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let nameKey = Column("name_key")
        static let dose = Column("dose")
        static let group = Column("group_name")
        static let note = Column("note")
        static let stock = Column("stock")
        static let perDose = Column("per_dose")
        static let lowDays = Column("low_days")
        static let archivedOn = Column("archived_on")
    }

    var id: Int64?
    var name: String
    /// `name` folded for case-insensitive uniqueness (Unicode lowercase, NFC); unique among active medicines.
    var nameKey: String
    var dose: String?
    var group: String?
    var note: String?
    var stock: Int?
    var perDose: Int
    var lowDays: Int
    /// `LocalDate.dayNumber`.
    var archivedOn: Int?

    /// The key two names collide on: case and Unicode normalisation do not matter.
    static func key(for name: String) -> String {
        name.lowercased().precomposedStringWithCanonicalMapping
    }

    init(_ m: Medication) {
        id = nil
        name = m.name
        nameKey = Self.key(for: m.name)
        dose = m.dose
        group = m.group
        note = m.note
        stock = m.stock
        perDose = m.perDose
        lowDays = m.lowDays
        archivedOn = m.archivedOn?.dayNumber
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        nameKey = try row.decode(forColumn: Columns.nameKey)
        dose = try row.decode(forColumn: Columns.dose)
        group = try row.decode(forColumn: Columns.group)
        note = try row.decode(forColumn: Columns.note)
        stock = try row.decode(forColumn: Columns.stock)
        perDose = try row.decode(forColumn: Columns.perDose)
        lowDays = try row.decode(forColumn: Columns.lowDays)
        archivedOn = try row.decode(forColumn: Columns.archivedOn)
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.nameKey] = nameKey
        container[Columns.dose] = dose
        container[Columns.group] = group
        container[Columns.note] = note
        container[Columns.stock] = stock
        container[Columns.perDose] = perDose
        container[Columns.lowDays] = lowDays
        container[Columns.archivedOn] = archivedOn
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func medication(versions: [ScheduleVersion]) -> Medication {
        Medication(id: id ?? 0, name: name, dose: dose, group: group, note: note, stock: stock,
                   perDose: perDose, lowDays: lowDays, archivedOn: archivedOn.map(LocalDate.init(dayNumber:)),
                   versions: versions)
    }
}
