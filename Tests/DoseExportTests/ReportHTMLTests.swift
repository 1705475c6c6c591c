import DoseCore
import DoseExport
import Foundation
import Testing

/// `report --format html` (DESIGN §3 Reports): a self-contained page, escaped, with the Report's own figures.
/// The fixture's states and figures are worked out by hand below, from the rules of §3 — not read from the page.
@Suite struct ReportHTMLTests {
    // Seoul. Medicines from Mon 2026-11-02; the report covers Fri 2026-10-30 … Sun 2026-11-08, seen at 22:00 on 11-08.
    static let hostile = #"<b>Iron</b> & "Co" 'x'"#
    static let metformin = med(1, "Metformin", dose: "500 mg", at: ["08:00", "20:00"])
    static let iron = med(2, hostile, dose: "<script>alert(1)</script>", at: ["21:00"])
    static let ibuprofen = med(3, "Ibuprofen", .asNeeded(maxPerDay: 3, minInterval: nil), at: [])

    static let events: [DoseEvent] = [
        // 11-02: all three taken in their window → done.
        dose(1, "11-02", "08:00", "08:10"), dose(1, "11-02", "20:00", "20:05"), dose(2, "11-02", "21:00", "21:00"),
        // 11-03: 08:00 taken 150 min late, 20:00 missed, iron skipped → partial.
        dose(1, "11-03", "08:00", "10:30"), dose(2, "11-03", "21:00", "21:00", .skipped), dose(3, "11-03", nil, "14:00"),
        // 11-04: everything skipped → skipped. 11-05: nothing → missed.
        dose(1, "11-04", "08:00", "08:00", .skipped), dose(1, "11-04", "20:00", "20:00", .skipped),
        dose(2, "11-04", "21:00", "21:00", .skipped),
        // 11-06: 08:00 taken 150 min early, the rest on time → done.
        dose(1, "11-06", "08:00", "05:30"), dose(1, "11-06", "20:00", "20:00"), dose(2, "11-06", "21:00", "21:30"),
        dose(3, "11-06", nil, "15:00"),
        // 11-07: 20:00 taken 180 min late, iron missed → partial.
        dose(1, "11-07", "08:00", "08:00"), dose(1, "11-07", "20:00", "23:00"),
        // 11-08 (today, 22:00): 08:00 taken; 20:00 late and 21:00 due are no outcomes yet → pending.
        dose(1, "11-08", "08:00", "08:00"),
    ]

    static func med(_ id: Int64, _ name: String, _ recurrence: Recurrence = .daily, dose: String? = nil,
                    at times: [String]) -> Medication {
        let from = LocalDate("2026-11-02")!
        return Medication(id: id, name: name, dose: dose, versions: [ScheduleVersion(effective: from, schedule: Schedule(
            recurrence: recurrence, times: times.map { LocalTime($0)! }, start: from))])
    }

    static func instant(_ day: String, _ clock: String) -> Date { ISO8601.parse("2026-\(day)T\(clock):00+09:00")! }

    static func dose(_ m: Int64, _ day: String, _ slot: String?, _ at: String, _ kind: DoseEvent.Kind = .taken) -> DoseEvent {
        // A distinct id per medicine and instant (no two events of the fixture share both).
        DoseEvent(id: m * 10_000_000 + Int64(instant(day, at).timeIntervalSince1970 / 60) % 10_000_000, medicationID: m, kind: kind,
                  slot: slot.map { SlotKey(medicationID: m, date: LocalDate("2026-\(day)")!, time: LocalTime($0)!) },
                  at: instant(day, at), loggedAt: instant(day, at))
    }

    static let report = Report(HistoryLedger(
        days: LocalDate("2026-10-30")!...LocalDate("2026-11-08")!, medications: [metformin, iron, ibuprofen],
        events: events, zone: Zone(TimeZone(identifier: "Asia/Seoul")!), now: instant("11-08", "22:00")))

    static let generated = LocalInstant(date: instant("11-08", "22:05"), offset: 9 * 3600)

    func page(_ catalog: Catalog = .english) -> String {
        ReportHTML.render(Self.report, catalog: catalog, generatedAt: Self.generated)
    }

    // MARK: - The fixture, by hand

