import DoseCore
import DoseStore

/// A medicine's stock derived from its operations (``SyncMerge/stock(_:effective:maximum:)``).
enum SyncStock {
    static func derive(medicationID id: Int64, in w: StoreWriter) throws {
        let operations = try w.reader.stockOperations(medicationID: id)
        guard !operations.isEmpty else { return }
        let stock: Amount?
        let events = Set(operations.compactMap { op -> Int64? in if case .take(_, let event) = op.change { event } else { nil } })
        switch SyncMerge.stock(operations, effective: try w.reader.effectiveTakenEventIDs(medicationID: id, among: events),
                               maximum: Stock.maximum) {
        case .untouched: return
        case .untracked: stock = nil
        case .units(let n): stock = n
        }
        if try w.reader.medication(id: id)?.stock != stock { try w.setStock(medicationID: id, stock) }
    }
}
