import DoseCore
import DoseStore
import Foundation

/// Adds to a medicine's stock, or sets it.
public struct RefillService {
    public let context: AppContext
    public let store: DoseStore


    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// Adds `units` (capped at `Stock.maximum`) or sets the stock to `set`; returns the medicine with
    /// its new stock (its schedule says how many days that lasts).
    @discardableResult
    public func refill(_ name: String, adding units: Amount?, setTo set: Amount?) throws -> Medication {
        try context.change(store) { scope in
            let w = scope.writer
            var m = try DoseResolver.match(name, in: try w.reader.medications(includeArchived: true), catalog: context.catalog)
            if let units { try FieldRules.units(units) }
            let current = try w.reader.stock(medicationID: m.id)
            let new = set ?? Stock.refill(current, adding: units ?? .zero)
            try w.setStock(medicationID: m.id, new)
            m.stock = new
            guard let journal = try scope.journal() else { return m }
            if let set { try journal.stockSet(m, to: set) } else { try journal.refilled(m, units: units ?? .zero) }
            // The stock the journal derives when it finishes.
            try scope.finishJournal()
            m.stock = try w.reader.stock(medicationID: m.id) ?? new
            return m
        }
    }
}
