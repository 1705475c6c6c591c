import ArgumentParser
import DoseApp
import DoseDaemon

/// `dosebar daemon`: keep the shared directory current.
struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Keep the shared directory current (no polling).",
        usage: "dosebar daemon [--notify] [<global options>]",
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

        Exit codes: 0 stopped by SIGTERM/SIGINT, 69 another daemon already runs for this \
        shared directory (stop it first; a systemd unit should not restart), 75 database busy, \
        74 file I/O, 78 configuration.

        Examples:
          $ dosebar daemon
          $ dosebar daemon --notify
          $ systemctl --user enable --now dosebar   # unit installed by make install
        """
    )

    @Flag(name: .long, help: "Send a desktop notification when a dose becomes due and when it turns late.")
    var notify = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        try DaemonRunner.run(global.options, notify: notify)
    }
}
