import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar import csv`: takes and skips from a file in the columns of `report --format csv`.
struct ImportCSV: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract: "Import takes and skips from a CSV in the columns of 'report --format csv'.",
        usage: "dosebar import csv <file> [--dry-run] [--json] [<global options>]",
        discussion: """
        Columns by header name (date,scheduled,medication,dose,status,taken_at,late_minutes; others \
        are ignored, any order), RFC 4180, CRLF or LF, UTF-8 with or without a BOM. A taken, \
        taken_early or taken_late row is taken at taken_at for the slot scheduled at 'scheduled'; \
        skipped is skipped; as_needed logs an as-needed dose at taken_at; missed adds nothing. A name \
        dosebar does not know becomes a new as-needed medicine. Stock does not change.

        Examples:
          $ dosebar report --from 2026-01-01 --format csv --db old.sqlite > all.csv
          $ dosebar import csv all.csv
          $ dosebar import csv all.csv --dry-run --json
        """
    )

    @Argument(help: "The CSV file.", completion: .file(extensions: ["csv"])) var file: String
    @OptionGroup var options: ImportOptions
    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let progress = WorkProgress.forStderr(context)
        let plan = try ReportCSVReader(context: context).plan(path: file, progress: progress)
        let store = try context.openStore(.create)
        let summary = try ImportService(context: context, store: store).apply(plan, dryRun: options.dryRun, progress: progress)
        if options.json { Output.line(summary.json) } else { summary.lines(context.catalog).forEach(Output.line) }
    }
}
