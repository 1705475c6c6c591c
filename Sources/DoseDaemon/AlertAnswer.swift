import Foundation

/// What the person chose in a notification.
struct AlertAnswer: Hashable, Sendable {
    enum Choice: String, Sendable, CaseIterable {
        case taken, snooze, skip, undo
        /// Both takes of a dose taken twice were meant (a `double` alert's one action).
        case confirm
        /// The actions of a reminder (due, late).
        static let reminder: [Choice] = [.taken, .snooze, .skip]

        /// The actions a notification of `kind` offers.
        static func offered(for kind: DoseAlert.Kind) -> [Choice] {
            switch kind {
            case .due, .late: reminder
            case .missed, .nothing, .travel: []
            case .double: [.confirm]
            case .took: [.undo]
            }
        }
    }
    var alert: DoseAlert
    var choice: Choice
    /// The server's id of the notification answered (nil when unknown).
    var id: UInt32? = nil
}
