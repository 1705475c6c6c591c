import DoseCore
import Foundation

/// `report --format csv`: RFC 4180, UTF-8, a header line, one row per slot in time order, then one
/// row per as-needed dose (DESIGN §3 Reports).
public enum ReportCSV {
    /// Columns are only ever appended (`import csv` reads every earlier form by name).
    public static let header = ["date", "scheduled", "medication", "dose", "status", "taken_at", "late_minutes", "time_known",
                                        "over_limit", "decided_after_close", "double_dose"]

    /// One row; nil fields are empty in CSV and `null` in JSON.
    public struct Row {
        public var date: String
        public var scheduled: String?
        public var medication: String
        public var dose: String?
        public var status: String
        public var takenAt: String?
        public var lateMinutes: Int?
        /// Taken at a time nobody recorded (imported): JSON only, `"time_unknown": true`.
        public var timeUnknown = false
        /// An as-needed dose recorded with `--force` beyond a limit.
        public var overLimit = false
        /// Skipped after the dose had closed as missed (DESIGN §2 `skip --slot`).
        public var decidedAfterClose = false
        /// Where the dose came from (``DoseEvent/Origin``): JSON only; nil when unknown or not taken.
        public var origin: String? = nil
        /// A slot taken on two devices (DESIGN §10), confirmed or not.
        public var doubleDose = false
    }

    public static func rows(_ r: Report) -> [Row] {
        r.slots.map { s in
            Row(date: s.date.description, scheduled: s.scheduled.iso8601, medication: s.medication, dose: s.dose,
                status: s.status.rawValue, takenAt: s.takenAt?.iso8601, lateMinutes: s.lateMinutes,
                timeUnknown: s.timeUnknown, decidedAfterClose: s.decidedAfterClose, origin: r.origins.of(s)?.rawValue, doubleDose: s.doubleDose)
        } + r.asNeeded.map { d in
            Row(date: d.date.description, scheduled: nil, medication: d.medication, dose: d.dose,
                status: "as_needed", takenAt: d.takenAt.iso8601, lateMinutes: nil, timeUnknown: d.timeUnknown, overLimit: d.overLimit,
                origin: r.origins.of(d)?.rawValue)
        }
    }

    /// The whole file, lines ending in CRLF as RFC 4180 asks. Text cells go through
    /// ``neutralised(_:)``; `late_minutes` is a number dosebar computes and is written as one.
    public static func render(_ r: Report) -> String {
        var out = header.joined(separator: ",") + "\r\n"
        for row in rows(r) {
            let text = [row.date, row.scheduled ?? "", row.medication, row.dose ?? "", row.status, row.takenAt ?? ""]
            let cells = text.map { field(neutralised($0)) }
                + [row.lateMinutes.map(String.init) ?? "", row.takenAt == nil ? "" : row.timeUnknown ? "false" : "true", row.overLimit ? "true" : "false",
                   row.decidedAfterClose ? "true" : "false",
                   row.doubleDose ? "true" : "false"]
            out += cells.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// The first characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection
    /// list): `=`, `+`, `-`, `@`, tab, CR.
    public static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// A text cell a spreadsheet would run as a formula gets one leading `'` (shown as text; OWASP's
    /// rule); a cell already made of quotes then such a character gets one more, so that
    /// ``restored(_:)`` can take exactly one off and give back every text as it was.
    /// Dates, instants and statuses start with a digit or a letter and are never changed.
    public static func neutralised(_ s: String) -> String {
        guard let first = s.unicodeScalars.drop(while: { $0 == "'" }).first, formulaStarts.contains(first) else { return s }
        return "'" + s
    }

    /// What ``neutralised(_:)`` was given: one leading `'` off a cell made of quotes then a formula
    /// character; any other cell as it is.
    public static func restored(_ s: String) -> String {
        guard s.unicodeScalars.first == "'", let first = s.unicodeScalars.drop(while: { $0 == "'" }).first,
              formulaStarts.contains(first) else { return s }
        return String(s.unicodeScalars.dropFirst())
    }

    /// A field quoted when it holds a comma, a quote or a line break, or was neutralised (starts
    /// with `'`: OWASP's rule quotes it too); quotes doubled.
    static func field(_ s: String) -> String {
        guard s.hasPrefix("'") || s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\t" }) else {
            return s
        }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A schedule with its times (`daily 08:00, 20:00`), as the report shows it.
    public static func schedule(_ s: Schedule?, catalog: Catalog) -> String {
        s.map(catalog.describeWithTimes) ?? ""
    }
}
