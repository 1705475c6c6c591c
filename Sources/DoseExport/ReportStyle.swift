import DoseCore

/// The stylesheet: layout and print rules, then one rule per day state from `ReportStyle.states`.
enum ReportStyle {
    /// Fill (and pattern) of each day state: the calendar, its legend. Every state also carries its letter.
    static let states: [(state: HistoryState, background: String)] = [
        (.done, "#a8dfb7"),
        (.partial, "linear-gradient(135deg, #a8dfb7 0 50%, #f4a9a2 50% 100%)"),
        (.missed, "repeating-linear-gradient(45deg, #f4a9a2 0 4px, #e98a82 4px 6px)"),
        (.skipped, "#d6dae1"),
        (.rest, "#bcd4f2"),
        (.none, "#ffffff"),
        (.pending, "#c2eaf0"),
    ]

    static let base = """
    @page { size: A4; margin: 14mm 12mm 14mm 12mm; }
    * { box-sizing: border-box; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    html { font-family: "Noto Sans", "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; color: #1d2733; background: #fff; }
    html:lang(ko) { font-family: "Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic", "Apple SD Gothic Neo", "Droid Sans Fallback", sans-serif; word-break: keep-all; }
    body { max-width: 186mm; margin: 0 auto; padding: 8mm 0; line-height: 1.35; }
    h1 { font-size: 18pt; margin: 0 0 1mm; }
    h2 { font-size: 12pt; margin: 6mm 0 2mm; padding-bottom: 1mm; border-bottom: 1px solid #c9d1da; break-after: avoid; }
    header .period { font-size: 11.5pt; font-weight: 600; margin: 0; }
    header .meta { color: #56616d; margin: 0.5mm 0 0; }
    .tiles { display: flex; flex-wrap: wrap; gap: 2mm; }
    .tile { flex: 1 1 auto; min-width: 20mm; border: 1px solid #d5dbe2; border-radius: 2mm; padding: 1.5mm 2mm; background: #f6f8fa; }
    .tile .value { display: block; font-size: 15pt; font-weight: 700; white-space: nowrap; }
    .tile .label { display: block; color: #56616d; font-size: 8.5pt; }
    .tile.f-adherence { background: #e5f4ea; border-color: #a8dfb7; }
    .tile.f-missed { background: #fbe7e5; border-color: #f4a9a2; }
    .taken-of { color: #56616d; margin: 1.5mm 0 0; }
    table { border-collapse: collapse; }
    tr, .tile, table.month, svg.chart, .legend, .calendar-body { break-inside: avoid; page-break-inside: avoid; }
    table.figures, table.doses { width: 100%; font-size: 8.5pt; }
    table.figures th, table.figures td, table.doses th, table.doses td { padding: 1.2mm 1.2mm; border-bottom: 1px solid #e1e6eb; text-align: left; vertical-align: top; }
    table.figures thead th, table.doses thead th { font-weight: 600; color: #56616d; border-bottom: 1.5px solid #9aa5b1; vertical-align: bottom; }
    table.figures .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
    table.figures th.num { white-space: normal; }
    table.figures td.f-adherence { font-weight: 700; }
    table.figures tfoot th, table.figures tfoot td { border-top: 1.5px solid #9aa5b1; border-bottom: none; font-weight: 700; }
    .med-name { display: block; font-weight: 700; }
    .dose, .schedule, .stopped { display: block; color: #56616d; font-weight: 400; }
    .stopped { font-style: italic; }
    .note { color: #56616d; font-size: 8pt; margin: 1.5mm 0 0; }
    .months { display: flex; flex-wrap: wrap; gap: 5mm; }
    table.month { font-size: 8pt; }
    table.month caption { font-weight: 700; text-align: left; padding-bottom: 1mm; }
    table.month th { font-weight: 600; color: #56616d; padding: 0.5mm; width: 8mm; }
    table.month td { width: 8mm; height: 7.5mm; padding: 0.4mm 0.8mm; vertical-align: top; border: 1px solid #fff; }
    table.month td.day { border-color: #d5dbe2; }
    td.day .n { display: block; font-weight: 600; }
    td.day .k { display: block; text-align: right; font-size: 6.5pt; line-height: 1; font-weight: 700; opacity: 0.75; }
    td.day.out { background: #f1f2f4; color: #b3b9c0; border-color: #eceef1; }
    td.day.s-pending { border: 1px dashed #3c8fa0; }
    .legend { list-style: none; padding: 0; margin: 3mm 0 0; display: flex; flex-wrap: wrap; gap: 1mm 4mm; font-size: 8.5pt; }
    .legend li { display: flex; align-items: center; gap: 1.5mm; }
    .swatch { display: inline-block; width: 5mm; height: 4mm; border: 1px solid #b8c0c9; font-size: 6.5pt; font-weight: 700; text-align: center; line-height: 3.8mm; }
    .swatch.out { background: #f1f2f4; border-color: #dde1e5; }
    svg.chart { width: 100%; height: auto; display: block; font-size: 11px; }
    svg.chart .tick line { stroke: #e1e6eb; stroke-width: 1; }
    svg.chart .tick.base line { stroke: #9aa5b1; }
    svg.chart .tick text, svg.chart .week { fill: #56616d; }
    svg.chart .bar { fill: #3f8f5e; }
    svg.chart .pct { fill: #1d2733; font-weight: 700; }
    svg.chart .gap { fill: #9aa5b1; font-weight: 700; }
    table.doses td.c-date, table.doses td.c-time, table.doses td.c-taken_at, table.doses td.c-late_by { white-space: nowrap; font-variant-numeric: tabular-nums; }
    .badge { display: inline-block; padding: 0 1.5mm; border-radius: 1mm; font-weight: 600; }
    tr.st-missed .badge { background: #f4a9a2; }
    tr.st-taken_late .badge { background: #ffd98a; }
    .empty { color: #56616d; }
    @media print { body { max-width: none; padding: 0; } h2 { margin-top: 5mm; } }
    """

    static let css: String = {
        let stateRules = states.map { "td.s-\($0.state.rawValue), .swatch.s-\($0.state.rawValue) { background: \($0.background); }" }
        return "\n" + base + "\n" + stateRules.joined(separator: "\n") + "\n"
    }()
}
