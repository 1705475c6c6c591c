import ArgumentParser
import DoseApp
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `dosebar purge`: delete a medicine and all its history for good.
struct Purge: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete a medicine and all its history for good.",
        usage: "dosebar purge <name> [--yes] [<global options>]",
        discussion: """
        Deletes the medicine (active or removed), every dose, note and schedule of it, then \
        compacts the database so no file of it still holds them. With sync on, every device \
        deletes it too. Backups you made still hold it. On a terminal it asks you to type the \
        name; elsewhere (a script) it needs --yes. To stop taking a medicine but keep its \
        history, use 'dosebar remove'.

        Examples:
          $ dosebar purge Ibuprofen
          $ dosebar purge Ibuprofen --yes
        """
    )

    @Argument(help: "The medicine (name or unique prefix), active or removed.", completion: .allMedicineNames) var name: String

    @Flag(name: .long, help: "Delete without asking (needed when not on a terminal).") var yes = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let service = MedicationService(context: context, store: store)
        let target = try service.purgeTarget(name)
        let catalog = context.catalog
        let args = ["name": target.medication.name]
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw DosebarError.usage(catalog.counted("purge.needs_yes", target.doses, args))
            }
            Output.prompt(catalog.counted("purge.ask", target.doses, args) + " ")
            let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard Medication.nameKey(answer) == Medication.nameKey(target.medication.name) else {
                Output.line(catalog.text("purge.kept", args))
                return
            }
        }
        try service.purge(target)
        // Compacted once the change is flushed and shown (``MedicationService/purge(_:)``); "for
        // good" is said only once it is: a compaction that failed (a full disk) says what is left.
        context.settle()
        let compacted: Bool
        do {
            compacted = try service.compact()
        } catch let error as DosebarError {
            throw error.rephrased { reason in
                catalog.text("purge.not_compacted", ["name": target.medication.name, "path": context.dbPath, "reason": reason])
            }
        }
        // A copy of the data a killed backup or restore left beside the database holds the purged doses too.
        for left in Temporaries.removeStale(besideDatabase: context.dbPath) {
            Output.warning(catalog.text("doctor.temporary_left", ["path": left]))
        }
        Output.line(catalog.counted("cli.purged", target.doses, args))
        if !compacted {
            Output.warning(catalog.text("purge.log_held", ["path": service.logPath]))
        }
    }
}
