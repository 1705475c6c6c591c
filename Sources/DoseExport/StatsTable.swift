import DoseCore

/// `dosebar stats` in a terminal: one row for all medicines, then one per medicine; the
/// percentages of the period next to those of the period before.
public struct StatsTable {
    public var stats: HistoryJSON.Stats
    public var catalog: Catalog
    public var previous: ClosedRange<LocalDate>

    public init(stats: HistoryJSON.Stats, catalog: Catalog, previous: ClosedRange<LocalDate>) {
        self.stats = stats; self.catalog = catalog; self.previous = previous
    }

    public func lines() -> [String] {
        let c = catalog
        var out = [c.text("stats.title", ["days": String(stats.days), "from": stats.from.description, "to": stats.to.description,
                                          "previous_from": previous.lowerBound.description,
                                          "previous_to": previous.upperBound.description])]
        let columns = ["medicine", "adherence", "previous", "on_time", "late", "early", "skipped", "missed", "mean_late", "most_late"]
        var rows = [columns.map { c.text("stats.column." + $0) }]
        rows.append(row(c.text("history.all"), stats.overall, stats.previous, nil))
        for m in stats.medications {
            rows.append(row(m.name, m.figures, m.previous, m.mostLateSlot))
        }
        out.append(contentsOf: TextTable.render(rows))
        // The note is a line per sentence (`\n` in the catalog), so that it fits 80 columns.
        out.append(contentsOf: c.text("stats.note").split(separator: "\n").map(String.init))
        return out
    }

    private func row(_ name: String, _ f: Figures, _ before: Figures, _ mostLate: LocalTime?) -> [String] {
        func percent(_ p: Int?) -> String { p.map { "\($0)%" } ?? "–" }
        return [name, percent(f.adherence), percent(before.adherence), percent(f.onTimePercent), String(f.late), String(f.early),
                String(f.skipped), String(f.missed), f.meanLateMinutes.map(catalog.minutes) ?? "–", mostLate?.description ?? "–"]
    }
}
