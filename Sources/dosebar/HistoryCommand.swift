import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar history`: a calendar of past days.
struct HistoryCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        _superCommandName: "dosebar",
        abstract: "Show a calendar of past days, coloured by how each day went.",
        usage: """
        dosebar history [<name>] [--from <date>] [--to <date>] [--days <N>]
        [--json] [<global options>]
        """,
        discussion: """
        One row per week, Monday first. A day is 'all taken' when every dose was taken or skipped \
        (at least one taken), 'some missed', 'missed', 'skipped' (all skipped), 'rest day' (a cycle \
        rested), or has nothing scheduled; today is 'not complete' until it is. Colour when stdout is \
        a terminal; letters otherwise (and with NO_COLOR). Archived medicines keep their history.

        Default: the last 5 weeks (this week and the 4 before).

        Examples:
          $ dosebar history
          $ dosebar history Metformin --from 2026-09-01
          $ dosebar history --from 2026-10-01 --to 2026-10-31 --json \\
              | jq '.[] | select(.state == "missed")'
        """
    )

    @Argument(help: "Only this medicine (name or unique prefix; archived ones too).", completion: .medicineNames)
    var name: String?
    @OptionGroup var range: RangeOptions
    @Flag(name: .long, help: "Print JSON: [{day, state, total, taken, on_time, late, early, skipped, missed}]; duplicates: N on a day where sync merged N doses.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let service = HistoryService(store: try context.openStore(), context: context)
        let medication = try name.map { try service.medication(named: $0) }
        // By default five rows: this week and the four before, from a Monday.
        let days = try range.range(service, defaultDays: 28 + context.today.weekday.rawValue)
        let (records, duplicates) = try service.days(days, medication: medication)
        if json {
            Output.line(HistoryJSON.days(records, duplicates: duplicates))
            return
        }
        let title = medication?.name ?? context.catalog.text("history.all")
        let calendar = HistoryCalendar(title: title, records: records, catalog: context.catalog,
                                       color: global.wantsColor(context), duplicates: duplicates.values.reduce(0, +))
        for line in calendar.lines() { Output.line(line) }
    }
}
