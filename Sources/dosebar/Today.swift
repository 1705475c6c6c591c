import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar today`: today's doses with their status.
struct Today: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today's doses and their status.",
        usage: "dosebar today [--json] [<global options>]",
        discussion: """
        Colour when stdout is a terminal (never with NO_COLOR set).

        Examples:
          $ dosebar today
          $ dosebar today --json | jq '.doses[] | {medication, status}'
          $ DOSEBAR_NOW=2026-11-22T21:30:00+09:00 dosebar today
        """
    )

    @Flag(name: .long, help: "Print today as JSON: the snapshot the bars read (snapshot.json).") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let snapshot = try DayService(store: try context.openStore(), context: context).snapshot()
        if json {
            Output.line(SnapshotJSON.snapshot(snapshot))
        } else {
            TodayText.lines(snapshot, catalog: context.catalog, color: global.wantsColor(context)).forEach(Output.line)
        }
    }
}
