import DoseCore
import GRDB

/// One row of `day_summary`: the cached outcome of one finished day.
struct DaySummaryRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "day_summary"

    enum Columns {
        static let day = Column("day")
        static let total = Column("total")
        static let taken = Column("taken")
        static let onTime = Column("on_time")
        static let skipped = Column("skipped")
        static let missed = Column("missed")
        static let streak = Column("streak")
        static let best = Column("best")
        static let troubled = Column("troubled")
    }

    var summary: DaySummary

    init(_ summary: DaySummary) { self.summary = summary }

    init(row: Row) throws {
        let troubled: String = try row.decode(forColumn: Columns.troubled)
        summary = DaySummary(
            date: LocalDate(dayNumber: try row.decode(forColumn: Columns.day)),
            total: try row.decode(forColumn: Columns.total),
            taken: try row.decode(forColumn: Columns.taken),
            onTime: try row.decode(forColumn: Columns.onTime),
            skipped: try row.decode(forColumn: Columns.skipped),
            missed: try row.decode(forColumn: Columns.missed),
            streak: try row.decode(forColumn: Columns.streak),
            best: try row.decode(forColumn: Columns.best),
            troubled: troubled.isEmpty ? [] : troubled.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    func encode(to container: inout PersistenceContainer) throws {
        // `troubled` items are `medicationID@HH:MM`; a comma or an empty item would not round-trip.
        if let bad = summary.troubled.first(where: { $0.isEmpty || $0.contains(",") }) {
            throw DosebarError.internal("day summary item '\(bad)' cannot be stored (empty or contains ',')")
        }
        container[Columns.day] = summary.date.dayNumber
        container[Columns.total] = summary.total
        container[Columns.taken] = summary.taken
        container[Columns.onTime] = summary.onTime
        container[Columns.skipped] = summary.skipped
        container[Columns.missed] = summary.missed
        container[Columns.streak] = summary.streak
        container[Columns.best] = summary.best
        container[Columns.troubled] = summary.troubled.joined(separator: ",")
    }
}
