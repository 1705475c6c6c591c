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
        usage: "dosebar [<command>] [<options>]",
        discussion: """
        dosebar keeps today's doses in a small SQLite database and writes a pre-rendered view of the \
        day (JSON and one line per bar) into a shared directory that waybar, polybar, conky, tmux, \
        i3blocks and GNOME Shell read.

        With no command, dosebar shows today (the same as `dosebar today`).

        Every command takes the global options --db, --dir, --lang, --config and --color, before or after its name. \
        'dosebar help COMMAND' (or 'dosebar COMMAND --help') shows a command's own options and \
        examples, as does its manual page: man dosebar.take, man dosebar.sync.init.

        Examples:
          $ dosebar add Aspirin --at 08:00 --dose "100 mg" --stock 30
          $ dosebar add Magnesium --at 21:00 --days mon,wed,fri
          $ dosebar take Aspirin
          $ dosebar today
          $ dosebar status --format waybar

        Environment: DOSEBAR_DB (database), DOSEBAR_DIR (shared directory), DOSEBAR_NOW (an ISO-8601 \
        instant that replaces the clock), TZ, LANG.

        Exit codes: 0 ok, 64 usage, 65 bad data, 74 file I/O, 75 database busy (try again), \
        69 daemon already running, 78 configuration, 70 internal error.
        """,
        version: BuildInfo.text,
        subcommands: [Add.self, Edit.self, Remove.self, Resume.self, Purge.self, List.self, Take.self, Skip.self, Undo.self, Confirm.self, Refill.self,
                      Today.self, HistoryCommand.self, StatsCommand.self, ReportCommand.self, Status.self, Export.self,
                      Import.self, Backup.self, Restore.self, Sync.self, ZoneCommand.self, Daemon.self, Watch.self, Doctor.self,
                      ConfigCommand.self],
        // `dosebar` alone shows the day, as `git` alone would show the state of things if it could.
        defaultSubcommand: Today.self
    )

    /// Parses `arguments` with ArgumentParser. When they start with the names of a command that
    /// has no subcommands of its own (`take`, `sync now`), that command is parsed first as the root
    /// of its own tree (`parseAsRoot`, public API), without reading every other command's
    /// configuration and the default command's arguments: the part of a bar click that waits on
    /// the main thread. Anything that command alone does not parse into itself (help, `--version`,
    /// `--generate-completion-script`, a typo) is parsed again by the whole tree, so every message,
    /// help page and exit code stays the whole tree's (`HelpPagesTests` holds each leaf to it).
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        var command: ParsableCommand.Type = self
        var rest = arguments[...]
        while let name = rest.first,
              let sub = command.configuration.subcommands.first(where: { $0.configuration.commandName == name }) {
            command = sub
            rest = rest.dropFirst()
        }
        if command != self, command.configuration.subcommands.isEmpty,
           let parsed = try? command.parseAsRoot(Array(rest)), type(of: parsed) == command {
            return parsed
        }
        return try parseAsRoot(arguments)
    }

    /// A command that records doses (a bar click's `take --next`, `take NAME`) opens its context and
    /// database on the other core while its arguments are parsed (``HeadStart``).
    static func beginHeadStart(_ arguments: [String]) {
        guard let name = arguments.first, HeadStart.mayBegin(arguments.dropFirst()),
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }) as? ContextCommand.Type,
              command.recordsDoses else { return }
        HeadStart.begin(configErrors: .useDefaults)
    }

    /// The global options (``GlobalOptions``), each of which takes a value.
    static let globalOptions: Set<String> = ["--db", "--dir", "--lang", "--config", "--color"]

    /// `dosebar --lang en list` as `dosebar list --lang en`: global options (with their values, or
    /// as `--db=P`) that stand before the command's names are moved to just after them (after
    /// `sync now` too), where the command parses them. The parser reads options only after the
    /// command's name: before it, `--lang en` made `en` no command and `list` an argument of `today`.
    /// Left as they are: no command after them (`dosebar --db P` is today), or something other than
    /// a command's name (`--help`, `--version`, a typo), which the whole tree then reads as before.
    static func placingGlobalOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let word = arguments[i]
            if globalOptions.contains(word), i + 1 < arguments.endIndex {
                leading += [word, arguments[i + 1]]
                i += 2
            } else if let equals = word.firstIndex(of: "="), globalOptions.contains(String(word[..<equals])) {
                leading.append(word)
                i += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var command: ParsableCommand.Type = self
        var end = i
        while end < arguments.endIndex,
              let sub = command.configuration.subcommands.first(where: { $0.configuration.commandName == arguments[end] }) {
            command = sub
            end += 1
        }
        guard end > i else { return arguments }
        return Array(arguments[i..<end]) + leading + Array(arguments[end...])
    }

    static func main() {
        // A reader that leaves the pipe makes writes fail (EPIPE, an exit code that tells what
        // happened) instead of killing the process after a dose or a refill was committed.
        signal(SIGPIPE, SIG_IGN)
        // Before any thread starts (the head start's): too few file descriptors is one line, not a trap.
        if let problem = ProcessLimits.descriptorProblem() {
            Output.error(problem.description)
            Foundation.exit(problem.exitCode)
        }
        let arguments = placingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        beginHeadStart(arguments)
        let status = run(arguments)
        // A head start the command did not use is done before the process exits.
        HeadStart.abandon()
        Foundation.exit(status)
    }

    /// Parses and runs the command; its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        do {
            var command = try parse(arguments)
            try command.run()
            if let failure = Output.outputFailure {
                // The change is committed: exit 0, so that nothing retries it (DESIGN §9).
                if let changing = type(of: command) as? any ContextCommand.Type, changing.changesData {
                    Output.warning("done, but \(failure)")
                    return 0
                }
                Output.error(failure)
                return DosebarError.io(failure).exitCode
            }
            return 0
        } catch let error as DosebarError {
            Output.error(UsageErrorText.line(for: error))
            return error.exitCode
        } catch let violation as FieldRules.Violation {
            // The validation gate refused a value (bad data, exit 65).
            let error = violation.asDosebarError
            Output.error(error.description)
            return error.exitCode
        } catch {
            // ArgumentParser's own errors keep their exit codes (64 for usage); help and --version
            // print as it prints them, and an error is one line on stderr like every other (DESIGN §9).
            let code = exitCode(for: error)
            if code == .success {
                // Help, --version and the like: on stdout, with the help page's sections in the
                // order a reader wants them.
                print(HelpLayout.ownOptionsFirst(fullMessage(for: error)))
                return code.rawValue
            }
            let text = UsageErrorText.line(for: error)
            if !text.isEmpty { Output.error(text) }
            return code.rawValue
        }
    }
}
