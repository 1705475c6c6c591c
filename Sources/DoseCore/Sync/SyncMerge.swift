import Foundation

/// The merge rules of sync (DESIGN §10), as pure functions of the operations: two devices that
/// have the same ones decide the same, whatever order they arrived in. The app reads the facts
/// from its database, asks these, and writes the answers.
public enum SyncMerge {
    // MARK: - Order

    /// Operations apply in stamp order (``SyncClock``: the text order is the clock's), then by id.
    public static func precedes(_ a: (stamp: String, id: String), _ b: (stamp: String, id: String)) -> Bool {
        (a.stamp, a.id) < (b.stamp, b.id)
    }

    // MARK: - Registers

    /// Whether a write stamped `stamp` replaces the one stamped `current` (nil: none yet) in a
    /// register — a medicine's detail, its archive day, a schedule version: the later stamp wins.
    public static func wins(_ stamp: String, over current: String?) -> Bool {
        guard let current else { return true }
        return stamp > current
    }

    /// The register of the schedule version of a medicine that starts on `effective`: versions
    /// are keyed by medicine and effective day.
    public static func versionRegister(effective: LocalDate) -> String { "v:" + effective.description }

    /// The value each register ends with after `writes`, in any order.
    public static func registers<Key: Hashable, Value>(_ writes: [(key: Key, stamp: String, value: Value)]) -> [Key: Value] {
        var won: [Key: (stamp: String, value: Value)] = [:]
        for write in writes where wins(write.stamp, over: won[write.key]?.stamp) {
            won[write.key] = (write.stamp, write.value)
        }
        return won.mapValues(\.value)
    }

    // MARK: - Doses

    /// A take or skip of one slot, as the merge sees it.
    public struct SlotDose: Sendable, Equatable {
        /// The local event.
        public var event: Int64
        public var at: Date
        /// The first operation (by stamp) that names the event.
        public var operation: String
        public var undone: Bool

        public init(event: Int64, at: Date, operation: String, undone: Bool = false) {
            self.event = event; self.at = at; self.operation = operation; self.undone = undone
        }
    }

    /// Whether a take or skip at `at` (Unix seconds) is an event of the same kind and slot (or
    /// medicine and day, as needed) logged at `existing`: doses are a set, one per second.
    public static func isSameDose(at: Double, as existing: Date) -> Bool {
        DoseEvent.second(at) == DoseEvent.second(of: existing)
    }

    /// A slot's doses split by ``CountingEvents`` rule 3: of those not undone, the first by
    /// ``CountingEvents/keeps(_:before:)`` (taken earliest) is effective, the others are duplicates.
    public static func resolve(_ doses: [SlotDose]) -> (effective: SlotDose?, duplicates: [SlotDose]) {
        let live = doses.filter { !$0.undone }.sorted {
            CountingEvents.keeps(($0.at, $0.operation, $0.event), before: ($1.at, $1.operation, $1.event))
        }
        return (live.first, Array(live.dropFirst()))
    }

    /// A take of a slot, as the double-dose rule sees it: the first operation that names its event
    /// and that operation's device.
    public struct SlotTake: Sendable, Equatable {
        public var operation: String
        public var device: String

        public init(operation: String, device: String) {
            self.operation = operation; self.device = device
        }
    }

    /// What a slot's live takes (not undone) are, by the merge rule of DESIGN §10: two or more
    /// operations from two or more devices are a double dose — both kept, never merged away — which
    /// stays a warning until a confirmation names every one of them (`confirmed`: the take
    /// operations the `confirm` operations applied here name). A take seen on two devices at the
    /// same second is one event, one dose (an import of the same history on both).
    public enum DoubleState: Sendable, Equatable {
        case none
        case open
        case confirmed
    }

    public static func doubleDose(_ takes: [SlotTake], confirmed: Set<String>) -> DoubleState {
        guard Set(takes.map(\.operation)).count > 1, Set(takes.map(\.device)).count > 1 else { return .none }
        return takes.allSatisfy { confirmed.contains($0.operation) } ? .confirmed : .open
    }

    /// What an undo does.
    public enum UndoStep: Sendable, Equatable {
        /// The operation it names is not here yet: try again on a later read.
        case wait
        /// Revert the event the named operation wrote.
        case revert(Int64)
        /// The event is undone already (the same undo read twice, or an undo from each device).
        case nothing
    }

    /// An undo reverts the operation it names: `event` is the event that operation wrote (nil:
    /// unknown here), `undone` whether it is undone already.
    public static func undo(of event: Int64?, undone: Bool) -> UndoStep {
        guard let event else { return .wait }
        return undone ? .nothing : .revert(event)
    }

    // MARK: - Stock

    /// An operation that moves a medicine's stock.
    public struct StockOperation: Sendable, Equatable {
        public enum Change: Sendable, Equatable {
            /// `refill --set` (or a stock given to add/edit): an absolute value; nil stops tracking.
            case set(Amount?)
            /// `refill N`.
            case refill(Amount)
            /// A take of `units`, written as `event` here (nil: not applied).
            case take(units: Amount, event: Int64?)
        }

