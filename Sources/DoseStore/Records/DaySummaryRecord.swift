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
        if let bad = summary.troubled.first(where: { $0.isEmpty || $0.contains(",") }) {
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

    /// The domain value.
    var summary: DaySummary {
        DaySummary(date: LocalDate(dayNumber: day), total: total, taken: taken, onTime: onTime, skipped: skipped,
                   missed: missed, streak: streak, best: best,
                   troubled: troubled.isEmpty ? [] : troubled.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }
}
