// report.html — `dosebar report --format html` (DESIGN §3 Reports): the doctor's report as one
// self-contained HTML5 page that prints on A4.
//
// Output: `<!DOCTYPE html>` and one `<html lang="en|ko">` with inline CSS and inline SVG only —
// no script, no image, no link, no font or URL of any kind (a Content-Security-Policy of
// `default-src 'none'` says so to the browser too). Sections, in order:
//   header     title, the period (first – last day, number of days), time zone, generated at
//   overall    adherence, on time, taken of known, late, early, skipped, missed, mean lateness
//   medicines  one row per medicine: name, dose, schedule and times, the same figures, as-needed
//              doses, the time most often late; an "all medicines" row
//   calendar   one Monday-first month per month the period touches; each day of the period
//              coloured by its `HistoryState`, with the letter `history` prints (colour-blind
//              readers) and a pattern for missed and partial days; days outside the period greyed
//   weekly     an SVG bar per week (0–100 %, percent above each bar); a week with no known
//              outcome is a gap
//   troubled   the doses missed or taken late: date, time, medicine, status, taken at, late by
//   twice      (only when there is one) the doses taken on two devices, each take, and whether
//              the person confirmed both
// Every word comes from the catalog (`report.*`, `history.state.*`, `status.*`, `month.*`,
// `describe`, `minutes`); every user string is escaped (& < > " '). Reads no config.
// Printing: `@page { size: A4 }`, colours kept (`print-color-adjust: exact`), no month, table row
// or chart split across pages.
import DoseCore
import Foundation

/// The doctor's report as a self-contained, printable HTML page.
public enum ReportHTML {
    /// In every report's head: how `report --output` recognises a report it may replace.
    public static let generatorMeta = #"<meta name="generator" content="dosebar report">"#

    /// The page; `generatedAt` (when given) is printed under the period.
    public static func render(_ report: Report, catalog: Catalog, generatedAt: LocalInstant?) -> String {
        "<!DOCTYPE html>\n" + ReportPage(report: report, catalog: catalog).document(generatedAt: generatedAt).html
    }
}

