import ArgumentParser
import DoseApp
import DoseCore
import Foundation

/// The `dosebar` command: keeps track of medicines and keeps the desktop bar current.
@main
struct Dosebar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dosebar",
        abstract: "Track the medicines you take and keep your desktop bar current.",
        discussion: """
        dosebar keeps today's doses in a small SQLite database and writes a pre-rendered view of the \
        day (JSON and one line per bar) into a shared directory that waybar, polybar, conky, tmux, \
        i3blocks and GNOME Shell read.

        Examples:
          $ dosebar add Aspirin --at 08:00 --dose "100 mg" --stock 30
          $ dosebar add Magnesium --at 21:00 --days mon,wed,fri
          $ dosebar take Aspirin
          $ dosebar today
          $ dosebar status --format waybar

        Environment: DOSEBAR_DB (database), DOSEBAR_DIR (shared directory), DOSEBAR_NOW (an ISO-8601 \
        instant that replaces the clock), TZ, LANG.

        Exit codes: 0 ok, 64 usage, 65 bad data, 74 file I/O, 75 database busy (try again), \
        78 configuration, 70 internal error.
        """,
        version: "0.1.0",
        subcommands: [Add.self, Edit.self, Remove.self, List.self, Take.self, Skip.self, Undo.self, Refill.self,
                      Today.self, Status.self, Export.self, Daemon.self, Watch.self, Doctor.self]
    )

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as DosebarError {
            Output.error(error.description)
            Foundation.exit(error.exitCode)
        } catch {
            // ArgumentParser's own errors (help, version, validation) keep their exit codes (64 for usage).
            exit(withError: error)
        }
    }
}
