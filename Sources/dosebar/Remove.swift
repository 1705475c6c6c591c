import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar remove`: archive a medicine; its history stays.
struct Remove: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Archive a medicine: gone from today on, its history kept.",
        usage: "dosebar remove <name> [<global options>]",
        discussion: """
        Past doses stay in history, streaks and adherence. 'dosebar list --all' still shows it; \
        'dosebar resume' brings it back, 'dosebar purge' deletes it and its history for good.

        Examples:
          $ dosebar remove Ibuprofen
          $ dosebar resume Ibuprofen
        """
    )

    @Argument(help: "The medicine (name or unique prefix).", completion: .medicineNames) var name: String

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let removed = try MedicationService(context: context, store: store).remove(name)
        Output.line(context.catalog.text("cli.archived", ["name": removed]))
    }
}
