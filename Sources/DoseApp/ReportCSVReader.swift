import DoseCore
import DoseExport
import Foundation

/// Reads what `report --format csv` writes into an ``ImportPlan``: RFC 4180, CRLF or LF, UTF-8 with or
/// without a BOM, columns found by their header name (a spreadsheet may reorder them or add others).
/// A cell the writer neutralised (`'=…`, `'+…`, DESIGN §9) is read back as it was before.
/// Takes (`taken`, `taken_early`, `taken_late`) and skips go to the slot scheduled at `scheduled`,
/// `as_needed` rows log an as-needed dose at `taken_at`; `missed` and today's open statuses
/// (`upcoming`, `due`, `late`) add nothing.
public struct ReportCSVReader {
    public let context: AppContext

    public init(context: AppContext) { self.context = context }

    /// The columns a row needs (`dose` and `late_minutes` are derived, and read by nobody).
    static let required = ["date", "scheduled", "medication", "status", "taken_at"]

    /// The plan of the file at `path`: unreadable or missing is `io` (74), a malformed line `badData` (65).
    /// `progress` counts its lines as they are read, then its rows as they are checked (a
    /// 20-year report of 50 medicines is 600,000 rows: seconds of each).
    public func plan(path: String, progress: WorkProgress = .silent) throws -> ImportPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw DosebarError.io("\(path): " + (exists ? "cannot read it (check its permissions)" : "no such file"))
        }
        let file = (path as NSString).lastPathComponent
        guard var text = String(data: data, encoding: .utf8) else { throw DosebarError.badData("\(file): not UTF-8 text") }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return try plan(text: text, file: file, progress: progress)
    }

    func plan(text: String, file: String, progress: WorkProgress = .silent) throws -> ImportPlan {
        progress.begin(.file, total: text.utf8.reduce(into: 0) { n, byte in if byte == UInt8(ascii: "\n") { n += 1 } })
        let records = try Self.records(text, file: file, progress: progress)
        progress.begin(.rows, total: max(0, records.count - 1))
        defer { progress.end() }
        guard let header = records.first else { throw DosebarError.badData("\(file): empty; expected the header \(ReportCSV.header.joined(separator: ","))") }
        var column: [String: Int] = [:]
        for (i, name) in header.fields.enumerated() where column[name.trimmingCharacters(in: .whitespaces).lowercased()] == nil {
            column[name.trimmingCharacters(in: .whitespaces).lowercased()] = i
        }
        if let missing = Self.required.first(where: { column[$0] == nil }) {
            throw DosebarError.badData("\(file): line \(header.line): the header has no '\(missing)' column "
                + "(expected \(ReportCSV.header.joined(separator: ",")))")
        }
        var plan = ImportPlan()
        var firstDay: [String: (name: String, day: LocalDate)] = [:]
        let now = context.now, zone = context.zone
        for (i, r) in records.dropFirst().enumerated() {
            progress.step(i)
            if r.fields.allSatisfy({ $0.isEmpty }) { continue }
            func fail(_ what: String) -> DosebarError { .badData("\(file): line \(r.line): \(what)") }
            /// The cell as dosebar was given it: the `'` the writer put before a formula character comes off.
            func field(_ name: String) -> String {
                guard let i = column[name] else { return "" }
                return i < r.fields.count ? ReportCSV.restored(r.fields[i]) : ""
            }
            func instant(_ name: String) throws -> Date {
                let text = field(name)
                guard let d = ISO8601.parse(text) else {
                    throw fail("\(name): '\(text)' is not an ISO-8601 date-time with an offset (e.g. 2026-11-21T08:00:00+09:00)")
                }
                return d
            }
            /// `time_known`, `over_limit`: `true`/`false`; absent (an older report's 7 columns) or empty is `absent`.
            func flag(_ name: String, absent: Bool) throws -> Bool {
                switch field(name).trimmingCharacters(in: .whitespaces).lowercased() {
                case "": return absent
                case "true": return true
                case "false": return false
                case let other: throw fail("\(name): '\(other)' is not true or false")
                }
            }
            let before = plan.doses.count
            let name = field("medication").trimmingCharacters(in: .whitespaces)
            // Control characters are the validation gate's to refuse (FieldRules), naming the code point.
            guard !name.isEmpty, name.unicodeScalars.count <= FieldRules.nameMax else {
                throw fail("medication: expected a name of 1 to \(FieldRules.nameMax) characters")
            }
            guard let day = LocalDate(field("date")) else { throw fail("date: '\(field("date"))' is not a date (YYYY-MM-DD)") }
            let status = field("status")
            switch status {
            case "taken", "taken_early", "taken_late":
                let at = try instant("taken_at")
                if at > now.addingTimeInterval(60) { throw fail("taken_at: \(field("taken_at")) is in the future") }
                plan.doses.append(.init(name: name, kind: .taken, slot: .instant(day, try instant("scheduled")), at: at,
                                        timeKnown: try flag("time_known", absent: true)))
            case "skipped":
                let scheduled = try instant("scheduled")
                plan.doses.append(.init(name: name, kind: .skipped, slot: .instant(day, scheduled), at: min(scheduled, now)))
            case "as_needed":
                let at = try instant("taken_at")
                if at > now.addingTimeInterval(60) { throw fail("taken_at: \(field("taken_at")) is in the future") }
                plan.doses.append(.init(name: name, kind: .taken, slot: .asNeeded, at: at, overLimit: try flag("over_limit", absent: false)))
            case "missed":
                plan.recordMissed(name, at: ISO8601.parse(field("scheduled")).map { min($0, now) })
            case "upcoming", "due", "late":
                break
            default:
                throw fail("status: unknown status '\(status)' (expected taken, taken_early, taken_late, skipped, missed, "
                    + "as_needed, upcoming, due or late)")
            }
            let key = Medication.nameKey(name)
            let dosedOn = plan.doses.count > before && plan.doses[before].slot == .asNeeded ? zone.date(of: plan.doses[before].at) : day
            if let seen = firstDay[key] { firstDay[key] = (seen.name, min(seen.day, day, dosedOn)) } else { firstDay[key] = (name, min(day, dosedOn)) }
        }
        // Every name, with what to add when dosebar does not know it: an as-needed medicine from its first day.
        for (_, first) in firstDay.sorted(by: { $0.value.day == $1.value.day ? $0.key < $1.key : $0.value.day < $1.value.day }) {
            let start = min(first.day, context.today)
            let schedule = Schedule(recurrence: .asNeeded(maxPerDay: nil, minInterval: nil), times: [], start: start)
            plan.medicines.append(.init(name: first.name, template: Medication(id: 0, name: first.name,
                                                                                versions: [ScheduleVersion(effective: start, schedule: schedule)]),
                                        origin: .unknownName))
        }
        return plan
    }

    /// One record of the file with the line it starts on.
    struct Record {
        var line: Int
        var fields: [String]
    }

    /// RFC 4180 records: fields separated by commas, records by CRLF or LF; a quoted field may hold
    /// commas, doubled quotes and line breaks.
    static func records(_ text: String, file: String, progress: WorkProgress = .silent) throws -> [Record] {
        var out: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1, start = 1
        var quoted = false, wasQuoted = false
        var chars = Array(text.unicodeScalars)[...]
        func endField() { fields.append(field); field = ""; wasQuoted = false }
        func endRecord() { endField(); out.append(Record(line: start, fields: fields)); fields = []; progress.step(line) }
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true; wasQuoted = true
            case "\"":
                throw DosebarError.badData("\(file): line \(line): a quote inside a field that does not start with one")
            case ",":
                endField()
            case "\r" where chars.first == "\n":
                break
            case "\n", "\r":
                endRecord(); line += 1; start = line
            default:
                if wasQuoted { throw DosebarError.badData("\(file): line \(line): text after a closing quote") }
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw DosebarError.badData("\(file): line \(start): a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { endRecord() }
        return out
    }
}
