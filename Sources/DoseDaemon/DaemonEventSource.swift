import DoseCore
import Foundation

/// Why the daemon woke up. An event source returns every reason already queued at once.
enum DaemonWake: Hashable, Sendable {
    /// The planned instant came (a timeline entry, midnight, a snooze).
    case deadline
    /// The wall clock stepped, the machine resumed, or the time zone changed: plan again.
    case clockChanged
    /// Another process changed the database.
    case dataChanged
    /// SIGHUP: read the config again.
    case reloadConfig
    /// SIGTERM or SIGINT: leave cleanly.
    case stop
    /// SIGUSR1: say how many times the loop woke.
    case report
    /// The person chose an action in a notification.
    case answered(AlertAnswer)
    /// The notification server accepted a notification and gave it this id (`helper`: the process
    /// waiting for its answer).
    case sent(DoseAlert, id: UInt32, helper: Int32?)
    /// A notification could not be shown (no notification server, or it refused).
    case notSent(DoseAlert)
    /// A click recorded nothing and left its refusal for the daemon (``ClickNotice``).
    case clickRefused
    /// A notification ended without an answer: dismissed, expired, or closed by the daemon (id nil:
    /// closed before the server said which id it had).
    case closed(DoseAlert, id: UInt32?)
}

/// Where the daemon's "now" comes from.
protocol DaemonClock: AnyObject {
    var now: Date { get }
    /// False for a fixed clock (`DOSEBAR_NOW`): then no timer is armed, only changes and signals wake the loop.
    var advances: Bool { get }
}

/// Blocks until something happens. The real one is epoll over timerfd, inotify and signalfd;
/// tests script one that advances a simulated clock.
protocol DaemonEventSource: AnyObject {
    /// Sleeps until `deadline` (nil: no deadline) or until something else happens, and returns every
    /// reason already queued. Never returns an empty array.
    func wait(until deadline: Date?) throws -> [DaemonWake]
}
