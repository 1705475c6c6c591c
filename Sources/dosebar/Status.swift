import ArgumentParser
import DoseCore
import DoseExport

/// `dosebar status`: print the current line for one output format.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print what a bar would show now, in one output format.",
        discussion: """
        Bars should read the pre-rendered files of the shared directory (or 'dosebar watch');
        this command is for scripts and checking a format.

        Examples:
          $ dosebar status
          $ dosebar status --format waybar
          $ dosebar status --format json | jq .state
        """
    )

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("One of: \(OutputFormat.names.joined(separator: ", ")).", valueName: "format"))
    var format: String = "text"

    func run() throws {
        guard let f = OutputFormat(rawValue: format) else {
            throw DosebarError.usage("--format: '\(format)' is not one of \(OutputFormat.names.joined(separator: ", "))")
        }
        let context = try AppContext(global)
        let store = try context.openStore()
        let timeline = try DayService(store: store, context: context).timeline()
        guard let snapshot = timeline.entry(at: context.now) else { throw DosebarError.internal("empty timeline") }
        Output.line(Exporter(options: context.config.renderOptions(context.catalog)).render(f, snapshot))
    }
}
