import Foundation

/// Where the command writes for a person: stdout for results, stderr for one-line errors and warnings.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("dosebar: " + text + "\n").utf8))
    }

    static func warning(_ text: String) {
        FileHandle.standardError.write(Data(("dosebar: warning: " + text + "\n").utf8))
    }

    /// Whether stdout is a terminal that wants colour (not when NO_COLOR is set).
    static func wantsColor(_ env: [String: String]) -> Bool {
        isatty(1) == 1 && env["NO_COLOR"] == nil && env["TERM"] != "dumb"
    }
}