    @Test("the fixture is what the comments say: day states and figures worked out from DESIGN §3")
    func fixture() throws {
        let r = Self.report
        #expect(r.days.map(\.state) == [.none, .none, .none, .done, .partial, .skipped, .missed, .done, .partial, .pending])
        let m = try #require(r.lines.first { $0.medication.id == 1 }).figures
        // Taken 8 (2+1+0+0+2+2+1), on time 5, late 2 (150, 180), early 1, skipped 2, missed 3 (1 + 2): 8/13 = 62 %, 5/8 = 63 %.
        #expect((m.taken, m.onTime, m.late, m.early, m.skipped, m.missed) == (8, 5, 2, 1, 2, 3))
        #expect(m.adherence == 62 && m.onTimePercent == 63 && m.meanLateMinutes == 165)
        let i = try #require(r.lines.first { $0.medication.id == 2 }).figures
        #expect((i.taken, i.onTime, i.skipped, i.missed, i.adherence, i.onTimePercent) == (2, 2, 2, 2, 33, 100))
        #expect((r.overall.taken, r.overall.known, r.overall.adherence, r.overall.onTimePercent) == (10, 19, 53, 70))
        #expect(r.lines.first { $0.medication.id == 3 }?.asNeeded == 2)
        // Late or missed: 11-03 08:00 late, 20:00 missed; 11-05 all three missed; 11-07 20:00 late, iron missed.
        #expect(r.troubled.count == 7)
    }

    // MARK: - Self-contained, printable

    @Test("no script, no URL, nothing to fetch, in both languages", arguments: ["en", "ko"])
    func selfContained(language: String) {
        let catalog = Catalog.forLanguage(language)
        let html = page(catalog).lowercased()
        for forbidden in ["<script", "http:", "https:", "//", "url(", "@import", " src=", " href=", "<link", "<img",
                          "<iframe", "<object", "<embed", "@font-face", "javascript:"] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
        // No event handler attribute either (onload=, onclick=, …).
        #expect(html.firstMatch(of: try! Regex(#"<[^>]*\son[a-z]+\s*="#)) == nil)
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"\(catalog.language)\">"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
        // A browser is told so too (the quote of 'none' escaped in the attribute).
        #expect(html.contains(#"<meta http-equiv="content-security-policy" content="default-src &#39;none&#39;;"#))
    }

