import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar sync status`: the devices this one knows and how far it applied each.
struct SyncStatus: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the devices, how many of their operations were applied, and the lines skipped, held or waiting.",
        usage: "dosebar sync status [--json] [<global options>]",
        discussion: """
        A stamp is MILLISECONDS-COUNTER-DEVICE (a hybrid logical clock). Then the lines of other \
        devices' files that were skipped (file, line, why), the operations held (stamped more than \
        24 h ahead of this clock) and those waiting for what they name.

        Example:
          $ dosebar sync status
        """
    )

    @Flag(name: .long, help: "Print JSON: {device, dir, clone, devices, skipped, waiting}.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let report = try SyncService(context: context, store: try context.openStore()).statusReport()
        if json { Output.line(report.json) } else { report.lines(context.catalog).forEach(Output.line) }
    }
}
