import DoseCore
import GRDB

/// One row of `schedule_version`: a schedule in force for a medicine from `effective` on.
///
/// The recurrence is flattened to `kind` + two integer parameters + a weekday bitmask:
///
/// | Recurrence                       | kind           | param_a    | param_b     | weekday_mask      |
/// |----------------------------------|----------------|------------|-------------|-------------------|
/// | `.daily`                         | `daily`        | NULL       | NULL        | 0                 |
/// | `.weekdays(set)`                 | `weekdays`     | NULL       | NULL        | bit 0 = Monday …  |
/// | `.everyDays(n)`                  | `every_days`   | n          | NULL        | 0                 |
/// | `.everyWeeks(n)`                 | `every_weeks`  | n          | NULL        | 0                 |
/// | `.everyMonths(n)`                | `every_months` | n          | NULL        | 0                 |
/// | `.cycle(active:rest:)`           | `cycle`        | active     | rest        | 0                 |
/// | `.asNeeded(maxPerDay:minInterval:)` | `as_needed` | maxPerDay? | minInterval? (s) | 0            |
struct ScheduleVersionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "schedule_version"

    enum CodingKeys: String, CodingKey {
        case medicationID = "medication_id", effective, kind, paramA = "param_a", paramB = "param_b"
        case weekdayMask = "weekday_mask", times, window = "window_seconds", start = "start_day", until = "until_day"
    }

    enum Columns {
        static let medicationID = Column(CodingKeys.medicationID)
        static let effective = Column(CodingKeys.effective)
    }

    var medicationID: Int64
    var effective: Int
    var kind: String
    var paramA: Int?
    var paramB: Int?
    var weekdayMask: Int
    /// `HH:MM` joined by `,`; empty for none.
    var times: String
    var window: Int
    var start: Int
    var until: Int?

    init(medicationID: Int64, _ v: ScheduleVersion) {
        self.medicationID = medicationID
        effective = v.effective.dayNumber
        let s = v.schedule
        paramA = nil
        paramB = nil
        weekdayMask = 0
        switch s.recurrence {
        case .daily:
            kind = "daily"
        case .weekdays(let days):
            kind = "weekdays"
            weekdayMask = days.reduce(0) { $0 | 1 << ($1.rawValue - 1) }
        case .everyDays(let n):
            kind = "every_days"; paramA = n
        case .everyWeeks(let n):
            kind = "every_weeks"; paramA = n
        case .everyMonths(let n):
            kind = "every_months"; paramA = n
        case .cycle(let active, let rest):
            kind = "cycle"; paramA = active; paramB = rest
        case .asNeeded(let maxPerDay, let minInterval):
            kind = "as_needed"; paramA = maxPerDay; paramB = minInterval
        }
        times = s.times.map(\.description).joined(separator: ",")
        window = s.window
        start = s.start.dayNumber
        until = s.until?.dayNumber
    }

    /// A row read by column name, not through `Codable` (see ``MedicationRecord/init(row:)``).
    init(row: Row) throws {
        typealias K = CodingKeys
        medicationID = try row.decode(forColumn: K.medicationID.rawValue)
        effective = try row.decode(forColumn: K.effective.rawValue)
        kind = try row.decode(forColumn: K.kind.rawValue)
        paramA = try row.decode(forColumn: K.paramA.rawValue)
        paramB = try row.decode(forColumn: K.paramB.rawValue)
        weekdayMask = try row.decode(forColumn: K.weekdayMask.rawValue)
        times = try row.decode(forColumn: K.times.rawValue)
        window = try row.decode(forColumn: K.window.rawValue)
        start = try row.decode(forColumn: K.start.rawValue)
        until = try row.decode(forColumn: K.until.rawValue)
    }

    /// The domain value; throws `badData` for a row this version of dosebar cannot understand.
    func scheduleVersion() throws -> ScheduleVersion {
        func invalid(_ what: String) -> DosebarError {
            .badData("medicine #\(medicationID) has an unreadable schedule (\(what)); "
                + "it was written by a newer or broken dosebar — restore a backup or re-add the medicine")
        }
        func param(_ value: Int?, _ name: String) throws -> Int {
            guard let value else { throw invalid("\(kind) without \(name)") }
            return value
        }
        let recurrence: Recurrence
        switch kind {
        case "daily": recurrence = .daily
        case "weekdays":
            recurrence = .weekdays(Set(Weekday.allCases.filter { weekdayMask & (1 << ($0.rawValue - 1)) != 0 }))
        case "every_days": recurrence = .everyDays(try param(paramA, "N"))
        case "every_weeks": recurrence = .everyWeeks(try param(paramA, "N"))
        case "every_months": recurrence = .everyMonths(try param(paramA, "N"))
        case "cycle": recurrence = .cycle(active: try param(paramA, "active"), rest: try param(paramB, "rest"))
        case "as_needed": recurrence = .asNeeded(maxPerDay: paramA, minInterval: paramB)
        default: throw invalid("kind '\(kind)'")
        }
        var parsed: [LocalTime] = []
        if !times.isEmpty {
            for text in times.split(separator: ",", omittingEmptySubsequences: false) {
                guard let t = LocalTime(String(text)) else { throw invalid("time '\(text)'") }
                parsed.append(t)
            }
        }
        let schedule = Schedule(recurrence: recurrence, times: parsed, window: window,
                                start: LocalDate(dayNumber: start), until: until.map(LocalDate.init(dayNumber:)))
        return ScheduleVersion(effective: LocalDate(dayNumber: effective), schedule: schedule)
    }
}
