import Foundation

/// A dose a click recorded (origin `click`), as the daemon confirms it.
struct ClickTake: Hashable, Sendable {
    /// The event's id (what Undo reverts).
    var event: Int64
    /// What was taken: the slot, or for an as-needed dose its medicine at the local minute it was taken.
    var dose: DoseAlert.Dose
    /// When it was written (the doses of one command share it).
    var loggedAt: Date
}
