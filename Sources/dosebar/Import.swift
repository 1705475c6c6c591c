import ArgumentParser

/// `dosebar import`: history from another app or from a CSV report.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import medicines and doses from Dosage or from a CSV report.",
        discussion: """
        One transaction: everything or nothing. Importing the same data twice adds nothing (a dose \
        already logged for that slot, or an as-needed dose at the same second, is 'already there'). \
        Medicines are matched by name in any letter case; one dosebar already has keeps its schedule \
        and stock. Imported past doses do not change stock.

        Examples:
          $ dosebar import dosage
          $ dosebar import dosage --dry-run \\
              ~/.var/app/io.github.diegopvlk.Dosage/data
          $ dosebar import csv october.csv
        """,
        subcommands: [ImportDosage.self, ImportCSV.self]
    )
}

/// Flags both imports share.
struct ImportOptions: ParsableArguments {
    @Flag(name: .long, help: "Say what would be imported, write nothing.") var dryRun = false
    @Flag(name: .long, help: "Print the summary as JSON: {dry_run, added, reused, taken, skipped, already_there, time_unknown, missed, no_equivalent}.")
    var json = false
}
