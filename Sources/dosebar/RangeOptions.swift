import ArgumentParser
import DoseApp
import DoseCore

/// The range of past days of `history`, `stats` and `report`: `--from`, `--to`, `--days`, any two of them.
struct RangeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("First day (YYYY-MM-DD, today, yesterday).", valueName: "date")) var from: String?
    @Option(name: .long, help: ArgumentHelp("Last day (default today).", valueName: "date")) var to: String?
    @Option(name: .long, help: ArgumentHelp("The number of days (1–3660), ending --to or starting --from.", valueName: "N"))
    var days: Int?

    func validate() throws {
        if from != nil && to != nil && days != nil {
            throw ValidationError(Catalog.english.text("usage.range_two"))
        }
        if let days, !(1...3660).contains(days) { throw ValidationError(Catalog.english.text("usage.range_days")) }
    }

    /// The days asked for, ending no later than today; `defaultDays` ending today (or `--to`) when neither
    /// `--from` nor `--days` is given.
    func range(_ service: HistoryService, defaultDays: Int) throws -> ClosedRange<LocalDate> {
        try service.range(from: from, to: to, days: days, defaultDays: defaultDays)
    }
}
