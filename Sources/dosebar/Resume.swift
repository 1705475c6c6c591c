import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar resume`: bring a removed (archived) medicine back from today.
struct Resume: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Bring a removed medicine back from today, with its history and stock.",
        usage: "dosebar resume <name> [<global options>]",
        discussion: """
        It is scheduled again from today on the schedule it had; the days it was removed stay \
        without doses (nothing counts as missed). Today's doses before now show as due or late, as \
        for a medicine added today. If another medicine now has its name, rename one of them first.

        Examples:
          $ dosebar remove Ibuprofen
          $ dosebar resume Ibuprofen
          $ dosebar list --all
        """
    )

    @Argument(help: "The removed medicine (name or unique prefix).", completion: .archivedMedicineNames) var name: String

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let resumed = try MedicationService(context: context, store: store).resume(name)
        Output.line(context.catalog.text("cli.resumed", ["name": resumed.medication.name]))
    }
}