        public var stamp: String
        public var id: String
        public var change: Change

        public init(stamp: String, id: String, _ change: Change) {
            self.stamp = stamp; self.id = id; self.change = change
        }
    }

    /// A stock the operations derive.
    public enum DerivedStock: Sendable, Equatable {
        /// No `set` nor `refill` among them: the stock stays what it is.
        case untouched
        /// Not tracked.
        case untracked
        case units(Amount)
    }

    /// Stock derived from the operations, in stamp order whatever order they come in: the last
    /// `set` is absolute at its stamp, later refills and effective takes apply on top, never below 0
    /// nor above `maximum` (a value out of that range is clamped into it). A refill before any `set` starts from 0; a take before any counts
    /// nothing. A take counts once per event (two devices' takes of one dose at one second are one
    /// event) and not at all unless its event is in `effective`: every take not undone, a slot's
    /// second take (a double dose, a duplicate for the slot's status) included — it was swallowed.
    public static func stock(_ operations: [StockOperation], effective: Set<Int64>, maximum: Amount) -> DerivedStock {
        let ordered = operations.sorted { precedes(($0.stamp, $0.id), ($1.stamp, $1.id)) }
        guard ordered.contains(where: { if case .take = $0.change { false } else { true } }) else { return .untouched }
        var stock: Amount?
        var counted = Set<Int64>()
        for op in ordered {
            switch op.change {
            // Every step stays in 0…maximum, whatever an operation stored out of range says (a set of
            // 2^63 - 1, a take of -2^63): the sums saturate and the result is clamped.
            case .set(let value): stock = value.map { min(max($0, .zero), maximum) }
            case .refill(let units): stock = min(Stock.refill(stock, adding: units), maximum)
            case .take(let units, let event):
                guard let event, effective.contains(event), counted.insert(event).inserted, let s = stock else { continue }
                stock = min(max(.zero, Stock.clamped(s) - units), maximum)
            }
        }
        return stock.map(DerivedStock.units) ?? .untracked
    }

    // MARK: - Medicines

    /// An `add`: a medicine under a new global id.
    public struct MedicineAdd: Sendable, Equatable {
        public var gid: String
        /// ``Medication/nameKey(_:)`` of the name it was added under.
        public var nameKey: String
        public var device: String
        public var stamp: String
        /// The global ids of the medicines of that name the adding device had (removed or renamed
        /// away, or it could not have added the name): the new one is none of them.
        public var distinctFrom: [String]

        public init(gid: String, nameKey: String, device: String, stamp: String, distinctFrom: [String] = []) {
            self.gid = gid; self.nameKey = nameKey; self.device = device; self.stamp = stamp; self.distinctFrom = distinctFrom
        }
    }

    /// A medicine this device has, by the adds that named it.
    public struct KnownMedicine: Sendable, Equatable {
        public var id: Int64
        public var adds: [MedicineAdd]
        /// Its name key now, when it is active.
        public var activeNameKey: String?

        public init(id: Int64, adds: [MedicineAdd], activeNameKey: String?) {
            self.id = id; self.adds = adds; self.activeNameKey = activeNameKey
        }
    }

    /// Which medicine an add is.
    public enum AddMatch: Sendable, Equatable {
        /// A medicine it names as distinct is not here yet: try again on a later read.
        case wait
        /// This one (added under the same name on another device: one medicine).
        case same(Int64)
        case new
    }

    /// A medicine added on two devices under one name is one medicine: the add is the medicine first
    /// added (by stamp) under its name by another device — renames since do not matter — or
    /// else the active medicine of that name; never one the adding device said it is not, nor one
    /// its own device added under that name (a device never adds one medicine twice).
    /// `known` must hold every medicine with an add of that name, the active one of that name,
    /// and those the add names as distinct.
    public static func match(_ add: MedicineAdd, among known: [KnownMedicine]) -> AddMatch {
        let gids = Set(known.flatMap { $0.adds.map(\.gid) })
        guard add.distinctFrom.allSatisfy(gids.contains) else { return .wait }
        let excluded = Set(add.distinctFrom)
        let allowed = known.filter { !$0.adds.contains { excluded.contains($0.gid) } }
        let firstAdds = allowed.compactMap { m -> (id: Int64, first: MedicineAdd)? in
            let named = m.adds.filter { $0.nameKey == add.nameKey }
            guard !named.contains(where: { $0.device == add.device }),
                  let first = named.min(by: { precedes(($0.stamp, $0.gid), ($1.stamp, $1.gid)) }) else { return nil }
            return (m.id, first)
        }
        if let earliest = firstAdds.min(by: { precedes(($0.first.stamp, $0.first.gid), ($1.first.stamp, $1.first.gid)) }) {
            return .same(earliest.id)
        }
        if let active = allowed.first(where: { $0.activeNameKey == add.nameKey }) { return .same(active.id) }
        return .new
    }
}
