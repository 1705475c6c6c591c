import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar undo`: revert the latest take or skip.
struct Undo: ParsableCommand {
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

    @OptionGroup(title: "Global options") var global: GlobalOptions
    @Argument(help: "Only undo this medicine's latest event.", completion: .medicineNames) var name: String?

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let undone = try UndoService(context: context, store: store).undo(name: name)
        let event = undone.event
        let others = undone.others == 0 ? "" : " and \(undone.others) more \(undone.others == 1 ? "dose" : "doses") logged with it"
        let what = event.kind == .taken ? "took" : "skipped"
        let slot = event.slot.map { " (\($0.time) dose" + ($0.date == context.today ? ")" : " of \($0.date))") } ?? ""
        Output.line("Undid: \(what) \(undone.medicationName)\(slot)\(others).")
        Refresh.afterChange(context, store)
    }
}
