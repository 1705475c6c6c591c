import DoseCore
import DoseStore
import Foundation

/// Reverts the latest take or skip, restoring the stock it used. Events are never deleted: an
/// undo appends an event that cancels the one it reverts.
public struct UndoService {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// What was reverted.
    public struct Undone: Sendable {
        /// The latest event, the one undo was asked for.
        public var event: DoseEvent
        public var medicationName: String
        /// The other doses logged in the same action and reverted with it.
        public var others: Int
    }

    /// Reverts the most recent take/skip (of the medicine `name` names, if given) and the doses
    /// logged in the same action. `origin`: where the undo came from.
    public func undo(name: String?, origin: DoseEvent.Origin? = nil) throws -> Undone {
        try context.change(store) { scope -> Undone in
            let w = scope.writer
            let all = try w.reader.medications(includeArchived: true)
            let medication = try name.map { try DoseResolver.match($0, in: all, catalog: context.catalog) }
            guard let event = try w.reader.latestUndoable(medicationID: medication?.id) else {
                throw DosebarError.badData(medication.map { "nothing to undo for \($0.name)" } ?? "nothing to undo")
            }
            let day = event.slot?.date ?? context.zone.date(of: event.at)
            let batch = try sameAction(as: event, medicationID: medication?.id, day: day, in: w)
            let journal = try scope.journal()
            for e in [event] + batch {
                try revert(e, origin: origin, in: w, journal)
            }
            // One action may span two days: a click takes last night's dose and this morning's.
            scope.historyChanged(on: ([event] + batch).map { $0.slot?.date ?? context.zone.date(of: $0.at) }.min() ?? day)
            let name = all.first { $0.id == event.medicationID }?.name ?? "#\(event.medicationID)"
            return Undone(event: event, medicationName: name, others: batch.count)
        }
    }

    /// Reverts exactly the events `ids` (the Undo of a click's confirmation), whatever was recorded
    /// since: each take or skip still in force is undone and its stock given back; one undone
    /// already (in a terminal, on another device) or unknown is left alone. Returns those reverted.
    @discardableResult
    public func undo(events ids: [Int64], origin: DoseEvent.Origin? = .notification) throws -> [DoseEvent] {
        try context.change(store) { scope -> [DoseEvent] in
            let w = scope.writer
            let journal = try scope.journal()
            var reverted: [DoseEvent] = []
            for id in ids {
                guard let e = try w.reader.event(id: id), e.kind != .undone, !(try w.reader.isUndone(eventID: id)) else { continue }
                try revert(e, origin: origin, in: w, journal)
                reverted.append(e)
            }
            if let day = reverted.map({ $0.slot?.date ?? context.zone.date(of: $0.at) }).min() { scope.historyChanged(on: day) }
            return reverted
        }
    }

    /// The undo of one event: the cancelling event, the stock it used given back, the operation for other devices.
    private func revert(_ e: DoseEvent, origin: DoseEvent.Origin?, in w: StoreWriter, _ journal: SyncJournal?) throws {
        _ = try w.insertUndo(of: e, at: context.now, origin: origin)
        if e.stockDelta > .zero, let stock = try w.reader.stock(medicationID: e.medicationID) {
            try w.setStock(medicationID: e.medicationID, Stock.giveBack(e.stockDelta, to: stock))
        }
        try journal?.undone(e)
    }

    /// One `take` of several doses is one action: its events were written in one transaction
    /// (consecutive ids, the same logged instant), and undo reverts them together.
    private func sameAction(as event: DoseEvent, medicationID: Int64?, day: LocalDate, in w: StoreWriter) throws -> [DoseEvent] {
        // The day before and after too: one action may take yesterday's open dose and today's.
        let sameDay = Dictionary(try w.reader.events(days: day.adding(days: -1)...day.adding(days: 1)).map { ($0.id, $0) },
                                 uniquingKeysWith: { a, _ in a })
        var batch: [DoseEvent] = []
        var id = event.id - 1
        while let e = sameDay[id], e.loggedAt == event.loggedAt, e.kind == event.kind,
              medicationID == nil || e.medicationID == medicationID {
            batch.append(e)
            id -= 1
        }
        return batch
    }
}
