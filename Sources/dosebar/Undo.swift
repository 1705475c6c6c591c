import ArgumentParser
import DoseCore
import DoseStore

/// `dosebar undo`: revert the latest take or skip.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
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
            // One `take` of several doses is one action: its events were written in one transaction
            // (consecutive ids, the same logged instant), and undo reverts them together.
            let day = event.slot?.date ?? context.zone.date(of: event.at)
            let sameDay = Dictionary(try w.events(days: day...day).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var batch: [DoseEvent] = []
            var id = event.id - 1
            while let e = sameDay[id], e.loggedAt == event.loggedAt, e.kind == event.kind,
                  medication == nil || e.medicationID == medication!.id {
                batch.append(e)
                id -= 1
            }
            for e in [event] + batch {
                _ = try w.insertUndo(of: e, at: context.now)
                if e.stockDelta > 0, let current = try w.medication(id: e.medicationID), let stock = current.stock {
                    try w.setStock(medicationID: e.medicationID, stock + e.stockDelta)
                }
            }
            let m = all.first { $0.id == event.medicationID }
            if day < context.today { try w.invalidateSummaries(from: day) }
            let others = batch.isEmpty ? "" : " and \(batch.count) more dose(s) logged with it"
            let what = event.kind == .taken ? "took" : "skipped"
            let slot = event.slot.map { " (\($0.time) dose" + ($0.date == context.today ? ")" : " of \($0.date))") } ?? ""
            return "Undid: \(what) \(m?.name ?? "#\(event.medicationID)")\(slot)\(others)."
        }
        Output.line(line)
        Refresh.afterChange(context, store)
    }
}
