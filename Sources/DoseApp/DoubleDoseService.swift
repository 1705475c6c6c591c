import DoseCore
import DoseStore
import Foundation

/// Slots taken on two devices (DESIGN §10 Merge rules): read for the bar, history and the report,
/// and confirmed by the person (`dosebar confirm`, the notification's action) with a synced
/// `confirm` operation, so every device stops warning.
public struct DoubleDoseService {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// The double doses of `days` (every day when nil), of one medicine when given, in slot order.
    /// `medications`: to name them (archived ones included).
    public static func read(_ r: StoreReader, days: ClosedRange<LocalDate>? = nil, medicationID: Int64? = nil,
                            medications: [Medication]) throws -> [DoubleDose] {
        let rows = try r.doubleDoseTakes(days: days, medicationID: medicationID)
        guard !rows.isEmpty else { return [] }
        let confirmed = try r.confirmedTakes()
        let names = Dictionary(medications.map { ($0.id, $0.name) }) { a, _ in a }
        var out: [DoubleDose] = []
        for (slot, takes) in Dictionary(grouping: rows, by: \.slot).sorted(by: { $0.key < $1.key }) {
            let state = SyncMerge.doubleDose(takes.map { SyncMerge.SlotTake(operation: $0.operation, device: $0.device) },
                                             confirmed: confirmed)
            guard state != .none else { continue }
            out.append(DoubleDose(medication: names[slot.medicationID] ?? "#\(slot.medicationID)", slot: slot,
                                  takes: takes.map { DoubleDose.Take(device: $0.device, at: $0.at, operation: $0.operation) },
                                  confirmed: state == .confirmed))
        }
        return out
    }

    /// The double doses of `days` (all when nil).
    public func doubles(_ days: ClosedRange<LocalDate>? = nil, medicationID: Int64? = nil) throws -> [DoubleDose] {
        try store.read { r in
            try Self.read(r, days: days, medicationID: medicationID, medications: try r.medications(includeArchived: true))
        }
    }

    /// Confirms that both takes of a double dose of the medicine `name` names were taken: the one
    /// not confirmed yet (of the slot at `time`, on `day` when given). Refused (65) when there is
    /// none, or several.
    @discardableResult
    public func confirm(_ name: String, day: LocalDate? = nil, time: LocalTime? = nil) throws -> DoubleDose {
        try confirm { all in
            let m = try DoseResolver.match(name, in: all, catalog: context.catalog, archived: true)
            return (m, { d in
                guard d.slot.medicationID == m.id else { return false }
                guard let time else { return true }
                return d.slot.time == time && (day == nil || d.slot.date == day)
            })
        }
    }

    /// Confirms the double dose of `slot` (a notification's action).
    @discardableResult
    public func confirm(slot: SlotKey) throws -> DoubleDose {
        try confirm { all in
            guard let m = all.first(where: { $0.id == slot.medicationID }) else {
                throw DosebarError.badData(context.catalog.text("error.no_double_dose", ["name": "#\(slot.medicationID)"]))
            }
            return (m, { $0.slot == slot })
        }
    }

    /// Confirms the one double dose not confirmed yet that `pick` (given every medicine) names.
    private func confirm(_ pick: ([Medication]) throws -> (Medication, (DoubleDose) -> Bool)) throws -> DoubleDose {
        let c = context.catalog
        return try context.change(store) { scope -> DoubleDose in
            let w = scope.writer
            let all = try w.reader.medications(includeArchived: true)
            let (m, matches) = try pick(all)
            let open = try Self.read(w.reader, medicationID: m.id, medications: all).filter { !$0.confirmed && matches($0) }
            guard let double = open.last else {
                throw DosebarError.badData(c.text("error.no_double_dose", ["name": m.name]))
            }
            guard open.count == 1 else {
                let slots = open.map { "--slot '\($0.slot.date) \($0.slot.time)'" }.joined(separator: c.listSeparator)
                throw DosebarError.badData(c.text("error.double_dose_which", ["name": m.name, "slots": slots]))
            }
            let operations = double.takes.map(\.operation)
            try w.confirmTakes(operations)
            if let journal = try scope.journal() {
                try journal.confirmed(m, slot: double.slot, takes: operations)
            }
            var done = double
            done.confirmed = true
            return done
        }
    }
}
