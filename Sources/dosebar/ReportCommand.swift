import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar report`: the doctor's report.
struct ReportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a report of past days for your doctor (HTML, CSV or JSON).",
        usage: """
        dosebar report [<name>] [--from <date>] [--to <date>] [--days <N>]
        [--format html|csv|json] [--json] [--output <file> [--force]]
        [<global options>]
        """,
        discussion: """
        Whole days from --from to --to (default: the last 30 days, today included). HTML is one \
        self-contained page (no script, nothing fetched) that prints on A4: each medicine with its \
        schedule and figures, a calendar per month, weekly adherence, the missed and late doses. \
        CSV has one row per scheduled dose (date,scheduled,medication,dose,status,taken_at,late_minutes), \
        then one per as-needed dose; a cell that starts with =, +, -, @, a tab or a CR gets a leading ' \
        so a spreadsheet shows it as text (import csv takes it off again). \
        With --output the format follows the extension (.html/.htm, .csv, .json) unless --format is \
        given; a file named otherwise needs --format, and a contradiction is refused. The file is private \
        (mode 0600) and written whole. An existing file is replaced only when it is a report of that \
        format that dosebar wrote (--force: any ordinary file); never the database, a link, a FIFO, a \
        directory or any SQLite database.

        Examples:
          $ dosebar report --output ~/report.html
          $ dosebar report --from 2026-10-01 --to 2026-10-31 --output october.csv
          $ dosebar report --lang ko --output 보고서.html
        """
    )

    @Argument(help: "Only this medicine (name or unique prefix; archived ones too).", completion: .medicineNames)
    var name: String?
    @OptionGroup var range: RangeOptions
    @Option(name: .long, help: "html, csv or json (default: from the --output extension, else html).")
    var format: ReportOutput.Format?
    @Flag(name: .long, help: "Print JSON (the same as --format json).") var json = false
    @Option(name: .long, help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"),
            completion: .file(extensions: ["html", "htm", "csv", "json"])) var output: String?
    @Flag(name: .long, help: "Let --output replace an ordinary file that is not a dosebar report.") var force = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func validate() throws {
        if force && output == nil { throw ValidationError("--force goes with --output") }
        _ = try JSONFlag.format(json: json, format: format, default: .json)
    }

    /// The format and the file agree, checked before the context is built (as before it).
    func precheck() throws { _ = try resolvedFormat() }

    func resolvedFormat() throws -> ReportOutput.Format {
        let asked = json ? try JSONFlag.format(json: json, format: format, default: .json) : format
        return try ReportOutput.resolve(format: asked, output: output)
    }

    func run(_ context: AppContext) throws {
        let format = try resolvedFormat()
        if let output {
            try ReportOutput.check(output, format: format, database: context.dbPath, force: force)
        }
        let service = HistoryService(store: try context.openStore(), context: context)
        let medication = try name.map { try service.medication(named: $0) }
        let text = try service.report(try range.range(service, defaultDays: 30), medication: medication, format: format)
        if let output {
            try ReportOutput.write(text, to: output, format: format, database: context.dbPath, force: force)
            // On stdout: the report itself went to the file.
            Output.line(context.catalog.text("cli.report_written", ["path": output, "format": format.rawValue.uppercased()]))
        } else {
            Output.write(text)
        }
    }
}

extension ReportOutput.Format: ExpressibleByArgument {
    /// Any letter case, as `--lang`.
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
