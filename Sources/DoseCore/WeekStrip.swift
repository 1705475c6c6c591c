/// The 7-day strip the bars show, `Week: ✓ ✓ ◐ ✗ ✓ · ○`: the catalog's `week.line` with one
/// symbol of the icon set per day of a snapshot's `week`, oldest first, today last.
public enum WeekStrip {
    /// Between two days' symbols (a reader of `timeline.json` that builds the line itself joins them alike).
    public static let separator = " "

    /// The strip of `week` in the words of `catalog` and the symbols of `icons`.
    public static func line(_ week: [Snapshot.WeekDay], catalog: Catalog, icons: IconSet) -> String {
        catalog.text("week.line", ["days": week.map { icons[day: $0.state] }.joined(separator: separator)])
    }
}
