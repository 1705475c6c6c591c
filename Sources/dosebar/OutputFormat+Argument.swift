import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `--format` of `status` takes every registered output format, in any letter case (as `--lang KO`);
/// help and completion list them.
extension OutputFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public var defaultValueDescription: String { name }
    public static var allValueStrings: [String] { OutputFormat.names }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--format` of `watch`: a registered format that streams (`OutputFormat.streams`).
struct StreamFormat: ExpressibleByArgument {
    let output: OutputFormat

    init?(argument: String) {
        guard let format = OutputFormat(name: argument), format.streams else { return nil }
        output = format
    }
    var defaultValueDescription: String { output.name }
    static var allValueStrings: [String] { OutputFormat.names.filter { OutputFormat(name: $0)!.streams } }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A `--format` that has a JSON member.
protocol JSONCapableFormat {
    static var json: Self { get }
    var formatName: String { get }
}
extension OutputFormat: JSONCapableFormat {
    var formatName: String { name }
}
extension ReportOutput.Format: JSONCapableFormat {
    var formatName: String { rawValue }
}

/// `--json` next to `--format` (DESIGN §2: every command that prints data takes `--json`).
enum JSONFlag {
    /// The format asked for: `--json` is `--format json`; with another `--format` it is a usage error.
    static func format<F: JSONCapableFormat>(json: Bool, format: F?, default fallback: F) throws -> F {
        guard json else { return format ?? fallback }
        if let format, format.formatName != F.json.formatName {
            throw ValidationError(Catalog.english.text("usage.json_format", ["format": format.formatName]))
        }
        return F.json
    }
}
