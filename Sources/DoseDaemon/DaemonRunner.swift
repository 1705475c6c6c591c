import DoseApp
import DoseCore
import DoseExport
import Foundation
import Glibc

/// `dosebar daemon`: sets up the real event sources, the bars' nudger, notifications and systemd,
/// then runs the loop until SIGTERM/SIGINT.
public enum DaemonRunner {
    /// Runs the daemon for `options`; returns when it was asked to stop.
    public static func run(_ options: AppOptions, notify: Bool) throws {
        // First: block the signals the loop reads, before anything could start a thread.
        let signals = try SignalFD(LinuxEventSource.signals)
        let context = try AppContext(options)
        if context.dirFallback {
            Output.warning("XDG_RUNTIME_DIR is not set; writing to \(context.dirPath)")
        }
        try SharedDirectory(path: context.dirPath).prepare()
        let lock = try InstanceLock.acquire(directory: context.dirPath)
        defer { lock.release() }
        let store = try context.openStore(context.dbIsDefault ? .create : .read)
        // NOTIFY_SOCKET is ours: a child must not speak for the service.
        let children = ChildProcesses(environment: context.env.filter { $0.key != "NOTIFY_SOCKET" })
        var notifier: Notifier?
        if notify {
            notifier = Notifier(children: children) { Output.warning($0) }
            if notifier?.program == nil {
                Output.warning("--notify: notify-send is not installed (apt install libnotify-bin); no notifications will be shown")
            }
        }
        let host = LiveDaemonHost(context: context, store: store,
                                  nudger: BarNudger(settings: context.config.nudge, children: children, environment: context.env),
                                  notifier: notifier, systemd: SystemdNotify(environment: context.env), children: children)
        let source = try LinuxEventSource(databasePath: context.dbPath, watchZone: (context.env["TZ"] ?? "").isEmpty,
                                          signalFD: signals, children: children,
                                          notifications: { notifier?.takeEvents() ?? [] },
                                          committedElsewhere: DataVersionWatch(store).changed,
                                          syncChanged: { host.syncChanged = true })
        host.extraReport = { " epoll_returns=\(source.epollReturns) children=\(children.count)" }
        // Sync set up now, or later by `sync init` in a terminal: the folder is followed from then on.
        host.followSync = { setup in
            try setup?.folder.create()
            try source.followSync(folder: setup?.folder.path, ownFile: setup.map { $0.device + ".jsonl" })
        }
        let sync = try SyncService(context: context, store: store).setup()
        try host.follow(sync)
        let loop = DaemonLoop(clock: try SystemClock(environment: context.env), source: source, host: host,
                              notifying: notify)
        Output.error("daemon: pid \(getpid()), database \(context.dbPath), shared directory \(context.dirPath)"
            + (notify ? ", notifications on" : "") + (sync.map { ", syncing through \($0.dir)" } ?? ""))
        let stats = try loop.run()
        Output.error("daemon: stopped; " + stats.line + host.extraReport())
    }
}
