import DoseCore

/// `dosebar history` in a terminal (DESIGN §3 History): one row per week, Monday first, one cell
/// per day coloured by its state, the month at the row where it starts, the medicine's name (or
/// "all") above and a legend below (then how many doses sync merged as duplicates, if any). Each cell carries
/// its state's letter, with colour or without (NO_COLOR, a pipe).
/// 47 columns wide in both languages.
public struct HistoryCalendar {
    public var title: String
    public var records: [DayRecord]
    public var catalog: Catalog
    public var color: Bool
    /// Doses merged as duplicates by sync in the range (the same slot taken on two devices): a line
    /// below the legend says how many, when there are any.
    public var duplicates: Int
    /// The slots taken on two devices in the range (DESIGN §10), one line each below the legend.
    public var doubleDoses: [String]

    public init(title: String, records: [DayRecord], catalog: Catalog, color: Bool, duplicates: Int = 0, doubleDoses: [String] = []) {
        self.title = title; self.records = records; self.catalog = catalog; self.color = color
        self.duplicates = duplicates
        self.doubleDoses = doubleDoses
    }

    /// The letter of each state when there is no colour: the ASCII icon set's, as on the bars' strip.
    static func letter(_ s: HistoryState) -> String { IconSet.ascii[day: s] }

    /// The background colour (ANSI 256-colour) of each state: blue for all taken, orange for missed,
    /// after the Okabe–Ito palette, so the two stay apart under red-green colour blindness
    /// (deuteranopia, protanopia) and differ in lightness under tritanopia; the letter stays in
    /// each cell in any case.
    static func background(_ s: HistoryState) -> String {
        switch s {
        case .done: "97;48;5;25"      // blue #005faf
        case .partial: "30;48;5;227"  // light yellow #ffff5f
        case .missed: "30;48;5;208"   // orange #ff8700
        case .skipped: "30;48;5;250"  // light grey
        case .rest: "30;48;5;152"     // pale blue-grey
        case .none: "2"
        case .pending: "30;48;5;117"  // sky blue #87d7ff
        }
    }

    private static let labelWidth = 12

    public func lines() -> [String] {
        guard let first = records.first?.day, let last = records.last?.day else { return [title] }
        let byDay = Dictionary(records.map { ($0.day, $0.state) }, uniquingKeysWith: { a, _ in a })
        let decidedLate = Set(records.filter { $0.decidedAfterClose > 0 }.map(\.day))
        var out = [title + "  " + first.description + " – " + last.description]
        let header = catalog.weekdayCodes.map { code -> String in
            let name = catalog.language == "en" ? code.prefix(1).uppercased() + code.dropFirst() : code
            return pad(name, 4, right: true)
        }
        out.append(String(repeating: " ", count: Self.labelWidth) + header.joined(separator: " "))
        var monday = first.adding(days: 1 - first.weekday.rawValue)
        var named: (year: Int, month: Int)?
        while monday <= last {
            let week = (0..<7).map { monday.adding(days: $0) }
            // A row is named by the month of its first day shown, when that month differs from the row above.
            let shown = max(first, monday)
            var label = ""
            if named.map({ $0 != (shown.year, shown.month) }) ?? true {
                label = catalog.month(shown.month, year: shown.year)
                named = (shown.year, shown.month)
            }
            let cells = week.map { d -> String in
                guard let state = byDay[d] else { return "    " }
                return cell(d, state, marked: decidedLate.contains(d))
            }
            out.append(pad(label, Self.labelWidth, right: false) + cells.joined(separator: " "))
            monday = monday.adding(days: 7)
        }
        out.append("")
        out.append(contentsOf: legend())
        if !decidedLate.isEmpty { out.append(Self.mark + " " + catalog.text("history.decided_after_close")) }
        if duplicates > 0 { out.append(catalog.counted("history.duplicates", duplicates)) }
        out.append(contentsOf: doubleDoses)
        return out.map(Self.trimmingTrailingSpaces)
    }

    /// The mark before a day's number when a dose of it was skipped after it had closed as missed:
    /// the day counts as complete, and the calendar does not let it pass for one taken in time.
    static let mark = "*"

    private func cell(_ d: LocalDate, _ state: HistoryState, marked: Bool) -> String {
        let number = pad(String(d.day), 2, right: true)
        let lead = marked ? Self.mark : " "
        if color { return "\u{1B}[\(Self.background(state))m\(lead)\(number)\(Self.letter(state))\u{1B}[0m" }
        return lead + number + Self.letter(state)
    }

    /// One legend line per two or three states, each `D word`, the letter coloured as its cells when in colour.
    private func legend() -> [String] {
        let items = HistoryState.allCases.map { s in
            (color ? "\u{1B}[\(Self.background(s))m\(Self.letter(s))\u{1B}[0m" : Self.letter(s)) + " " + catalog.state(s)
        }
        var lines: [String] = []
        var line = ""
        var width = 0
        for (item, s) in zip(items, HistoryState.allCases) {
            let w = 1 + 1 + TextTable.width(catalog.state(s))
            if width > 0 && width + 3 + w > 78 {
                lines.append(line); line = ""; width = 0
            }
            if width > 0 { line += "   "; width += 3 }
            line += item; width += w
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func pad(_ s: String, _ n: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, n - TextTable.width(s)))
        return right ? fill + s : s + fill
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var s = line
        while s.last == " " { s.removeLast() }
        return s
    }
}
