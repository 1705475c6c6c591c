import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar config`: every path and setting in force, and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the paths and settings in force, and where each came from.",
        usage: "dosebar config [--json] [<global options>]",
        discussion: """
        Each line names a setting, its value and its source: a flag (--db), an environment \
        variable (DOSEBAR_DB, XDG_DATA_HOME, TZ, LANG …), the config file, or the default. \
        A config file with an error is named with the error; the defaults are shown.

        Examples:
          $ dosebar config
          $ dosebar config --json | jq -r .database.value
        """
    )

    @Flag(name: .long, help: "Print JSON: {setting: {value, source, name?, …}}.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        // A config file with an error is what this command is for: show it, not exit 78.
        try run(try AppContext(global.options, configErrors: .useDefaults))
    }

    /// Prints ``ConfigReport``: a line per setting, or JSON.
    func run(_ context: AppContext) throws {
        let report = ConfigReport(context)
        if json { Output.line(try report.json()) } else { report.lines(context.catalog).forEach(Output.line) }
    }
}
