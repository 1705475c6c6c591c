import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar report`: the doctor's report.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a report of past days for your doctor (HTML, CSV or JSON).",
        usage: "dosebar report [--from <date>] [--to <date>] [--format html|csv|json] [--output <file>] [<global options>]",
        discussion: """
        Whole days from --from to --to (default: the last 30 days, today included). HTML is one \
        self-contained page (no script, nothing fetched) that prints on A4: each medicine with its \
        schedule and figures, a calendar per month, weekly adherence, the missed and late doses. \
        CSV has one row per scheduled dose (date,scheduled,medication,dose,status,taken_at,late_minutes), \
        then one per as-needed dose. The file is private (mode 0600) and written whole.

        Examples:
          $ dosebar report --output ~/report.html
          $ dosebar report --from 2026-10-01 --to 2026-10-31 --format csv > october.csv
          $ dosebar report --lang ko --output 보고서.html
        """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument { case html, csv, json }

    @Option(name: .long, help: ArgumentHelp("First day (YYYY-MM-DD, today, yesterday).", valueName: "date")) var from: String?
    @Option(name: .long, help: ArgumentHelp("Last day (default today).", valueName: "date")) var to: String?
    @Option(name: .long, help: "html, csv or json.") var format: Format = .html
    @Option(name: .long, help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"),
            completion: .file()) var output: String?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        let context = try AppContext(global.options)
        let service = HistoryService(store: try context.openStore(), context: context)
        let report = Report(try service.ledger(try service.range(from: from, to: to, defaultDays: 30)))
        let text = switch format {
        case .csv: ReportCSV.render(report)
        case .json: HistoryJSON.report(report, catalog: context.catalog) + "\n"
        case .html: ReportHTML.render(report, catalog: context.catalog, generatedAt: context.zone.local(context.now))
        }
        if let output {
            try PrivateFile.write(text, to: output)
        } else {
            Output.write(text)
        }
    }
}
