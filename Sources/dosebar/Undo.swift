import ArgumentParser
import DoseCore
import DoseStore

/// `dosebar undo`: revert the latest take or skip.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revert the most recent take or skip (of NAME, if given), restoring stock.",
        discussion: """
        Events are never deleted: undo appends an event that cancels the last one.

        Examples:
          $ dosebar undo
          $ dosebar undo Aspirin
        """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Only undo this medicine's latest event.") var name: String?

    func run() throws {
        let context = try AppContext(global)
        let store = try context.openStore()
        let line = try store.write { w -> String in
            let all = try w.medications(includeArchived: true)
            let medication = try name.map { try DoseResolver.match($0, in: all.filter { $0.archivedOn == nil }) }
            guard let event = try w.latestUndoable(medicationID: medication?.id) else {
                throw DosebarError.badData(medication.map { "nothing to undo for \($0.name)" } ?? "nothing to undo")
            }
            _ = try w.insertUndo(of: event, at: context.now)
            let m = all.first { $0.id == event.medicationID }
            if event.stockDelta > 0, let current = try w.medication(id: event.medicationID), let stock = current.stock {
                try w.setStock(medicationID: event.medicationID, stock + event.stockDelta)
            }
            let day = event.slot?.date ?? context.zone.date(of: event.at)
            if day < context.today { try w.invalidateSummaries(from: day) }
            let what = event.kind == .taken ? "took" : "skipped"
            let slot = event.slot.map { " (\($0.time) dose" + ($0.date == context.today ? ")" : " of \($0.date))") } ?? ""
            return "Undid: \(what) \(m?.name ?? "#\(event.medicationID)")\(slot)."
        }
        Output.line(line)
        Refresh.afterChange(context, store)
    }
}
