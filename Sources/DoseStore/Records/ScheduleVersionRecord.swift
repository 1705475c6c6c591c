import DoseCore
import Foundation
import GRDB

/// One row of `schedule_version`: a schedule in force for a medicine from `effective` on.
///
/// The recurrence is stored in its flat form (`Recurrence.Flat`, DoseCore: the table of kinds is
/// there): `kind`, `param_a`, `param_b`, and the weekdays as `weekday_mask` (bit 0 = Monday).
struct ScheduleVersionRecord: Codable, PersistableRecord {
    static let databaseTableName = "schedule_version"

    enum CodingKeys: String, CodingKey {
        case medicationID = "medication_id", effective, kind, paramA = "param_a", paramB = "param_b"
        case weekdayMask = "weekday_mask", times, window = "window_seconds", start = "start_day", until = "until_day"
        case dose, perDose = "per_dose", keepZone = "keep_zone", perDoseTimes = "per_dose_times"
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
    /// The dose text from `effective` on (migration v14-dose-versions); meaningful only with `perDose`.
    var dose: String?
    /// Hundredths of a unit; nil: the version has no dose of its own (the medicine's applies).
    var perDose: Int?
    /// The zone the times stay in (migration v17-keep-zone); nil: the person's clock.
    var keepZone: String?
    /// The amount of each time, `PerTimeDose.text` (migration v19-per-time-dose); nil: `perDose` for all.
    var perDoseTimes: String?

    init(medicationID: Int64, _ v: ScheduleVersion) {
        self.medicationID = medicationID
        effective = v.effective.dayNumber
        let s = v.schedule
        let flat = s.recurrence.flat
        kind = flat.kind
        paramA = flat.a
        paramB = flat.b
        weekdayMask = flat.weekdays.reduce(0) { $0 | 1 << ($1.rawValue - 1) }
        times = s.times.map(\.description).joined(separator: ",")
        window = s.window
        start = s.start.dayNumber
        until = s.until?.dayNumber
        dose = v.dosing?.text
        perDose = v.dosing?.perDose.hundredths
        keepZone = s.keepZone?.identifier
        perDoseTimes = v.dosing?.perTime.map(PerTimeDose.text)
    }

    /// The columns `init(indexed:)` reads, in its order (the queries of ``StoreReader``).
    static let indexedColumns = "v.medication_id, v.effective, v.kind, v.param_a, v.param_b, v.weekday_mask, v.times, v.window_seconds, v.start_day, v.until_day, v.dose, v.per_dose, v.keep_zone, v.per_dose_times"

    /// A row of `indexedColumns`, read by position (see ``MedicationRecord/init(indexed:)``).
    init(indexed row: Row) throws {
        medicationID = try row.decode(atIndex: 0)
        effective = try row.decode(atIndex: 1)
        kind = try row.decode(atIndex: 2)
        paramA = try row.decode(atIndex: 3)
        paramB = try row.decode(atIndex: 4)
        weekdayMask = try row.decode(atIndex: 5)
        times = try row.decode(atIndex: 6)
        window = try row.decode(atIndex: 7)
        start = try row.decode(atIndex: 8)
        until = try row.decode(atIndex: 9)
        dose = try row.decode(atIndex: 10)
        perDose = try row.decode(atIndex: 11)
        keepZone = try row.decode(atIndex: 12)
        perDoseTimes = try row.decode(atIndex: 13)
    }

    /// The domain value; throws `badData` for a row this version of dosebar cannot understand.
    func scheduleVersion() throws -> ScheduleVersion {
        func invalid(_ what: String) -> DosebarError {
            .badData("medicine #\(medicationID) has an unreadable schedule (\(what)); "
                + "it was written by a newer or broken dosebar — restore a backup or re-add the medicine")
        }
        let recurrence: Recurrence
        do {
            let days = Set(Weekday.allCases.filter { weekdayMask & (1 << ($0.rawValue - 1)) != 0 })
            recurrence = try Recurrence(flat: .init(kind: kind, a: paramA, b: paramB, weekdays: days))
        } catch {
            throw invalid(error.description)
        }
        var parsed: [LocalTime] = []
        if !times.isEmpty {
            // Split as bytes: by Character it cost half of reading the medicines.
            for bytes in times.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let text = String(decoding: bytes, as: UTF8.self)
                guard let t = LocalTime(text) else { throw invalid("time '\(text)'") }
                parsed.append(t)
            }
        }
        var kept: TimeZone?
        if let keepZone {
            guard FieldRules.isZoneName(keepZone), let tz = TimeZone(identifier: keepZone) else { throw invalid("zone '\(keepZone)'") }
            kept = tz
        }
        let schedule = Schedule(recurrence: recurrence, times: parsed, window: window,
                                start: LocalDate(dayNumber: start), until: until.map(LocalDate.init(dayNumber:)), keepZone: kept)
        var perTime: [TimedAmount]?
        if let perDoseTimes {
            guard let list = PerTimeDose.parse(perDoseTimes), list.map(\.time) == schedule.times else {
                throw invalid("amounts per time '\(perDoseTimes)'")
            }
            perTime = list
        }
        return ScheduleVersion(effective: LocalDate(dayNumber: effective), schedule: schedule,
                               dosing: perDose.map { Dosing(text: dose, perDose: Amount(hundredths: $0), perTime: perTime) })
    }
}
