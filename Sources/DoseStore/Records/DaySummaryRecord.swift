import DoseCore
import GRDB

/// One row of `day_summary`: the cached outcome of one finished day.
struct DaySummaryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "day_summary"

    enum CodingKeys: String, CodingKey {
        case day, total, taken, onTime = "on_time", skipped, missed, streak, best, troubled
    }

    enum Columns {
        static let day = Column(CodingKeys.day)
    }

    /// `LocalDate.dayNumber`.
    var day: Int
    var total: Int
    var taken: Int
    var onTime: Int
    var skipped: Int
    var missed: Int
    var streak: Int
    var best: Int
    /// `SlotKey.Daily` items (`medicationID@HH:MM`) joined by `,`; empty for none.
    var troubled: String

    /// The row of `summary`; throws for an item that would not round-trip (empty or containing ',').
    init(_ summary: DaySummary) throws {
        // The comma looked for in the bytes: `String.contains` goes through Foundation, for each of
        // the hundreds of thousands of items a fresh device's first export writes.
        if let bad = summary.troubled.first(where: { $0.isEmpty || $0.utf8.contains(UInt8(ascii: ",")) }) {
            throw DosebarError.internal("day summary item '\(bad)' cannot be stored (empty or contains ',')")
        }
        day = summary.date.dayNumber
        total = summary.total
        taken = summary.taken
        onTime = summary.onTime
        skipped = summary.skipped
        missed = summary.missed
        streak = summary.streak
        best = summary.best
        troubled = summary.troubled.joined(separator: ",")
    }

    /// The columns written, by name, not through `Encodable` (the first export after an import
    /// writes one row per day of history).
    func encode(to container: inout PersistenceContainer) throws {
        typealias K = CodingKeys
        container[K.day.rawValue] = day
        container[K.total.rawValue] = total
        container[K.taken.rawValue] = taken
        container[K.onTime.rawValue] = onTime
        container[K.skipped.rawValue] = skipped
        container[K.missed.rawValue] = missed
        container[K.streak.rawValue] = streak
        container[K.best.rawValue] = best
        container[K.troubled.rawValue] = troubled
    }

    /// A row read by column name, not through `Codable` (see ``MedicationRecord/init(indexed:)``).
    init(row: Row) throws {
        typealias K = CodingKeys
        day = try row.decode(forColumn: K.day.rawValue)
        total = try row.decode(forColumn: K.total.rawValue)
        taken = try row.decode(forColumn: K.taken.rawValue)
        onTime = try row.decode(forColumn: K.onTime.rawValue)
        skipped = try row.decode(forColumn: K.skipped.rawValue)
        missed = try row.decode(forColumn: K.missed.rawValue)
        streak = try row.decode(forColumn: K.streak.rawValue)
        best = try row.decode(forColumn: K.best.rawValue)
        troubled = try row.decode(forColumn: K.troubled.rawValue)
    }

    /// The domain value.
    var summary: DaySummary {
        DaySummary(date: LocalDate(dayNumber: day), total: total, taken: taken, onTime: onTime, skipped: skipped,
                   missed: missed, streak: streak, best: best,
                   troubled: troubled.isEmpty ? [] : Self.names(troubled))
    }

    /// The names `troubled` joins. Split on the comma's byte, the inverse of the join (no name holds
    /// one): splitting by Character was most of the cost of reading a month's summaries.
    private static func names(_ joined: String) -> [String] {
        joined.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(Substring($0)) }
    }
}