/// The sections of one report in one language.
fileprivate struct ReportPage {
    let report: Report
    let catalog: Catalog
    /// Short weekday names, Monday first (`Mon`, `월`).
    let weekdays: [String]
    /// Days with a dose skipped after it had closed as missed: marked in the calendar.
    let marked: Set<LocalDate>

    init(report: Report, catalog: Catalog) {
        self.report = report
        self.catalog = catalog
        marked = Set(report.days.filter { $0.decidedAfterClose > 0 }.map(\.day))
        weekdays = catalog.text("report.weekdays").split(separator: " ").map(String.init)
    }

    func document(generatedAt: LocalInstant?) -> Markup {
        el("html", ["lang": catalog.language], [
            head(),
            el("body", [:], [header(generatedAt), overall(), medicines(), calendar(), weekly(), troubled()] + twice()),
        ])
    }

    // MARK: - Sections

    private func head() -> Markup {
        el("head", [:], [
            el("meta", ["charset": "utf-8"]),
            el("meta", ["http-equiv": "Content-Security-Policy", "content": "default-src 'none'; style-src 'unsafe-inline'"]),
            el("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"]),
            el("meta", ["name": "color-scheme", "content": "light"]),
            el("meta", ["name": "generator", "content": "dosebar report"]),
            el("title", [:], text: catalog.text("report.title") + " · " + period()),
            el("style", [:], [Markup(raw: ReportStyle.css)]),
        ])
    }

    private func header(_ generatedAt: LocalInstant?) -> Markup {
        var meta = [catalog.text("report.zone", ["zone": report.timezone])]
        if let at = generatedAt {
            meta.append(catalog.text("report.generated", ["date": longDate(at.localDate), "time": at.clock]))
        }
        return el("header", [:], [
            el("h1", [:], text: catalog.text("report.title")),
            el("p", ["class": "period"], text: period()),
            el("p", ["class": "meta"], text: meta.joined(separator: " · ")),
        ] + report.zoneChanges.map { move in
            el("p", ["class": "meta zone-change"], text: catalog.text("report.zone_change", [
                "date": longDate(move.at.localDate), "time": move.at.clock, "offset": move.at.offsetText,
                "from": move.from, "to": move.to]))
        })
    }

    private func overall() -> Markup {
        let f = report.overall
        let tiles: [(key: String, value: String)] = [
            ("adherence", percent(f.adherence)), ("on_time", percent(f.onTimePercent)), ("late", String(f.late)),
            ("early", String(f.early)), ("skipped", String(f.skipped)), ("missed", String(f.missed)),
            ("mean_late", lateness(f.meanLateMinutes)),
        ]
        return section("overall", catalog.text("report.overall"), [
            el("div", ["class": "tiles"], tiles.map { tile in
                el("div", ["class": "tile f-" + tile.key], [
                    el("span", ["class": "value"], text: tile.value),
                    el("span", ["class": "label"], text: column(tile.key)),
                ])
            }),
            el("p", ["class": "taken-of"], text: catalog.text("report.taken_of", ["taken": String(f.taken), "known": String(f.known)])),
        ])
    }

    private static let figureColumns = ["adherence", "on_time", "taken", "late", "early", "skipped", "missed", "as_needed",
                                        "mean_late", "most_late"]

    private func medicines() -> Markup {
        guard !report.lines.isEmpty else {
            return section("medicines", catalog.text("report.medicines"), [el("p", ["class": "empty"], text: catalog.text("report.no_medicines"))])
        }
        let head = el("tr", [:], [el("th", ["class": "name"], text: column("medicine"))]
            + Self.figureColumns.map { el("th", ["class": "num f-" + $0], text: column($0)) })
        let rows = report.lines.map { line in
            el("tr", ["class": "medicine"], [medicineCell(line)]
                + figureCells(line.figures, asNeeded: line.asNeeded, mostLate: line.mostLateSlot,
                            overLimit: report.asNeeded.filter { $0.medicationID == line.medication.id && $0.overLimit }.count))
        }
        let all = el("tr", ["class": "all"], [el("th", ["class": "name", "scope": "row"], text: catalog.text("report.all"))]
            + figureCells(report.overall, asNeeded: report.lines.reduce(0) { $0 + $1.asNeeded }, mostLate: nil,
                          overLimit: report.asNeeded.filter(\.overLimit).count))
        return section("medicines", catalog.text("report.medicines"), [
            el("table", ["class": "figures"], [el("thead", [:], [head]), el("tbody", [:], rows), el("tfoot", [:], [all])]),
            el("p", ["class": "note"], text: catalog.text("report.note")),
        ])
    }

    private func medicineCell(_ line: Report.Line) -> Markup {
        let m = line.medication
        var parts = [el("span", ["class": "med-name"], text: m.name)]
        if line.doses.count > 1 {
            // The dose changed in the period: each with its days, so no earlier dose reads as the new one.
            for span in line.doses {
                let dose = span.dosing.text.flatMap { $0.isEmpty ? nil : $0 } ?? catalog.text("report.dose_units", ["amount": catalog.amounts(span.dosing)])
                let key = span.days.upperBound == report.to ? "report.dose_from" : "report.dose_until"
                let day = span.days.upperBound == report.to ? span.days.lowerBound : span.days.upperBound
                parts.append(el("span", ["class": "dose"], text: catalog.text(key, ["dose": dose, "date": longDate(day)])))
            }
        } else if let dose = m.dose, !dose.isEmpty {
            parts.append(el("span", ["class": "dose"], text: dose))
        }
        // A different amount per time (`--per-dose 0.5,1`): each time's, whatever the dose text.
        if line.doses.count <= 1, let dosing = line.doses.first?.dosing, dosing.perTime != nil {
            parts.append(el("span", ["class": "dose"], text: catalog.text("report.dose_units", ["amount": catalog.amounts(dosing)])))
        }
        if let schedule = line.schedule { parts.append(el("span", ["class": "schedule"], text: describe(schedule))) }
        if let archived = m.archivedOn, archived <= report.to {
            parts.append(el("span", ["class": "stopped"], text: catalog.text("report.stopped", ["date": longDate(archived)])))
        }
        return el("th", ["class": "name", "scope": "row"], parts)
    }

    /// `overLimit`: as-needed doses recorded with `--force` beyond a limit, said in words after the count.
    private func figureCells(_ f: Figures, asNeeded: Int, mostLate: LocalTime?, overLimit: Int = 0) -> [Markup] {
        let needed = overLimit == 0 ? String(asNeeded)
            : String(asNeeded) + " (" + catalog.text("report.over_limit", ["count": String(overLimit)]) + ")"
        let values = [percent(f.adherence), percent(f.onTimePercent), String(f.taken), String(f.late), String(f.early),
                      String(f.skipped), String(f.missed), needed, lateness(f.meanLateMinutes),
                      mostLate?.description ?? "–"]
        return zip(Self.figureColumns, values).map { el("td", ["class": "num f-" + $0], text: $1) }
    }

    private func calendar() -> Markup {
        let states = Dictionary(report.days.map { ($0.day, $0.state) }, uniquingKeysWith: { a, _ in a })
        var months: [Markup] = []
        var first = LocalDate(year: report.from.year, month: report.from.month, day: 1)!
        while first <= report.to {
            months.append(month(first, states))
            first = first.adding(months: 1)
        }
        return section("calendar", catalog.text("report.calendar"), [
            el("div", ["class": "calendar-body"], [el("div", ["class": "months"], months), legend()]),
        ])
    }

    /// One month, Monday first: a row per week, a cell per day.
    private func month(_ first: LocalDate, _ states: [LocalDate: HistoryState]) -> Markup {
        let last = first.adding(months: 1).adding(days: -1)
        var rows: [Markup] = []
        var monday = first.adding(days: 1 - first.weekday.rawValue)
        while monday <= last {
            rows.append(el("tr", [:], (0..<7).map { i in
                let d = monday.adding(days: i)
                return d.month == first.month ? dayCell(d, states[d]) : el("td", ["class": "blank"])
            }))
            monday = monday.adding(days: 7)
        }
        let head = el("tr", [:], weekdays.map { el("th", [:], text: $0) })
        return el("table", ["class": "month"], [
            el("caption", [:], text: catalog.month(first.month, year: first.year)),
            el("thead", [:], [head]), el("tbody", [:], rows),
        ])
    }

    private func dayCell(_ d: LocalDate, _ state: HistoryState?) -> Markup {
        let number = el("span", ["class": "n"], text: String(d.day))
        guard let state else { return el("td", ["class": "day out"], [number]) }
        // A dose skipped after it had closed as missed: marked, and said in the cell's title.
        guard marked.contains(d) else {
            return el("td", ["class": "day s-" + state.rawValue, "data-day": d.description, "title": catalog.state(state)], [
                number, el("span", ["class": "k"], text: HistoryCalendar.letter(state)),
            ])
        }
        return el("td", ["class": "day s-" + state.rawValue + " decided-late", "data-day": d.description,
                         "title": catalog.state(state) + " · " + catalog.text("history.decided_after_close")], [
            number, el("span", ["class": "k"], text: HistoryCalendar.letter(state)),
            el("span", ["class": "mark"], text: HistoryCalendar.mark),
        ])
    }

    private func legend() -> Markup {
        let items = HistoryState.allCases.map { s in
            el("li", [:], [el("span", ["class": "swatch s-" + s.rawValue], text: HistoryCalendar.letter(s)),
                          el("span", [:], text: catalog.state(s))])
        } + [el("li", [:], [el("span", ["class": "swatch out"], text: ""), el("span", [:], text: catalog.text("report.outside"))])]
            + (marked.isEmpty ? [] : [el("li", [:], [el("span", ["class": "swatch mark"], text: HistoryCalendar.mark),
                                                     el("span", [:], text: catalog.text("history.decided_after_close"))])])
        return el("ul", ["class": "legend"], items)
    }

    private func weekly() -> Markup {
        section("weekly", catalog.text("report.weekly"), [WeeklyChart(report: report, page: self).svg()])
    }

    private func troubled() -> Markup {
        let doses = report.troubled
        guard !doses.isEmpty else {
            return section("troubled", catalog.text("report.troubled"), [el("p", ["class": "empty"], text: catalog.text("report.no_troubled"))])
        }
        let columns = ["date", "time", "medicine", "status", "taken_at", "late_by"]
        let head = el("tr", [:], columns.map { el("th", ["class": "c-" + $0], text: column($0)) })
        // A year can list thousands: the rows are appended to one string, with the words of a date, a
        // status and a name worked out once (the same markup `el` writes).
        var dates: [LocalDate: String] = [:], statuses: [SlotStatus: String] = [:], names: [String: String] = [:]
        let changedDose = Set(report.lines.filter { $0.doses.count > 1 }.map(\.medication.id))
        func text(_ s: String) -> String { Markup.text(s).html }
        var body = "<tbody>"
        body.reserveCapacity(doses.count * 300)
        func cell(_ column: String, _ html: String) {
            body.append("<td class=\"c-"); body.append(column); body.append("\">"); body.append(html); body.append("</td>")
        }
        for s in doses {
            let date = dates[s.date] ?? { let t = text(shortDate(s.date)); dates[s.date] = t; return t }()
            let status = s.decidedAfterClose
                ? "<span class=\"badge\">" + text(catalog.text("report.skipped_after_missed")) + "</span>"
                : statuses[s.status] ?? {
                    let t = "<span class=\"badge\">" + text(catalog.status(s.status)) + "</span>"
                    statuses[s.status] = t
                    return t
                }()
            // With its dose when the medicine's dose changed in the period: the dose of that day.
            let label = changedDose.contains(s.medicationID) ? [s.medication, s.dose ?? ""].filter { !$0.isEmpty }.joined(separator: " ") : s.medication
            let name = names[label] ?? { let t = text(label); names[label] = t; return t }()
            body.append("<tr class=\"st-"); body.append(s.status.rawValue); body.append("\">")
            cell("date", date)
            cell("time", s.time.description)
            cell("medicine", name)
            cell("status", status)
            cell("taken_at", s.takenAt?.clock ?? "–")
            cell("late_by", text(s.status == .takenLate ? lateness(s.lateMinutes) : "–"))
            body.append("</tr>\n")
        }
        body.append("</tbody>\n")
        let rows = Markup(raw: body)
        return section("troubled", catalog.text("report.troubled"), [
            el("table", ["class": "doses"], [el("thead", [:], [head]), rows]),
        ])
    }

    /// The doses taken on two devices (DESIGN §10): none, no section.
    private func twice() -> [Markup] {
        guard !report.doubleDoses.isEmpty else { return [] }
        let items = report.doubleDoses.map { d in
            var line = catalog.text("report.twice_row", ["date": shortDate(d.date), "time": d.time.description, "name": d.medication,
                                                         "takes": d.takes.joined(separator: catalog.listSeparator)])
            if d.confirmed { line += " · " + catalog.text("report.twice_confirmed") }
            return el("li", ["class": d.confirmed ? "confirmed" : "open"], text: line)
        }
        return [section("twice", catalog.text("report.twice"), [el("ul", [:], items)])]
    }

    // MARK: - Words

    private func section(_ name: String, _ title: String, _ content: [Markup]) -> Markup {
        el("section", ["class": name], [el("h2", [:], text: title)] + content)
    }

    private func column(_ key: String) -> String { catalog.text("report.column." + key) }

    func period() -> String {
        let days = report.to - report.from + 1
        return catalog.text("report.period", ["from": longDate(report.from), "to": longDate(report.to),
                                              "days": catalog.counted("report.days", days)])
    }

    /// `daily at 08:00, 20:00`, with `until Sun 25 Oct` for a course that ended in the period.
    private func describe(_ s: Schedule) -> String {
        let times = catalog.times(of: s, separator: catalog.listSeparator)
        var text = times.isEmpty ? catalog.describe(s) : catalog.text("report.schedule", ["schedule": catalog.describe(s), "times": times])
        if let until = s.until, until <= report.to { text += " " + catalog.text("report.until", ["date": shortDate(until)]) }
        return text
    }

    private func percent(_ p: Int?) -> String { p.map { "\($0)%" } ?? "–" }

    private func lateness(_ minutes: Int?) -> String { minutes.map(catalog.minutes) ?? "–" }

    private func dateArguments(_ d: LocalDate) -> [String: String] {
        ["weekday": weekdays[d.weekday.rawValue - 1], "day": String(d.day), "month": catalog.month(d.month),
         "year": String(d.year)]
    }

    /// `Thu 1 Oct 2026`, `2026년 10월 1일 (목)`.
    func longDate(_ d: LocalDate) -> String { catalog.text("report.date", dateArguments(d)) }

    /// `Thu 1 Oct`, `10월 1일 (목)`; with the year when the period spans two years.
    func shortDate(_ d: LocalDate) -> String {
        report.from.year == report.to.year ? catalog.text("report.date.short", dateArguments(d)) : longDate(d)
    }

    /// `1 Oct`, `10월 1일`.
    func dayMonth(_ d: LocalDate) -> String { catalog.text("report.day_month", dateArguments(d)) }
}

