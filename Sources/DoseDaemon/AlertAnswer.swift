import Foundation

/// What the person chose in a notification.
struct AlertAnswer: Hashable, Sendable {
    enum Choice: String, Sendable, CaseIterable {
        case taken, snooze, skip
        /// Both takes of a dose taken twice were meant (a `double` alert's one action).
        case confirm

        /// The actions a notification of `kind` offers.
        static func offered(for kind: DoseAlert.Kind) -> [Choice] {
            switch kind {
            case .due, .late: [.taken, .snooze, .skip]
            case .missed: []
            case .double: [.confirm]
            }
        }
    }
    var alert: DoseAlert
    var choice: Choice
    /// The server's id of the notification answered (nil when unknown).
    var id: UInt32? = nil
}
