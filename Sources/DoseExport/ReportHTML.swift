import DoseCore

// Placeholder so the build links while the HTML renderer is written (replaced by it).
public enum ReportHTML {
    public static func render(_ report: Report, catalog: Catalog, generatedAt: LocalInstant?) -> String {
        "<!DOCTYPE html>\n<html><body><p>\(report.from) – \(report.to)</p></body></html>\n"
    }
}