/// The weekly adherence chart: one bar per week of the report, 0–100 %, as inline SVG.
fileprivate struct WeeklyChart {
    let report: Report
    let page: ReportPage

    private let width = 720.0, height = 220.0
    private let left = 46.0, right = 10.0, top = 18.0, bottom = 34.0
    private var plotWidth: Double { width - left - right }
    private var plotHeight: Double { height - top - bottom }

    func svg() -> Markup {
        let title = page.catalog.text("report.chart", ["from": page.longDate(report.from), "to": page.longDate(report.to)])
        let weeks = report.weeks
        let slot = plotWidth / Double(max(weeks.count, 1))
        // Labels every `step` weeks so they never overlap; percent labels only where a bar is wide enough.
        let step = max(1, Int((70.0 / slot).rounded(.up)))
        let bars = weeks.enumerated().map { i, week in bar(week, index: i, slot: slot, label: i % step == 0, percent: slot >= 26) }
        return el("svg", ["class": "chart", "viewBox": "0 0 \(fmt(width)) \(fmt(height))", "role": "img", "aria-label": title],
                  [el("title", [:], text: title), axis()] + bars)
    }

    private func y(_ percent: Double) -> Double { top + plotHeight * (1 - percent / 100) }

    private func axis() -> Markup {
        let lines = stride(from: 0, through: 100, by: 25).map { p in
            el("g", ["class": p == 0 ? "tick base" : "tick"], [
                el("line", ["x1": fmt(left), "x2": fmt(width - right), "y1": fmt(y(Double(p))), "y2": fmt(y(Double(p)))]),
                el("text", ["x": fmt(left - 6), "y": fmt(y(Double(p)) + 4), "text-anchor": "end"], text: "\(p)%"),
            ])
        }
        return el("g", ["class": "axis"], lines)
    }

    private func bar(_ week: Report.Week, index: Int, slot: Double, label: Bool, percent: Bool) -> Markup {
        let center = left + slot * (Double(index) + 0.5)
        let barWidth = min(slot * 0.62, 44)
        var parts: [Markup] = []
        let known = week.figures
        if let p = known.adherence {
            let h = plotHeight * Double(p) / 100
            let detail = "\(page.dayMonth(week.days.lowerBound)) – \(page.dayMonth(week.days.upperBound)): \(p)% "
                + "(" + page.catalog.text("report.taken_of", ["taken": String(known.taken), "known": String(known.known)]) + ")"
            parts.append(el("rect", ["class": "bar", "x": fmt(center - barWidth / 2), "y": fmt(y(0) - h),
                                     "width": fmt(barWidth), "height": fmt(max(h, 0.5))], [el("title", [:], text: detail)]))
            if percent {
                parts.append(el("text", ["class": "pct", "x": fmt(center), "y": fmt(y(0) - h - 4), "text-anchor": "middle"], text: "\(p)%"))
            }
        } else {
            parts.append(el("text", ["class": "gap", "x": fmt(center), "y": fmt(y(0) - 4), "text-anchor": "middle"], [
                Markup.text("–"), el("title", [:], text: page.catalog.text("report.no_outcome")),
            ]))
        }
        if label {
            parts.append(el("text", ["class": "week", "x": fmt(center), "y": fmt(height - bottom + 16), "text-anchor": "middle"],
                            text: page.dayMonth(week.days.lowerBound)))
        }
        return el("g", ["class": known.adherence == nil ? "week-bar empty" : "week-bar", "data-week": week.days.lowerBound.description], parts)
    }

    /// A coordinate with at most one decimal.
    private func fmt(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
