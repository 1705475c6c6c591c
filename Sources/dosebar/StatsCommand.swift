import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar stats`: adherence figures over N days and the N before.
struct StatsCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show adherence over the last N days, next to the N days before.",
        usage: """
        dosebar stats [<name>] [--from <date>] [--to <date>] [--days <N>]
        [--json] [<global options>]
        """,
        discussion: """
        Per medicine and overall: doses taken of those whose outcome is known (taken, skipped or \
        missed; today's pending doses do not count yet), taken on time (within the window), late, \
        early, skipped, missed, the mean lateness of late doses and the time most often taken late \
        or missed.

        Examples:
          $ dosebar stats
          $ dosebar stats Metformin --days 90
          $ dosebar stats --json | jq '.overall.adherence, .previous.adherence'
        """
    )

    @Argument(help: "Only this medicine (name or unique prefix; archived ones too).", completion: .medicineNames)
    var name: String?
    @OptionGroup var range: RangeOptions
    @Flag(name: .long, help: "Print JSON: {days, from, to, overall, previous, medications: [{name, most_late_slot, …}]}.")
    var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let service = HistoryService(store: try context.openStore(), context: context)
        let medication = try name.map { try service.medication(named: $0) }
        // The days asked for (default the last 30), next to as many just before them.
        let current = try range.range(service, defaultDays: 30)
        let stats = try service.stats(current, medication: medication)
        if json {
            Output.line(HistoryJSON.stats(stats))
        } else {
            StatsTable(stats: stats, catalog: context.catalog, previous: HistoryService.previous(current)).lines().forEach(Output.line)
        }
    }
}
