import DoseCore
import DoseExport

extension HistoryService {
    /// `report`: the report of `days` for `medication` (nil: every medicine) as the text of
    /// `format`: CSV, JSON in the catalog's words, or one HTML page stamped with now.
    public func report(_ days: ClosedRange<LocalDate>, medication: Medication?, format: ReportOutput.Format) throws -> String {
        var report = Report(try ledger(days), medicationID: medication?.id,
                            doubleDoses: try doubleDoses(days, medicationID: medication?.id))
        // Only the JSON rows say where each dose came from: the events are read for them alone.
        if format == .json { report.origins = Report.Origins(events: try store.read { try $0.events(days: days) }) }
        return switch format {
        case .csv: ReportCSV.render(report)
        case .json: HistoryJSON.report(report, catalog: context.catalog) + "\n"
        case .html: ReportHTML.render(report, catalog: context.catalog, generatedAt: context.zone.local(context.now))
        }
    }
}
