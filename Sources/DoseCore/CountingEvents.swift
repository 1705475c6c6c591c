import Foundation

/// Which dose events count: the one home of the rule (DESIGN §2 `undo`, §3 status, §10 merge).
///
/// In words:
/// 1. Only a take or a skip is a dose. An `undone` event is never one: it cancels the event it targets.
/// 2. A cancelled event (the target of an undo) counts for nothing. Events are never deleted or
///    changed: an undo is how a dose stops counting.
/// 3. Doses form a set across devices (sync): of the doses of one slot not cancelled, the one taken
///    earliest counts — on a tie the one with the smaller first operation id, then the smaller local
///    event id — and the others are its *duplicates*: kept (history shows how many) but not counted.
///    Only the merge of sync decides duplicates; as-needed doses are never duplicates of each other.
/// 4. Of a slot's counting events, the one logged last (then the highest id) resolves the slot.
///
/// An event that passes rules 1–3 is *effective*. Who uses which part:
/// - ``DayPlan`` judges a day's slots by rules 1, 2 and 4 (what the store hands it has passed rule 3).
/// - ``SyncMerge/resolve(_:)`` splits a slot's doses by rule 3; the store keeps its answer (table
///   `sync_duplicate`, written by `StoreWriter.resolveSlot`).
/// - The store selects effective events in SQL, which cannot call this type: `StoreReader.effective`
///   is the translation of rules 1–3, and `CountingEventsStoreTests` checks it against
///   ``effective(_:duplicates:)`` on many random event logs.
public enum CountingEvents {
    /// Rule 1: whether an event of this kind is a dose (a take or a skip).
    public static func isDose(_ kind: DoseEvent.Kind) -> Bool { kind != .undone }

    /// Rule 2: the ids of the events the undo events among `events` cancel (none without an undo: no set built).
    public static func cancelled(in events: [DoseEvent]) -> Set<Int64> {
        guard events.contains(where: { $0.kind == .undone }) else { return [] }
        return Set(events.compactMap { $0.kind == .undone ? $0.target : nil })
    }

    /// Rules 1 and 2: whether `e` is a dose not cancelled (``cancelled(in:)`` of its log).
    public static func counts(_ e: DoseEvent, cancelled: Set<Int64>) -> Bool {
        isDose(e.kind) && !cancelled.contains(e.id)
    }

    /// A dose of a slot as rule 3 orders them: when it was taken, the first operation (by stamp)
    /// that names it ("" when none does), and its local event id.
    public typealias MergeKey = (at: Date, operation: String, event: Int64)

    /// Rule 3: whether dose `a` of a slot is kept before `b` (taken earlier, then the smaller
    /// operation id, then the smaller event id). The first of a slot's live doses counts; the others
    /// are its duplicates.
    public static func keeps(_ a: MergeKey, before b: MergeKey) -> Bool {
        (a.at, a.operation, a.event) < (b.at, b.operation, b.event)
    }

    /// Rule 4: whether counting event `e` resolves its slot rather than `current`, another counting
    /// event of that slot: the one logged last, then the highest id.
    public static func resolves(_ e: DoseEvent, over current: DoseEvent) -> Bool {
        (e.loggedAt, e.id) >= (current.loggedAt, current.id)
    }

    /// Rules 1–3 over a whole log (doses and the undo events among them): the effective events, in
    /// the order given. `duplicates`: the events the merge found duplicates (rule 3, per slot with
    /// ``keeps(_:before:)``).
    public static func effective(_ log: [DoseEvent], duplicates: Set<Int64>) -> [DoseEvent] {
        let cancelled = cancelled(in: log)
        return log.filter { counts($0, cancelled: cancelled) && !duplicates.contains($0.id) }
    }
}
