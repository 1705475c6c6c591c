import DoseCore
import Foundation

/// What the loop counts, for tests and `SIGUSR1`.
struct DaemonStats: Hashable, Sendable {
    /// Returns from the event source (each is one sleep ended).
    var wakeups = 0
    /// Wake-ups by reason.
    var deadlines = 0, dataChanges = 0, clockChanges = 0, reloads = 0, answers = 0
    /// Recomputations of the day.
    var refreshes = 0
    /// Refreshes after which at least one file had changed.
    var writes = 0
    /// Notifications the server took.
    var alerts = 0
    /// Notifications no server took (retried while their doses are open).
    var unsent = 0
    /// The instant the loop last planned to wake at.
    var nextWake: Date?

    var line: String {
        "wakeups=\(wakeups) deadlines=\(deadlines) data=\(dataChanges) clock=\(clockChanges) reloads=\(reloads) "
            + "answers=\(answers) refreshes=\(refreshes) writes=\(writes) alerts=\(alerts) unsent=\(unsent)"
            + (nextWake.map { " next=\(ISO8601.format($0, offset: 0, zulu: true))" } ?? "")
    }
}
