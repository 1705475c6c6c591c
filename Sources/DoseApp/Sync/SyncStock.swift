import DoseCore
import DoseStore

/// A medicine's stock derived from its operations (``SyncMerge/stock(_:effective:maximum:)``).
enum SyncStock {
    /// Adds `ids` to the medicines whose stock is still to be derived (``SyncMeta/stockPending``).
    static func remember(_ ids: Set<Int64>, in w: StoreWriter) throws {
        guard !ids.isEmpty else { return }
        let pending = try Self.pending(w.reader).union(ids)
        try w.setMeta(SyncMeta.stockPending, pending.sorted().map(String.init).joined(separator: ","))
    }

    /// Derives the stock of every medicine left pending, and forgets them.
    static func derivePending(in w: StoreWriter) throws {
        let pending = try Self.pending(w.reader)
        guard !pending.isEmpty else { return }
        for id in pending.sorted() where try w.reader.medication(id: id) != nil { try derive(medicationID: id, in: w) }
        try w.setMeta(SyncMeta.stockPending, nil)
    }

    static func pending(_ r: StoreReader) throws -> Set<Int64> {
        Set((try r.meta(SyncMeta.stockPending) ?? "").split(separator: ",").compactMap { Int64($0) })
    }

    /// Derives and stores the stock of medicine `id`; false when its operations leave it as it is
    /// (none sets or refills it).
    @discardableResult
    static func derive(medicationID id: Int64, in w: StoreWriter) throws -> Bool {
        let operations = try w.reader.stockOperations(medicationID: id)
        guard !operations.isEmpty else { return false }
        let stock: Amount?
        let events = Set(operations.compactMap { op -> Int64? in if case .take(_, let event) = op.change { event } else { nil } })
        switch SyncMerge.stock(operations, effective: try w.reader.liveTakenEventIDs(medicationID: id, among: events),
                               maximum: Stock.maximum) {
        case .untouched: return false
        case .untracked: stock = nil
        case .units(let n): stock = n
        }
        if try w.reader.medication(id: id)?.stock != stock { try w.setStock(medicationID: id, stock) }
        return true
    }
}
