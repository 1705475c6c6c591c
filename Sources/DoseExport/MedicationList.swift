import DoseCore
import Foundation

/// `dosebar list`: the medicines as a table with lines under each row, or as JSON
/// (`list --json`: [{id, name, dose, group, schedule, schedule_text, times, stock, per_dose,
/// per_dose_times, …}]; `per_dose_times`: `[{time, per_dose}]` when the amount differs by time,
/// else null; `per_dose` is then the earliest time's).
/// Pure: medicines in, text out.
public enum MedicationList {
    /// `list --json`: one object per medicine, keys sorted.
    public static func json(_ medications: [Medication], today: LocalDate, zone: Zone) throws -> String {
        let rows = medications.map { row(Listing($0, today: today), today: today, zone: zone) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// `list`: the table (fits 80 columns) with the lines under each row; "no medicines" when empty.
    public static func lines(_ medications: [Medication], today: LocalDate, catalog c: Catalog) -> [String] {
        let listings = medications.map { Listing($0, today: today) }
        if listings.isEmpty { return [c.text("cli.no_medicines")] }
        // The group, the as-needed limits and the rest go on the lines under the row: the row fits 80 columns.
        let header = ["name", "dose", "schedule", "times", "stock"].map { c.text("cli.column." + $0) }
        var table = [header]
        var details: [[String]] = [[]]
        for l in listings {
            let m = l.medication, s = l.shown?.schedule
            let name = l.archived ? c.text("cli.archived_mark", ["name": m.name]) : m.name
            let schedule = l.ended ? c.text("list.ended", ["date": s?.until?.description ?? ""])
                : s.map { $0.recurrence.isAsNeeded ? c.text("schedule.as_needed") : c.describe($0) } ?? ""
            table.append([name, m.dose ?? "", schedule, s?.times.map(\.description).joined(separator: ",") ?? "",
                          m.stock?.description ?? ""])
            details.append(detailLines(l, c, today: today))
        }
        var out: [String] = []
        for (line, more) in zip(TextTable.render(table), details) {
            out.append(line)
            for d in more { out.append("  " + fit(d, columns: 78)) }
        }
        return out
    }

    /// One medicine of `list --json`. `schedule` is the schedule in force today (else the newest) as
    /// data, `schedule_text` the same in words; `pending` the changes already made for days to come.
    struct Row: Encodable {
        var id: Int64
        var name: String
        var dose: String?
        var group: String?
        var note: String?
        var schedule: ScheduleData
        var schedule_text: String
        var times: [String]
        var stock: Amount?
        var per_dose: Amount
        /// The amount of each time when they differ (`--per-dose 0.5,1`); null: `per_dose` for all.
        var per_dose_times: [PerTime]?
        var low_days: Int
        var archived: Bool
        /// The course ended before today (its `until` is past and no change is pending).
        var ended: Bool
        var pending: [Pending]
        /// ISO-8601 with the local offset; null: tracked from its first schedule day.
        var tracked_from: String?
        /// Reminders critical from the first (`--urgent`).
        var urgent: Bool
        /// Minutes between repeated reminders (`--repeat`); 0: never; null: the configuration's `[notify] repeat`.
        var repeat_minutes: Int?
        /// Today in a cycle schedule: its phase, day and length, the first day of the next phase (null
        /// when the course ends first); all null when not in a cycle today.
        var cycle_phase: String?
        var cycle_day: Int?
        var cycle_length: Int?
        var cycle_next: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
            try c.encode(dose, forKey: .dose); try c.encode(group, forKey: .group); try c.encode(note, forKey: .note)
            try c.encode(schedule, forKey: .schedule); try c.encode(schedule_text, forKey: .schedule_text)
            try c.encode(times, forKey: .times)
            try c.encode(stock, forKey: .stock); try c.encode(per_dose, forKey: .per_dose); try c.encode(low_days, forKey: .low_days)
            try c.encode(per_dose_times, forKey: .per_dose_times)
            try c.encode(archived, forKey: .archived); try c.encode(ended, forKey: .ended); try c.encode(pending, forKey: .pending)
            try c.encode(tracked_from, forKey: .tracked_from)
            try c.encode(urgent, forKey: .urgent); try c.encode(repeat_minutes, forKey: .repeat_minutes)
            try c.encode(cycle_phase, forKey: .cycle_phase); try c.encode(cycle_day, forKey: .cycle_day)
            try c.encode(cycle_length, forKey: .cycle_length); try c.encode(cycle_next, forKey: .cycle_next)
        }
        enum CodingKeys: String, CodingKey {
            case id, name, dose, group, note, schedule, schedule_text, times, stock, per_dose, low_days, archived, ended, pending
            case tracked_from, urgent, repeat_minutes, cycle_phase, cycle_day, cycle_length, cycle_next
            case per_dose_times
        }
    }

    /// One time's amount in `per_dose_times`.
    struct PerTime: Encodable {
        var time: String
        var per_dose: Amount

        /// The list of `dosing`, nil when one amount is every time's.
        static func list(_ dosing: Dosing) -> [PerTime]? {
            dosing.perTime?.map { PerTime(time: $0.time.description, per_dose: $0.amount) }
        }
    }

    /// A schedule or dose change that takes effect on a day to come (`edit --effective`), with
    /// the dose text and amount from that day on.
    struct Pending: Encodable {
        var effective: String
        var schedule: ScheduleData
        var schedule_text: String
        var dose: String?
        var per_dose: Amount
        var per_dose_times: [PerTime]?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(effective, forKey: .effective); try c.encode(schedule, forKey: .schedule)
            try c.encode(schedule_text, forKey: .schedule_text)
            try c.encode(dose, forKey: .dose); try c.encode(per_dose, forKey: .per_dose)
            try c.encode(per_dose_times, forKey: .per_dose_times)
        }
        enum CodingKeys: String, CodingKey { case effective, schedule, schedule_text, dose, per_dose, per_dose_times }
    }

