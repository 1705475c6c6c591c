import ArgumentParser
import DoseCore
import DoseExport

/// `--format` of `status` takes every output format, in any letter case (as `--lang KO`); help and
/// completion list them.
extension OutputFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--json` next to `--format` (DESIGN §2: every command that prints data takes `--json`).
enum JSONFlag {
    /// The format asked for: `--json` is `--format json`; with another `--format` it is a usage error.
    static func format<F: RawRepresentable>(json: Bool, format: F?, default fallback: F) throws -> F where F.RawValue == String {
        guard json else { return format ?? fallback }
        let named = F(rawValue: "json")!
        if let format, format.rawValue != named.rawValue {
            throw ValidationError(Catalog.english.text("usage.json_format", ["format": format.rawValue]))
        }
        return named
    }
}
