import DoseCore
import Foundation

/// `history --json`, `stats --json` and `report --format json|csv` (DESIGN §2, §3 Reports):
/// the same records and figures, written by one set of functions so they cannot disagree.
public enum HistoryJSON {
    /// `[{day, state, total, taken, on_time, late, early, skipped, missed}]`, and `duplicates` on a
    /// day with doses of a slot another device's earlier dose resolved, `double_dose` on a day with
    /// slots taken on two devices (DESIGN §10; each only then, so history without sync reads as before).
    public static func days(_ records: [DayRecord], duplicates: [LocalDate: Int] = [:], doubleDoses: [LocalDate: Int] = [:]) -> String {
        JSONValue.array { a in
            for r in records {
                a.appendObject { o in
                    day(o, r)
                    if let n = duplicates[r.day], n > 0 { o.set("duplicates", n) }
                    if let n = doubleDoses[r.day], n > 0 { o.set("double_dose", n) }
                }
            }
        }.text
    }

    /// One medicine or the whole, over two periods: what `stats` says.
    public struct Stats {
        public var days: Int
        public var from: LocalDate
        public var to: LocalDate
        public var overall: Figures
        public var previous: Figures
        public var medications: [(name: String, mostLateSlot: LocalTime?, figures: Figures, previous: Figures)]

        public init(days: Int, from: LocalDate, to: LocalDate, overall: Figures, previous: Figures,
                    medications: [(name: String, mostLateSlot: LocalTime?, figures: Figures, previous: Figures)]) {
            self.days = days; self.from = from; self.to = to; self.overall = overall; self.previous = previous
            self.medications = medications
        }
    }

    /// `{days, from, to, overall: F, previous: F, medications: [{name, most_late_slot, …F, previous: F}]}`.
    public static func stats(_ s: Stats) -> String {
        JSONValue.object { o in
            o.set("days", s.days)
            o.set("from", s.from.description)
            o.set("to", s.to.description)
            o.setObject("overall") { figures($0, s.overall) }
            o.setObject("previous") { figures($0, s.previous) }
            o.setArray("medications") { a in
                for m in s.medications {
                    a.appendObject { o in
                        o.set("name", m.name)
                        o.set("most_late_slot", m.mostLateSlot?.description)
                        figures(o, m.figures)
                        o.setObject("previous") { figures($0, m.previous) }
                    }
                }
            }
        }.text
    }

    /// `{from, to, timezone, medications:[{name, dose, schedule, adherence, on_time, taken, late, early,
    /// skipped, missed, as_needed}], days:[…], slots:[…the CSV rows as objects…], zone_changes:[{at, from, to}]}`.
    public static func report(_ r: Report, catalog: Catalog) -> String {
        JSONValue.object { o in
            o.set("from", r.from.description)
            o.set("to", r.to.description)
            o.set("timezone", r.timezone)
            o.setArray("medications") { a in
                for line in r.lines {
                    a.appendObject { o in
                        o.set("name", line.medication.name)
                        o.set("dose", line.medication.dose)
                        o.set("schedule", ReportCSV.schedule(line.schedule, catalog: catalog))
                        o.set("adherence", line.figures.adherence)
                        o.set("on_time", line.figures.onTimePercent)
                        o.set("taken", line.figures.taken)
                        o.set("late", line.figures.late)
                        o.set("early", line.figures.early)
                        o.set("skipped", line.figures.skipped)
                        o.set("missed", line.figures.missed)
                        o.set("as_needed", line.asNeeded)
                        o.set("mean_late_minutes", line.figures.meanLateMinutes)
                    }
                }
            }
            o.setArray("days") { a in for d in r.days { a.appendObject { day($0, d) } } }
            o.setArray("slots") { a in
                for row in ReportCSV.rows(r) {
                    a.appendObject { o in
                        o.set("date", row.date)
                        o.set("scheduled", row.scheduled)
                        o.set("medication", row.medication)
                        o.set("dose", row.dose)
                        o.set("status", row.status)
                        o.set("taken_at", row.takenAt)
                        o.set("late_minutes", row.lateMinutes)
                        if row.timeUnknown { o.set("time_unknown", true) }
                        o.set("over_limit", row.overLimit)
                        o.set("decided_after_close", row.decidedAfterClose)
                        o.set("origin", row.origin)
                        o.set("double_dose", row.doubleDose)
                    }
                }
            }
            o.setArray("zone_changes") { a in
                for move in r.zoneChanges {
                    a.appendObject { o in
                        o.set("at", move.at.iso8601)
                        o.set("from", move.from)
                        o.set("to", move.to)
                    }
                }
            }
        }.text
    }

    private static func day(_ o: JSONObjectBuilder, _ r: DayRecord) {
        o.set("day", r.day.description)
        o.set("state", r.state.rawValue)
        o.set("total", r.total)
        o.set("taken", r.taken)
        o.set("on_time", r.onTime)
        o.set("late", r.late)
        o.set("early", r.early)
        o.set("skipped", r.skipped)
        o.set("missed", r.missed)
        // Only when there is one, so history without imported doses reads as before.
        if r.timeUnknown > 0 { o.set("time_unknown", r.timeUnknown) }
        // Likewise: as-needed doses forced beyond a limit (DESIGN §2), only on a day that has one.
        if r.overLimit > 0 { o.set("over_limit", r.overLimit) }
        // Likewise: doses skipped after they had closed as missed (DESIGN §2 `skip --slot`), among `skipped`.
        if r.decidedAfterClose > 0 { o.set("decided_after_close", r.decidedAfterClose) }
    }

    /// F = {adherence, on_time, taken, late, early, skipped, missed, mean_late_minutes}; percent as in §3 Adherence.
    private static func figures(_ o: JSONObjectBuilder, _ f: Figures) {
        o.set("adherence", f.adherence)
        o.set("on_time", f.onTimePercent)
        o.set("taken", f.taken)
        o.set("late", f.late)
        o.set("early", f.early)
        o.set("skipped", f.skipped)
        o.set("missed", f.missed)
        o.set("mean_late_minutes", f.meanLateMinutes)
    }
}
