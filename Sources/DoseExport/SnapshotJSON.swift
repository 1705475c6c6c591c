import DoseCore
import Foundation

/// The JSON of a snapshot (DESIGN §4, schema 1), with the exact snake_case field names of
/// `schema/snapshot.schema.json`: `snapshot.json`, `dosebar today --json`, `status --format json`.
/// Optional values are written as `null` (the key is always present); instants are
/// ISO-8601 with the local offset; no floating-point numbers. The field writers are shared
/// with `TimelineJSON`, whose entries carry the same fields.
public enum SnapshotJSON {
    /// One snapshot as compact JSON on one line (no trailing newline).
    public static func snapshot(_ snapshot: Snapshot) -> String {
        object(snapshot).text
    }

    /// The snapshot as a JSON value (for callers that embed it in a larger document).
    public static func object(_ snapshot: Snapshot) -> JSONValue {
        JSONValue.object { fill($0, snapshot) }
    }

    /// Every field in contract order.
    static func fill(_ o: JSONObjectBuilder, _ s: Snapshot) {
        o.set("schema", Snapshot.schema)
        o.set("at", s.at.iso8601)
        o.set("valid_until", s.validUntil.iso8601)
        o.set("day", s.day.description)
        o.set("timezone", s.timezone)
        o.set("state", s.state.rawValue)
        o.setObject("counts") { fillCounts($0, s.counts) }
        o.set("progress", s.progress)
        o.setArray("doses") { a in
            for dose in s.doses { a.appendObject { fillDose($0, dose) } }
        }
        o.setArray("as_needed") { fillAsNeeded($0, s.asNeeded) }
        setNext(o, s.next)
        o.setObject("streak") { fillStreak($0, s.streak) }
        o.setObject("adherence") { fillAdherence($0, s.adherence) }
        o.setArray("stock") { fillStock($0, s.stock) }
        o.setArray("cycle") { fillCycle($0, s.cycle) }
        o.setArray("week") { fillWeek($0, s.week) }
        o.setObject("message") { fillMessage($0, s.message) }
        o.setArray("messages") { a in
            for message in s.messages { a.appendObject { fillMessage($0, message) } }
        }
        o.set("text", s.text)
        o.set("tooltip", s.tooltip)
    }

    /// `counts`.
    static func fillCounts(_ c: JSONObjectBuilder, _ counts: Snapshot.Counts) {
        c.set("total", counts.total)
        c.set("taken", counts.taken)
        c.set("skipped", counts.skipped)
        c.set("due", counts.due)
        c.set("late", counts.late)
        c.set("missed", counts.missed)
        c.set("upcoming", counts.upcoming)
        c.set("carried", counts.carried)
    }

    /// The items of `as_needed`.
    static func fillAsNeeded(_ a: JSONArrayBuilder, _ items: [Snapshot.AsNeeded]) {
        for item in items {
            a.appendObject { d in
                d.set("medication", item.medication)
                d.set("taken_today", item.takenToday)
                d.set("max_per_day", item.maxPerDay)
                d.set("next_allowed", item.nextAllowed?.iso8601)
                d.set("text", item.text)
            }
        }
    }

    /// `next`: an object, or `null` when nothing is next today.
    static func setNext(_ o: JSONObjectBuilder, _ next: Snapshot.Next?) {
        if let next {
            o.setObject("next") { n in
                n.set("medication", next.medication)
                n.set("scheduled", next.scheduled.iso8601)
            }
        } else {
            o.setNull("next")
        }
    }

    /// `streak`.
    static func fillStreak(_ st: JSONObjectBuilder, _ streak: Snapshot.Streak) {
        st.set("current", streak.current)
        st.set("best", streak.best)
        st.set("today", streak.today.rawValue)
    }

    /// `adherence`.
    static func fillAdherence(_ ad: JSONObjectBuilder, _ adherence: Snapshot.Adherence) {
        ad.set("days7", adherence.days7)
        ad.set("days30", adherence.days30)
        ad.set("on_time", adherence.onTime)
    }

    /// The items of `stock`.
    static func fillStock(_ a: JSONArrayBuilder, _ items: [Snapshot.Stock]) {
        for item in items {
            a.appendObject { st in
                st.set("medication", item.medication)
                st.set("remaining", item.remaining)
                st.set("days_left", item.daysLeft)
                st.set("low", item.low)
            }
        }
    }

    /// The items of `cycle`.
    static func fillCycle(_ a: JSONArrayBuilder, _ items: [Snapshot.Cycle]) {
        for item in items {
            a.appendObject { c in
                c.set("medication", item.medication)
                c.set("phase", item.phase.rawValue)
                c.set("day", item.day)
                c.set("length", item.length)
                c.set("next", item.next?.description)
                c.set("text", item.text)
            }
        }
    }

    /// The items of `week` (also the top-level `week` of the timeline: the days before today).
    static func fillWeek(_ a: JSONArrayBuilder, _ days: some Sequence<Snapshot.WeekDay>) {
        for day in days {
            a.appendObject { d in
                d.set("day", day.day.description)
                d.set("state", day.state.rawValue)
            }
        }
    }

    /// A dose's slot fields (also the start of each of the timeline's `slots`).
    static func fillSlot(_ d: JSONObjectBuilder, _ dose: Snapshot.Dose) {
        d.set("medication", dose.medication)
        d.set("medication_id", Int(dose.medicationID))
        d.set("dose", dose.dose)
        d.set("group", dose.group)
        d.set("day", dose.day.description)
        d.set("scheduled", dose.scheduled.iso8601)
    }

    /// A whole dose of `doses`: its slot, then how it stands.
    static func fillDose(_ d: JSONObjectBuilder, _ dose: Snapshot.Dose) {
        fillSlot(d, dose)
        d.set("status", dose.status.rawValue)
        d.set("taken_at", dose.takenAt?.iso8601)
        d.set("time_known", dose.timeKnown)
        d.set("late_minutes", dose.lateMinutes)
    }

    /// A `message` (also each of `messages`).
    static func fillMessage(_ m: JSONObjectBuilder, _ message: RenderedMessage) {
        m.set("id", message.id)
        m.set("severity", message.severity.rawValue)
        m.set("text", message.text)
    }
}
