import Foundation

/// What the person chose in a notification.
struct AlertAnswer: Hashable, Sendable {
    enum Choice: String, Sendable, CaseIterable {
        case taken, snooze, skip, undo
        /// The actions of a reminder (due, late); a click's confirmation has only `undo`.
        static let reminder: [Choice] = [.taken, .snooze, .skip]
    }
    var alert: DoseAlert
    var choice: Choice
    /// The server's id of the notification answered (nil when unknown).
    var id: UInt32? = nil
}
