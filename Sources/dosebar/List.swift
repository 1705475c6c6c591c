import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar list`: the medicines and their schedules.
struct List: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List medicines and their schedules.",
        usage: "dosebar list [--all] [--json] [<global options>]",
        discussion: """
        Under each medicine: its course (since, until, or ended), window, per dose, \
        group, a schedule change to come (edit --effective) and its note. --json gives \
        the schedule as data (schedule) and in words (schedule_text).

        Examples:
          $ dosebar list
          $ dosebar list --all          # archived ones too
          $ dosebar list --json | jq '.[].name'
        """
    )

    @Flag(name: .long, help: "Include archived medicines.") var all = false
    @Flag(name: .long, help: "Print JSON: [{id, name, dose, group, schedule, schedule_text, times, stock, per_dose, …}].")
    var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let medications = try MedicationService(context: context, store: try context.openStore()).medications(includeArchived: all)
        if json {
            Output.line(try MedicationList.json(medications, today: context.today, zone: context.zone))
        } else {
            MedicationList.lines(medications, today: context.today, catalog: context.catalog).forEach(Output.line)
        }
    }
}
