import ArgumentParser
import DoseCore

/// `dosebar daemon`: keep the shared directory current.
struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep the shared directory current (no polling).",
        discussion: """
        Examples:
          $ dosebar daemon
          $ dosebar daemon --notify
        """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Send a desktop notification when a dose becomes due and when it turns late.")
    var notify = false

    func run() throws {
        throw DosebarError.internal("the daemon is not built yet")
    }
}

/// `dosebar watch`: print one line per change for bars that stream.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current line for a bar, then one line per change.",
        discussion: """
        Example (waybar):
          "exec": "dosebar watch --format waybar"
        """
    )

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "waybar, polybar, i3blocks, text or json.") var format: String = "text"

    func run() throws {
        throw DosebarError.internal("watch is not built yet")
    }
}
