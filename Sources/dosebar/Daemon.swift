import ArgumentParser
import DoseCore
import DoseExport
import DoseStore
import Foundation
import Glibc

/// `dosebar daemon`: keep the shared directory current.
struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep the shared directory current (no polling).",
        discussion: """
        Writes the shared directory, then sleeps until the next instant the day changes (a dose \
        turning due or late, the hour, midnight), a change to the database (a take from a terminal \
        or a bar click shows within milliseconds), a clock or time-zone change, or a signal: \
        SIGHUP reloads the config, SIGTERM/SIGINT stop cleanly, SIGUSR1 prints counters on stderr. \
        After each change it nudges the bars configured in [nudge] that are running, and tells \
        systemd READY=1 when NOTIFY_SOCKET is set. One daemon runs per shared directory \
        (<dir>/daemon.lock holds its pid).

        With --notify it sends a desktop notification (notify-send) when doses become due and when \
        they turn late, naming every medicine of that time, with the actions Taken, Snooze 10 min \
        and Skip. A transition is announced once, also across restarts.

        Examples:
          $ dosebar daemon
          $ dosebar daemon --notify
          $ systemctl --user enable --now dosebar   # see integrations/systemd
        """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Send a desktop notification when a dose becomes due and when it turns late.")
    var notify = false

    func run() throws {
        // First: block the signals the loop reads, before anything could start a thread.
        let signals = try SignalFD(LinuxEventSource.signals)
        let context = try AppContext(global)
        if context.dirFallback {
            Output.warning("XDG_RUNTIME_DIR is not set; writing to \(context.dirPath)")
        }
        try SharedDirectory(path: context.dirPath).prepare()
        let lock = try InstanceLock.acquire(directory: context.dirPath)
        defer { lock.release() }
        let store = try context.openStore()
        // NOTIFY_SOCKET is ours: a child must not speak for the service.
        let children = ChildProcesses(environment: context.env.filter { $0.key != "NOTIFY_SOCKET" })
        var notifier: Notifier?
        if notify {
            notifier = Notifier(children: children) { Output.warning($0) }
            if notifier?.program == nil {
                Output.warning("--notify: notify-send is not installed (apt install libnotify-bin); no notifications will be shown")
            }
        }
        let host = LiveDaemonHost(options: global, context: context, store: store,
                                  nudger: BarNudger(settings: context.config.nudge, children: children, environment: context.env),
                                  notifier: notifier, systemd: SystemdNotify(environment: context.env))
        let source = try LinuxEventSource(databasePath: context.dbPath, watchZone: (context.env["TZ"] ?? "").isEmpty,
                                          signalFD: signals, children: children,
                                          answers: { notifier?.takeAnswers() ?? [] },
                                          committedElsewhere: DataVersionWatch(store).changed)
        host.extraReport = { " epoll_returns=\(source.epollReturns) children=\(children.count)" }
        let loop = DaemonLoop(clock: try SystemClock(environment: context.env), source: source, host: host,
                              notifying: notify)
        Output.error("daemon: pid \(getpid()), database \(context.dbPath), shared directory \(context.dirPath)"
            + (notify ? ", notifications on" : ""))
        let stats = try loop.run()
        Output.error("daemon: stopped; " + stats.line + host.extraReport())
    }
}
