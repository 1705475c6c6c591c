/// The day's overall state, first that applies (DESIGN §3).
public enum DayState: String, Sendable, CaseIterable {
    case empty, late, due, missed, done, upcoming, rest, none
}
