import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar history`: a calendar of past days.
struct HistoryCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
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
    @Flag(name: .long, help: "Print JSON: [{day, state, total, taken, on_time, late, early, skipped, missed}]; duplicates: N on a day where another device's earlier dose resolved N slots; double_dose: N on a day with N slots taken on two devices.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let service = HistoryService(store: try context.openStore(), context: context)
        let medication = try name.map { try service.medication(named: $0) }
        // By default five rows: this week and the four before, from a Monday.
        let days = try range.range(service, defaultDays: 28 + context.today.weekday.rawValue)
        let (records, duplicates) = try service.days(days, medication: medication)
        let twice = try service.doubleDoses(days, medicationID: medication?.id)
        if json {
            Output.line(HistoryJSON.days(records, duplicates: duplicates,
                                         doubleDoses: Dictionary(twice.map { ($0.slot.date, 1) }, uniquingKeysWith: +)))
            return
        }
        let c = context.catalog
        let title = medication?.name ?? c.text("history.all")
        let marks = twice.map { d in
            c.text("history.double_dose", ["name": d.medication, "date": d.slot.date.description, "time": d.slot.time.description,
                                           "takes": d.takeTexts(zone: context.zone).joined(separator: c.listSeparator)])
                + (d.confirmed ? c.text("history.double_dose_confirmed") : "")
        }
        let calendar = HistoryCalendar(title: title, records: records, catalog: c,
                                       color: global.wantsColor(context), duplicates: duplicates.values.reduce(0, +), doubleDoses: marks)
        for line in calendar.lines() { Output.line(line) }
    }
}
