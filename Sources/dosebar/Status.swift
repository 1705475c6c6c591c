import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar status`: print the current line for one output format.
struct Status: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print what a bar would show now, in one output format.",
        usage: """
        dosebar status [--format <format>] [--json] [--list-formats]
        [<global options>]
        """,
        discussion: """
        Bars should read the pre-rendered files of the shared directory (or 'dosebar watch'); \
        this command is for scripts and checking a format.

        Examples:
          $ dosebar status
          $ dosebar status --format waybar
          $ dosebar status --format json | jq .state
          $ dosebar status --list-formats

        --list-formats prints each format's name and the file of the shared directory that \
        holds it, separated by a tab, one per line (timeline.json is there too).
        """
    )

    @Option(name: .long, help: "The output format (default text).")
    var format: OutputFormat?
    @Flag(name: .long, help: "Print JSON (the same as --format json).") var json = false
    @Flag(name: .long, help: "List the formats and their files in the shared directory.") var listFormats = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func validate() throws { _ = try JSONFlag.format(json: json, format: format, default: .text) }

    func run(_ context: AppContext) throws {
        if listFormats {
            for format in OutputFormat.all { Output.line("\(format.name)\t\(format.fileName)") }
            return
        }
        // validate() checked it.
        let format = try JSONFlag.format(json: json, format: format, default: .text)
        let snapshot = try DayService(store: try context.openStore(), context: context).current()
        Output.line(Exporter(options: context.config.renderOptions(context.catalog)).render(format, snapshot))
    }
}