    /// A schedule version as data: `kind` (daily, weekdays, every_days, every_weeks, every_months,
    /// cycle, as_needed) and the fields of that kind (null when they do not apply).
    struct ScheduleData: Encodable {
        var schedule: Schedule
        var effective: LocalDate

        enum CodingKeys: String, CodingKey {
            case kind, times, days, every, cycle, as_needed, max_per_day, min_interval_seconds, window_seconds, from, until, effective
            case keep_zone
        }
        enum CycleKeys: String, CodingKey { case active, rest }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            var days: [String]?, every: Int?, cycle: (Int, Int)?, maxPerDay: Int?, minInterval: Int?
            let kind: String
            switch schedule.recurrence {
            case .daily: kind = "daily"
            case .weekdays(let d): kind = "weekdays"; days = d.sorted().map(\.code)
            case .everyDays(let n): kind = "every_days"; every = n
            case .everyWeeks(let n): kind = "every_weeks"; every = n
            case .everyMonths(let n): kind = "every_months"; every = n
            case .cycle(let a, let r): kind = "cycle"; cycle = (a, r)
            case .asNeeded(let max, let gap): kind = "as_needed"; maxPerDay = max; minInterval = gap
            }
            try c.encode(kind, forKey: .kind)
            try c.encode(schedule.times.map(\.description), forKey: .times)
            try c.encode(days, forKey: .days); try c.encode(every, forKey: .every)
            if let cycle {
                var n = c.nestedContainer(keyedBy: CycleKeys.self, forKey: .cycle)
                try n.encode(cycle.0, forKey: .active); try n.encode(cycle.1, forKey: .rest)
            } else {
                try c.encodeNil(forKey: .cycle)
            }
            try c.encode(schedule.recurrence.isAsNeeded, forKey: .as_needed)
            try c.encode(maxPerDay, forKey: .max_per_day); try c.encode(minInterval, forKey: .min_interval_seconds)
            try c.encode(schedule.window, forKey: .window_seconds)
            try c.encode(schedule.start.description, forKey: .from); try c.encode(schedule.until?.description, forKey: .until)
            try c.encode(effective.description, forKey: .effective)
            try c.encode(schedule.keepZone?.identifier, forKey: .keep_zone)
        }
    }

    /// What `list` says of one medicine: the version shown, the changes to come, whether its course ended.
    struct Listing {
        /// The medicine with the dose of the version shown.
        var medication: Medication
        /// As stored: every version's dose.
        var original: Medication
        var shown: ScheduleVersion?
        var pending: [ScheduleVersion]
        var archived: Bool
        var ended: Bool
        /// Today's place in a cycle and what follows it; nil when not in a cycle today.
        var cycle: (position: CyclePosition, turn: CycleTurn)?

        init(_ m: Medication, today: LocalDate) {
            let archived = m.archivedOn.map { $0 <= today } ?? false
            // In force today; before the first day, the first; once archived, the newest.
            let shown = m.versions.last { $0.effective <= today && !archived } ?? (archived ? m.versions.last : m.versions.first)
            let pending = archived ? [] : m.versions.filter { $0.effective > today && $0.effective != shown?.effective }
            // The dose shown is the one in force on the version shown (today's, as a rule).
            let day = archived ? (m.archivedOn ?? today).adding(days: -1) : max(today, shown?.effective ?? today)
            medication = m.on(day)
            original = m
            self.archived = archived
            self.shown = shown
            self.pending = pending
            ended = pending.isEmpty && (shown?.schedule.until.map { $0 < today } ?? false)
            // The schedule in force today (none once archived).
            if let s = m.schedule(on: today), let position = s.cyclePosition(on: today), let turn = s.cycleTurn(after: today) {
                cycle = (position, turn)
            }
        }
    }

    /// The JSON row of a listing.
    static func row(_ l: Listing, today: LocalDate, zone: Zone) -> Row {
        let m = l.medication
        let s = l.shown?.schedule ?? Schedule(recurrence: .daily, times: [], start: today)
        return Row(id: m.id, name: m.name, dose: m.dose, group: m.group, note: m.note,
                   schedule: ScheduleData(schedule: s, effective: l.shown?.effective ?? s.start),
                   schedule_text: s.summary, times: s.times.map(\.description), stock: m.stock, per_dose: m.perDose,
                   per_dose_times: PerTime.list(Dosing(text: m.dose, perDose: m.perDose, perTime: m.perDoseTimes)),
                   low_days: m.lowDays, archived: l.archived, ended: l.ended,
                   pending: l.pending.map { Pending(effective: $0.effective.description,
                                                    schedule: ScheduleData(schedule: $0.schedule, effective: $0.effective),
                                                    schedule_text: $0.schedule.summary,
                                                    dose: l.original.dosing(on: $0.effective).text,
                                                    per_dose: l.original.dosing(on: $0.effective).perDose,
                                                    per_dose_times: PerTime.list(l.original.dosing(on: $0.effective))) },
                   tracked_from: m.trackedFrom.map { ISO8601.format($0, offset: zone.offset(at: $0)) },
                   urgent: m.urgent, repeat_minutes: m.repeatMinutes,
                   cycle_phase: l.cycle?.position.phase.rawValue, cycle_day: l.cycle?.position.day,
                   cycle_length: l.cycle?.position.length, cycle_next: l.cycle?.turn.nextPhaseStart?.description)
    }

    /// The lines under a medicine's row: its course, window (as-needed limits), per dose and group; each change to come
    /// (`from 2026-12-01: 09:00`); its note.
    static func detailLines(_ l: Listing, _ c: Catalog, today: LocalDate) -> [String] {
        guard let s = l.shown?.schedule else { return [] }
        let m = l.medication
        var parts: [String] = []
        let from = s.start.description
        if let until = s.until {
            parts.append(c.text("list.course", ["from": from, "until": until.description]))
        } else {
            parts.append(c.text(s.start > today ? "list.course.starts" : "list.course.open", ["from": from]))
        }
        if l.ended { parts.append(c.describe(s)) }
        // Dates as the course above writes them.
        if let cycle = l.cycle { parts.append(c.cycleDay(cycle.position, then: cycle.turn, date: { $0.description })) }
        if case .asNeeded(let max, let gap) = s.recurrence {
            if let max { parts.append(c.text("schedule.max_per_day", ["n": String(max)])) }
            if let gap { parts.append(c.text("schedule.min_interval", ["interval": c.minutes(gap / 60)])) }
        } else {
            parts.append(c.text("list.window", ["window": c.minutes(s.window / 60)]))
        }
        if let kept = s.keepZone { parts.append(c.text("list.keep_zone", ["zone": kept.identifier])) }
        let dosingShown = Dosing(text: m.dose, perDose: m.perDose, perTime: m.perDoseTimes)
        if m.stock != nil || m.perDose != 1 || m.perDoseTimes != nil { parts.append(c.text("list.per_dose", ["amount": c.amounts(dosingShown)])) }
        if let group = m.group { parts.append(c.text("list.group", ["group": group])) }
        if m.urgent { parts.append(c.text("list.urgent")) }
        if let minutes = m.repeatMinutes {
            parts.append(minutes > 0 ? c.text("list.repeat", ["interval": c.minutes(minutes)]) : c.text("list.repeat_off"))
        }
        var lines = [parts.joined(separator: " · ")]
        var dosing = dosingShown
        for v in l.pending {
            let times = v.schedule.times.map(\.description).joined(separator: ",")
            var what = v.schedule.recurrence == s.recurrence && !times.isEmpty ? times
                : [c.describe(v.schedule), times].filter { !$0.isEmpty }.joined(separator: " ")
            // A new dose from that day on, said with the schedule.
            let next = l.original.dosing(on: v.effective)
            if next != dosing {
                var dose: [String] = []
                if next.text != dosing.text { dose.append(c.text("list.pending_dose", ["dose": next.text ?? "-"])) }
                if next.perDose != dosing.perDose || next.perTime != dosing.perTime {
                    dose.append(c.text("list.pending_units", ["amount": c.amounts(next)]))
                }
                what += " · " + dose.joined(separator: " · ")
                dosing = next
            }
            lines.append(c.text("list.pending", ["date": v.effective.description, "schedule": what]))
        }
        if let note = m.note, !note.isEmpty { lines.append(c.text("list.note", ["note": note])) }
        return lines
    }

    /// `text` cut to `columns` terminal columns, with `…` where it was cut.
    static func fit(_ text: String, columns: Int) -> String {
        guard TextTable.width(text) > columns else { return text }
        var out = ""
        for ch in text {
            if TextTable.width(out + String(ch)) > columns - 1 { break }
            out.append(ch)
        }
        return out + "…"
    }
}
