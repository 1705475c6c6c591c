/// What a slot is at an instant (DESIGN §3).
public enum SlotStatus: String, Sendable, CaseIterable {
    case upcoming, due, late, missed, taken
    case takenEarly = "taken_early"
    case takenLate = "taken_late"
    case skipped

    public var isTaken: Bool { self == .taken || self == .takenEarly || self == .takenLate }
    public var isResolved: Bool { isTaken || self == .skipped }
    /// Outcome known: taken*, skipped or missed.
    public var isKnown: Bool { isResolved || self == .missed }
}
