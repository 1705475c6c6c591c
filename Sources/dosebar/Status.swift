import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar status`: print the current line for one output format.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print what a bar would show now, in one output format.",
        usage: "dosebar status [--format <format>] [<global options>]",
        discussion: """
        Bars should read the pre-rendered files of the shared directory (or 'dosebar watch'); \
        this command is for scripts and checking a format.

        Examples:
          $ dosebar status
          $ dosebar status --format waybar
          $ dosebar status --format json | jq .state
        """
    )

    @Option(name: .long, help: "The output format.")
    var format: OutputFormat = .text

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let timeline = try DayService(store: store, context: context).timeline()
        guard let snapshot = timeline.entry(at: context.now) else { throw DosebarError.internal("empty timeline") }
        Output.line(Exporter(options: context.config.renderOptions(context.catalog)).render(format, snapshot))
    }
}
