import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar undo`: revert the latest take or skip.
struct Undo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the most recent take or skip (of NAME, if given), restoring stock.",
        usage: "dosebar undo [<name>] [<global options>]",
        discussion: """
        Events are never deleted: undo appends an event that cancels the last one.

        Examples:
          $ dosebar undo
          $ dosebar undo Aspirin
        """
    )

    @Argument(help: "Only undo this medicine's latest event.", completion: .medicineNames) var name: String?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // A config error never loses a dose (DESIGN §9): recorded, rendered with the defaults, warned.
    static let recordsDoses = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let undone = try UndoService(context: context, store: store).undo(name: name, origin: CommandOrigin.current())
        let c = context.catalog
        let event = undone.event
        let others = undone.others == 0 ? "" : c.counted("cli.undid_others", undone.others)
        let slot = event.slot.map { s in
            c.text(s.date == context.today ? "cli.undid_slot" : "cli.undid_slot_of", ["time": s.time.description, "date": s.date.description])
        } ?? ""
        Output.line(c.text(event.kind == .taken ? "cli.undid_taken" : "cli.undid_skipped",
                           ["name": undone.medicationName, "slot": slot, "others": others]))
    }
}
