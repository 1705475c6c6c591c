import CLinuxShim
import Foundation
import Glibc

/// The daemon's real sleep: one `epoll_wait` over
/// - a CLOCK_REALTIME timerfd armed at the next instant (absolute, cancelled by clock steps),
/// - inotify on the database's directory, keeping only events for the database and its
///   `-wal`/`-journal` (so the daemon's own writes to a shared directory that happens to be the
///   same directory do not count), and of those only the ones after which SQLite's data_version
///   says another process committed (not the daemon's own writes, nor a writer closing its
///   files); and for `<database>-click`, the refusal a click that recorded nothing left
///   (``ClickNotice``, renamed into place); and on /etc for `localtime`/`timezone` when `TZ` is unset,
/// - inotify on the sync folder `DIR/dosebar` when sync is set up: another device's file that
///   Syncthing wrote or renamed into place (never this device's own file),
/// - a signalfd for SIGHUP, SIGTERM, SIGINT, SIGUSR1 and SIGCHLD (children are reaped here),
/// - the output pipes of running notify-sends (the server's id, then the person's answer).
/// Nothing else wakes it: no polling, no intervals.
final class LinuxEventSource: DaemonEventSource {
    /// The signals the daemon takes through the signalfd (blocked for the whole process).
    static let signals = [SIGHUP, SIGTERM, SIGINT, SIGUSR1, SIGCHLD]

    private let epoll: Epoll
    private let timer: RealtimeTimer
    private let signalFD: SignalFD
    private let inotify: Inotify
    private let databaseWatch: Int32
    private let databaseNames: Set<String>
    /// The name of the file a refused click leaves in the database's directory.
    private let clickNoticeName: String
    private var zoneWatch: Int32?
    private var syncWatch: Int32?
    private var ownSyncFile: String?
    private let syncChanged: () -> Void
    private let children: ChildProcesses
    private let notifications: () -> [DaemonWake]
    /// Whether another process committed to the database since this was last asked (SQLite's
    /// data_version): inotify also reports the daemon's own writes and a writer closing its
    /// files after its commit, and neither is news.
    private let committedElsewhere: () -> Bool
    /// Returns of `epoll_wait`, including those that led to nothing (an unrelated file in the
    /// database directory): every time the process was woken.
    private(set) var epollReturns = 0

    /// `signalFD` must have been created (signals blocked) before any thread started.
    init(databasePath: String, watchZone: Bool, signalFD: SignalFD, children: ChildProcesses,
         notifications: @escaping () -> [DaemonWake], committedElsewhere: @escaping () -> Bool = { true },
         syncChanged: @escaping () -> Void = {}) throws {
        self.signalFD = signalFD
        self.syncChanged = syncChanged
        self.children = children
        self.notifications = notifications
        self.committedElsewhere = committedElsewhere
        epoll = try Epoll()
        timer = try RealtimeTimer()
        inotify = try Inotify()
        let url = URL(fileURLWithPath: databasePath).standardizedFileURL
        let base = url.lastPathComponent
        databaseNames = [base, base + "-wal", base + "-journal"]
        clickNoticeName = base + "-click"
        let directory = url.deletingLastPathComponent().path
        guard let wd = inotify.add(directory, mask: Inotify.closeWrite | Inotify.movedTo | Inotify.modify) else {
            throw SystemCall.error("cannot watch the database directory \(directory)")
        }
        databaseWatch = wd
        if watchZone { zoneWatch = inotify.add("/etc", mask: Inotify.closeWrite | Inotify.movedTo | Inotify.create | Inotify.delete) }
        for fd in [timer.fd, signalFD.fd, inotify.fd] { try epoll.add(fd) }
        // A notification's id is read while its notify-send runs.
        children.watchOutput = { [epoll] fd in try? epoll.add(fd) }
    }

    /// Follows the sync folder `folder` (nil: none), where `ownFile` is this device's own file;
    /// set up at start, and again when `sync init` (in another process) set it up or moved it.
    func followSync(folder: String?, ownFile: String?) throws {
        if let syncWatch { inotify.remove(syncWatch) }
        syncWatch = nil
        ownSyncFile = ownFile
        guard let folder else { return }
        guard let wd = inotify.add(folder, mask: Inotify.closeWrite | Inotify.movedTo | Inotify.onlyDirectory) else {
            throw SystemCall.error("cannot watch the sync folder \(folder)")
        }
        syncWatch = wd
    }

    func wait(until deadline: Date?) throws -> [DaemonWake] {
        try timer.arm(at: deadline)
        while true {
            let ready = try epoll.wait()
            epollReturns += 1
            var wakes: [DaemonWake] = []
            for (fd, _) in ready {
                if fd == timer.fd {
                    switch timer.read() {
                    case .expired: wakes.append(.deadline)
                    case .clockChanged: wakes.append(.clockChanged)
                    case .nothing: break
                    }
                } else if fd == signalFD.fd {
                    for signal in signalFD.read() {
                        switch signal {
                        case SIGHUP: wakes.append(.reloadConfig)
                        case SIGTERM, SIGINT: wakes.append(.stop)
                        case SIGUSR1: wakes.append(.report)
                        case SIGCHLD: children.reap()
                        default: break
                        }
                    }
                } else if fd == inotify.fd {
                    var databaseTouched = false
                    for event in inotify.read() {
                        if event.has(Inotify.overflow) {
                            wakes.append(.dataChanged)
                        } else if event.watch == databaseWatch, databaseNames.contains(event.name) {
                            databaseTouched = true
                        } else if event.watch == databaseWatch, event.name == clickNoticeName {
                            wakes.append(.clickRefused)
                        } else if event.watch == zoneWatch, event.name == "localtime" || event.name == "timezone" {
                            wakes.append(.clockChanged)
                        } else if event.watch == syncWatch, event.name.hasSuffix(".jsonl"), !event.name.hasPrefix("."),
                                  event.name != ownSyncFile {
                            syncChanged()
                            wakes.append(.dataChanged)
                        }
                    }
                    if databaseTouched && committedElsewhere() { wakes.append(.dataChanged) }
                } else {
                    children.readOutput(fd)
                }
            }
            wakes += notifications()
            if !wakes.isEmpty {
                // Coalesce what was queued together: one refresh for a burst of WAL writes.
                var seen = Set<DaemonWake>()
                return wakes.filter { seen.insert($0).inserted }
            }
        }
    }
}
