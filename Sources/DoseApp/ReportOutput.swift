import DoseCore
import DoseExport
import Foundation

/// `report --output FILE`: which format a file name asks for, and whether an existing file is a
/// report dosebar wrote in that format (the only kind of existing file it replaces unasked).
public enum ReportOutput {
    public enum Format: String, CaseIterable, Sendable { case html, csv, json }

    /// The format a file name's extension names (`.html`/`.htm`, `.csv`, `.json`, any letter
    /// case), nil for any other extension or none.
    public static func format(ofFile path: String) -> Format? {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": .html
        case "csv": .csv
        case "json": .json
        default: nil
        }
    }

    /// The format to write: `--format` when given, else the extension of `--output`, else html
    /// (stdout). Usage errors (64): `--format` contradicting the extension, and an `--output`
    /// whose extension names no format when `--format` is absent.
    public static func resolve(format: Format?, output: String?) throws -> Format {
        guard let output else { return format ?? .html }
        let named = ReportOutput.format(ofFile: output)
        switch (format, named) {
        case let (given?, named?) where given != named:
            let ext = (output as NSString).pathExtension
            throw DosebarError.usage("--format \(given.rawValue) contradicts --output \(output) (.\(ext) is \(named.rawValue)); "
                + "drop --format or name the file .\(given.rawValue)")
        case let (given?, _): return given
        case let (nil, named?): return named
        case (nil, nil):
            throw DosebarError.usage("--output \(output): cannot tell the format from the file name; "
                + "end it in .html, .htm, .csv or .json, or give --format html|csv|json")
        }
    }

    /// How an existing file is named in a refusal.
    public static func kind(_ format: Format) -> String {
        switch format {
        case .html: "an HTML report by dosebar"
        case .csv: "a CSV report by dosebar"
        case .json: "a JSON report by dosebar"
        }
    }

    /// Whether the regular file at `path` is a report dosebar wrote in `format`, from its first
    /// bytes: the HTML's generator meta, the CSV's exact header line, the JSON's first keys in
    /// dosebar's order.
    public static func isReport(_ path: String, format: Format) -> Bool {
        guard let bytes = OutputTarget.prefix(path, count: 4096) else { return false }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        switch format {
        case .html:
            return text.hasPrefix("<!DOCTYPE html>\n<html ") && text.contains(ReportHTML.generatorMeta)
        case .csv:
            let header = ReportCSV.header.joined(separator: ",")
            return text.hasPrefix(header + "\r\n") || text.hasPrefix(header + "\n") || text == header
        case .json:
            return text.range(of: #"^\{"from":"\d{4}-\d{2}-\d{2}","to":"\d{4}-\d{2}-\d{2}","timezone":"[^"\\]*","medications":\["#,
                              options: .regularExpression) != nil
        }
    }

    /// Writes `text` to `path` after ``OutputTarget``'s check (exit 64 for what it refuses):
    /// privately (0600), whole (temporary file, fsync, rename), never through a link.
    public static func write(_ text: String, to path: String, format: Format, database: String, force: Bool) throws {
        try check(path, format: format, database: database, force: force)
        try PrivateFile.write(text, to: path)
    }

    /// ``OutputTarget``'s check for a report (also done first, before the report is computed).
    public static func check(_ path: String, format: Format, database: String, force: Bool) throws {
        try OutputTarget.check(path, database: database, what: "the report", kind: kind(format),
                               replaces: .output(force: force)) { isReport($0, format: format) }
    }
}