    @Test("prints on A4 with its colours, and keeps months, rows and the chart whole")
    func printable() throws {
        let html = page()
        #expect(html.firstMatch(of: try Regex(#"@page\s*\{[^}]*size:\s*A4[^}]*margin:"#)) != nil)
        #expect(html.contains("print-color-adjust: exact"))
        let rule = try #require(html.firstMatch(of: try Regex(#"([^{}]+)\{[^}]*break-inside:\s*avoid"#)))
        let selectors = String(html[rule.range])
        for s in ["tr", "table.month", "svg.chart"] { #expect(selectors.contains(s)) }
    }

    @Test("each medicine is named once in the figures, and a hostile name or dose stays text")
    func escaping() throws {
        let html = page()
        let figures = try section(html, "medicines")
        for name in ["Metformin", "Ibuprofen", "&lt;b&gt;Iron&lt;/b&gt; &amp; &quot;Co&quot; &#39;x&#39;"] {
            #expect(figures.components(separatedBy: name).count - 1 == 1, "\(name) in the figures section")
        }
        #expect(!html.contains("<b>") && !html.contains(#""Co""#) && !html.contains("'x'"))
        #expect(!html.contains("<script>") && figures.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        // In the list of late and missed doses too.
        #expect(try section(html, "troubled").contains("&lt;b&gt;Iron&lt;/b&gt; &amp; &quot;Co&quot; &#39;x&#39;"))
    }

    // MARK: - Content

    @Test("the figures shown are the Report's: each medicine's row, the all-medicines row and the overall tiles")
    func figures() throws {
        let html = page()
        let table = try section(html, "medicines")
        let rows = table.components(separatedBy: "<tr class=\"medicine\">").dropFirst()
        #expect(rows.count == Self.report.lines.count)
        for line in Self.report.lines {
            let row = try #require(rows.first { $0.contains(line.medication.name == Self.hostile ? "&lt;b&gt;Iron" : line.medication.name) })
            #expect(try cells(row) == expected(line.figures, asNeeded: line.asNeeded, mostLate: line.mostLateSlot), "\(line.medication.name)")
        }
        let all = try #require(table.components(separatedBy: "<tr class=\"all\">").last)
        #expect(try cells(all) == expected(Self.report.overall, asNeeded: 2, mostLate: nil))
        // By hand: Metformin 62 %, 63 % on time, 2h 45m mean lateness; 20:00 late or missed 3 times (11-03, 11-05, 11-07),
        // 08:00 twice (11-03, 11-05).
        let metformin = try cells(try #require(rows.first { $0.contains("Metformin") }))
        #expect(metformin["adherence"] == "62%" && metformin["on_time"] == "63%" && metformin["mean_late"] == "2h 45m")
        #expect(metformin["most_late"] == "20:00" && metformin["taken"] == "8" && metformin["missed"] == "3")
        let tiles = try section(html, "overall")
        #expect(tiles.contains(#"<div class="tile f-adherence"><span class="value">53%</span>"#))
        #expect(tiles.contains(#"<div class="tile f-missed"><span class="value">5</span>"#))
    }

    @Test("a Monday-first month per month touched; a cell per day of the period with its state, the rest greyed")
    func calendar() throws {
        let html = try section(page(), "calendar")
        #expect(html.contains("<caption>Oct 2026</caption>") && html.contains("<caption>Nov 2026</caption>"))
        #expect(html.components(separatedBy: "<table class=\"month\">").count - 1 == 2)
        for record in Self.report.days {
            let cell = #"<td class="day s-\#(record.state.rawValue)" data-day="\#(record.day)""#
            #expect(html.components(separatedBy: cell).count - 1 == 1, "\(record.day) \(record.state)")
        }
        #expect(html.components(separatedBy: "data-day=").count - 1 == 10)
        // Oct 1–29 and Nov 9–30 are outside the period: 29 + 22 greyed days.
        #expect(html.components(separatedBy: #"<td class="day out">"#).count - 1 == 51)
        // October 2026 starts on a Thursday: three blank cells first in a Monday-first grid.
        let october = try #require(html.components(separatedBy: "<caption>Oct 2026</caption>").last)
        let firstWeek = try #require(october.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tr>").first)
        #expect(firstWeek.components(separatedBy: "<td class=\"blank\">").count - 1 == 3)
        #expect(firstWeek.contains(#"<td class="blank"></td><td class="blank"></td><td class="blank"></td><td class="day out"><span class="n">1</span>"#))
        // The legend: every state with its letter and word.
        for s in HistoryState.allCases { #expect(html.contains("swatch s-\(s.rawValue)") && html.contains(Catalog.english.state(s))) }
    }

    @Test("the weekly chart: an axis 0–100 %, a bar per week with its percent, a gap for a week with no outcome")
    func weeklyChart() throws {
        let svg = try section(page(), "weekly")
        #expect(svg.contains("<svg class=\"chart\"") && svg.contains(">0%</text>") && svg.contains(">100%</text>"))
        #expect(Self.report.weeks.map(\.days.lowerBound.description) == ["2026-10-30", "2026-11-02"])
        // Oct 30 – Nov 1: no medicine yet → a gap, no bar. Nov 2–8: the overall 53 %.
        let gap = try #require(svg.components(separatedBy: #"data-week="2026-10-30""#).dropFirst().first?.components(separatedBy: "</g>").first)
        #expect(!gap.contains("<rect") && gap.contains("class=\"gap\""))
        let bar = try #require(svg.components(separatedBy: #"data-week="2026-11-02""#).dropFirst().first?.components(separatedBy: "</g>").first)
        #expect(bar.contains("<rect class=\"bar\"") && bar.contains(">53%</text>"))
    }

    @Test("the missed and late doses: date, time, medicine, status and how late, in time order")
    func troubled() throws {
        let html = try section(page(), "troubled")
        let rows = html.components(separatedBy: "<tr class=\"st-").dropFirst()
        #expect(rows.map { $0.prefix { $0 != "\"" } } == ["taken_late", "missed", "missed", "missed", "missed", "taken_late", "missed"])
        let first = try #require(rows.first)
        #expect(first.contains(">Tue 3 Nov<") && first.contains(">08:00<") && first.contains(">taken late<")
            && first.contains(">10:30<") && first.contains(">2h 30m<"))
    }

    @Test("the period, the time zone and the generated-at line; none without an instant")
    func header() throws {
        let html = page()
        #expect(html.contains("Fri 30 Oct 2026 – Sun 8 Nov 2026 (10 days)"))
        #expect(html.contains("Time zone: Asia/Seoul") && html.contains("Generated on Sun 8 Nov 2026 at 22:05"))
        #expect(!ReportHTML.render(Self.report, catalog: .english, generatedAt: nil).contains("Generated"))
    }

    @Test("Korean: every label in Korean, dates written the Korean way, no English label left")
    func korean() throws {
        let html = page(.korean)
        for word in ["복약 보고서", "전체 요약", "약별 복용 현황", "달력", "주별 복용률", "누락되거나 늦은 복용", "복용률", "평균 지연",
                     "2026년 10월 30일 (금) – 2026년 11월 8일 (일) (10일)", "시간대: Asia/Seoul", "2026년 11월 8일 (일) 22:05 작성",
                     "<caption>2026년 10월</caption>", "<th>월</th>", ">11월 3일 (화)<", ">늦게 복용<", ">누락<", "2시간 45분",
                     "매일 08:00, 20:00", "일부 누락", "기간 밖"] {
            #expect(html.contains(word), "missing \(word)")
        }
        for english in ["Medication report", "Medicines", "Adherence", "Missed and late doses", "Calendar", "taken late",
                        "Time zone", "Nov 2026", ">Mon<", "daily"] {
            #expect(!html.contains(english), "English left: \(english)")
        }
    }

    @Test("a course that ended in the period says until when")
    func course() {
        let from = LocalDate("2026-11-02")!, until = LocalDate("2026-11-04")!
        let course = Medication(id: 9, name: "Amoxicillin", versions: [ScheduleVersion(effective: from, schedule: Schedule(
            recurrence: .daily, times: [LocalTime("09:00")!], start: from, until: until))])
        let report = Report(HistoryLedger(days: LocalDate("2026-11-01")!...LocalDate("2026-11-08")!, medications: [course],
                                          events: [], zone: Zone(TimeZone(identifier: "Asia/Seoul")!), now: Self.instant("11-08", "22:00")))
        #expect(ReportHTML.render(report, catalog: .english, generatedAt: nil).contains(">daily at 09:00 until Wed 4 Nov<"))
        #expect(ReportHTML.render(report, catalog: .korean, generatedAt: nil).contains(">매일 09:00 11월 4일 (수)까지<"))
    }

    @Test("an empty period says so instead of drawing empty tables")
    func empty() {
        let report = Report(HistoryLedger(days: LocalDate("2026-10-01")!...LocalDate("2026-10-07")!, medications: [],
                                          events: [], zone: Zone(TimeZone(identifier: "Asia/Seoul")!), now: Self.instant("11-08", "22:00")))
        let html = ReportHTML.render(report, catalog: .english, generatedAt: nil)
        #expect(html.contains("No medicine was scheduled in this period.") && html.contains("No dose was missed or taken late in this period."))
        #expect(!html.contains("<table class=\"figures\"") && html.contains("<svg class=\"chart\""))
    }

    // MARK: - Reading the page

    /// The `<section class="NAME">` of the page.
    private func section(_ html: String, _ name: String) throws -> String {
        let start = try #require(html.range(of: "<section class=\"\(name)\">"), "no section \(name)")
        let end = try #require(html.range(of: "</section>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The figure cells of a table row: `f-KEY` → text.
    private func cells(_ row: String) throws -> [String: String] {
        let row = row.components(separatedBy: "</tr>").first ?? row
        var out: [String: String] = [:]
        for m in row.matches(of: try Regex(#"<td class="num f-([a-z_]+)">([^<]*)</td>"#)) {
            out[String(m.output[1].substring ?? "")] = String(m.output[2].substring ?? "")
        }
        return out
    }

    private func expected(_ f: Figures, asNeeded: Int, mostLate: LocalTime?) -> [String: String] {
        func percent(_ p: Int?) -> String { p.map { "\($0)%" } ?? "–" }
        return ["adherence": percent(f.adherence), "on_time": percent(f.onTimePercent), "taken": String(f.taken),
                "late": String(f.late), "early": String(f.early), "skipped": String(f.skipped), "missed": String(f.missed),
                "as_needed": String(asNeeded), "mean_late": f.meanLateMinutes.map(Catalog.english.minutes) ?? "–",
                "most_late": mostLate?.description ?? "–"]
    }
}
