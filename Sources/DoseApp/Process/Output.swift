import DoseCore
import DoseFiles
import Foundation
import Synchronization

/// Where the command writes for a person: stdout for results, stderr for one-line errors and warnings.
/// Written with write(2). A standard output that cannot be written (closed, a full disk) does not
/// stop the command halfway: what it records and the bar it refreshes are done, and the command
/// ends with exit 74 and one line saying so (``outputFailure``). FileHandle crashed on the first
/// such line (`try!`), after the dose was recorded and before the bar was refreshed.
public enum Output {
    public static func line(_ text: String) {
        write(text + "\n")
    }

    /// Text as it is (a report: no newline added).
    public static func write(_ text: String) {
        if let code = FileIO.writeAll(1, text) { failure.withLock { $0 = $0 ?? code } }
    }

    public static func error(_ text: String) {
        // Nowhere left to say it when stderr fails.
        _ = FileIO.writeAll(2, "dosebar: " + oneLine(text) + "\n")
    }

    /// A question on stderr, the answer typed after it on the same line.
    public static func prompt(_ text: String) {
        _ = FileIO.writeAll(2, text)
    }

    /// Something the person should know that is not a fault (the zone log followed a flight).
    public static func notice(_ text: String) {
        _ = FileIO.writeAll(2, "dosebar: " + oneLine(text) + "\n")
    }

    public static func warning(_ text: String) {
        _ = FileIO.writeAll(2, "dosebar: warning: " + oneLine(text) + "\n")
    }

    /// The first error of writing to standard output in this process, as a line for stderr; nil
    /// while everything was written.
    public static var outputFailure: String? {
        failure.withLock { $0 }.map { "cannot write to standard output: \(FileIO.reason($0))" }
    }

    private static let failure = Mutex<Int32?>(nil)

    /// The one warning of a command that went on with the default config (`take`, `skip`, `undo`):
    /// the file, the problem, and that the bar uses the defaults until it is fixed.
    public static func configWarning(_ context: AppContext) {
        guard let problem = context.configProblem else { return }
        warning("recorded, but the config file has an error, so the bar uses the defaults until it is fixed: \(problem)")
    }

    /// An error stays one line even when it quotes what the user typed: control characters and
    /// line separators in it are shown escaped (`\n`, `\u{1B}`).
    public static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where FieldRules.isControl(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether stdout is a terminal that wants colour: not when NO_COLOR is set to a non-empty
    /// value (no-color.org: an empty NO_COLOR does not count), nor on a dumb terminal. `--color
    /// always|never` decides alone (no-color.org: a command-line flag overrides NO_COLOR).
    public static func wantsColor(_ env: [String: String], choice: ColorChoice = .auto) -> Bool {
        switch choice {
        case .always: true
        case .never: false
        case .auto: isatty(1) == 1 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
        }
    }
}

/// `--color`: colour on a terminal (auto, the default), always, or never.
public enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}
