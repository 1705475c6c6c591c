import Foundation

/// Something the user logged. Events are append-only; an undo is an event that cancels another.
public struct DoseEvent: Hashable, Sendable, Identifiable {
    public enum Kind: String, Sendable { case taken, skipped, undone }

    /// Where an event came from (DESIGN §2): a person at a terminal, a bar click or a script (no
    /// terminal), a notification's action, an import, or another device's operation applied by sync.
    /// Events written before schema `v15-event-origin` have none (nil).
    public enum Origin: String, Sendable, CaseIterable { case terminal, click, notification, `import`, device }

    public var id: Int64
    public var medicationID: Int64
    public var kind: Kind
    /// The scheduled slot this event resolves; nil for an as-needed (extra) dose and for `undone`.
    public var slot: SlotKey?
    /// When it actually happened (taken/skipped), as a UTC instant.
    public var at: Date
    /// When it was written.
    public var loggedAt: Date
    /// For `undone`: the event it cancels.
    public var target: Int64?
    /// Stock units this event removed (so undo can restore exactly that).
    public var stockDelta: Amount
    /// False when the record it was imported from did not say when the dose was taken: `at` is then
    /// the slot's scheduled instant, a stand-in (`history --json` and the report say so).
    public var timeKnown: Bool
    /// An as-needed dose recorded with `take --force` beyond `--max-per-day`/`--min-interval`
    /// (DESIGN §2): history and the report mark it `over_limit`.
    public var overLimit: Bool
    /// Where it came from; nil for an event older than the column.
    public var origin: Origin?

    public init(id: Int64, medicationID: Int64, kind: Kind, slot: SlotKey?, at: Date, loggedAt: Date,
                target: Int64? = nil, stockDelta: Amount = 0, timeKnown: Bool = true, overLimit: Bool = false,
                origin: Origin? = nil) {
        self.id = id; self.medicationID = medicationID; self.kind = kind; self.slot = slot
        self.at = at; self.loggedAt = loggedAt; self.target = target; self.stockDelta = stockDelta
        self.timeKnown = timeKnown; self.overLimit = overLimit; self.origin = origin
    }
}

extension DoseEvent {
    /// A dose's identity in time: the whole second it was taken at, rounded down and clamped (never a
    /// trap). Two records of one medicine's dose in the same second are one dose: sync's set of doses
    /// (``SyncMerge/isSameDose(at:as:)``) and an import's idempotency both use this.
    public static func second(_ unixSeconds: Double) -> Int64 {
        guard unixSeconds.isFinite else { return 0 }
        return Int64(max(-9e15, min(unixSeconds, 9e15)).rounded(.down))
    }

    /// ``second(_:)`` of an instant.
    public static func second(of date: Date) -> Int64 { second(date.timeIntervalSince1970) }
}
