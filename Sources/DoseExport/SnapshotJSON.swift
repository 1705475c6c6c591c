import DoseCore
import Foundation

/// The JSON of DESIGN §4: a snapshot (schema 1) and a day's timeline, with the exact
/// snake_case field names of `schema/snapshot.schema.json` and `schema/timeline.schema.json`.
/// Optional values are written as `null` (the key is always present); instants are
/// ISO-8601 with the local offset; no floating-point numbers.
public enum SnapshotJSON {
    /// One snapshot as compact JSON on one line (no trailing newline).
    public static func snapshot(_ snapshot: Snapshot) -> String {
        object(snapshot).text
    }

    /// A timeline as compact JSON on one line (no trailing newline):
    /// `{schema, generated_at, day, timezone, reload_at, entries:[snapshot…]}`.
    public static func timeline(_ timeline: Timeline) -> String {
        object(timeline).text
    }

    /// The snapshot as a json-c tree (for callers that embed it in a larger document).
    public static func object(_ snapshot: Snapshot) -> JSONValue {
        var doses = DoseListJSON()
        return JSONValue.object { fill($0, snapshot, doses: &doses) }
    }

    /// The timeline as a json-c tree.
    public static func object(_ timeline: Timeline) -> JSONValue {
        var doses = DoseListJSON()
        return JSONValue.object { o in
            o.set("schema", Timeline.schema)
            o.set("generated_at", timeline.generatedAt.iso8601)
            o.set("day", timeline.day.description)
            o.set("timezone", timeline.timezone)
            o.set("reload_at", timeline.reloadAt.iso8601)
            o.setArray("entries") { a in
                for entry in timeline.entries {
                    a.appendObject { fill($0, entry, doses: &doses) }
                }
            }
        }
    }

    /// The snapshot built as plain json-c objects, dose by dose: the reference the fast
    /// dose-list path must match byte for byte (tests compare the two).
    static func referenceObject(_ snapshot: Snapshot) -> JSONValue {
        JSONValue.object { o in
            fill(o, snapshot) { o in
                o.setArray("doses") { a in
                    for dose in snapshot.doses { a.appendObject { fillDose($0, dose) } }
                }
            }
        }
    }

    private static func fill(_ o: JSONObjectBuilder, _ s: Snapshot, doses: inout DoseListJSON) {
        fill(o, s) { $0.setRaw("doses", json: doses.render(s.doses)) }
    }

    /// Every field in contract order; `setDoses` writes the `doses` array.
    private static func fill(_ o: JSONObjectBuilder, _ s: Snapshot, setDoses: (JSONObjectBuilder) -> Void) {
        o.set("schema", Snapshot.schema)
        o.set("at", s.at.iso8601)
        o.set("valid_until", s.validUntil.iso8601)
        o.set("day", s.day.description)
        o.set("timezone", s.timezone)
        o.set("state", s.state.rawValue)
        o.setObject("counts") { c in
            c.set("total", s.counts.total)
            c.set("taken", s.counts.taken)
            c.set("skipped", s.counts.skipped)
            c.set("due", s.counts.due)
            c.set("late", s.counts.late)
            c.set("missed", s.counts.missed)
            c.set("upcoming", s.counts.upcoming)
        }
        o.set("progress", s.progress)
        setDoses(o)
        o.setArray("as_needed") { a in
            for item in s.asNeeded {
                a.appendObject { d in
                    d.set("medication", item.medication)
                    d.set("taken_today", item.takenToday)
                    d.set("max_per_day", item.maxPerDay)
                    d.set("next_allowed", item.nextAllowed?.iso8601)
                    d.set("text", item.text)
                }
            }
        }
        if let next = s.next {
            o.setObject("next") { n in
                n.set("medication", next.medication)
                n.set("scheduled", next.scheduled.iso8601)
            }
        } else {
            o.setNull("next")
        }
        o.setObject("streak") { st in
            st.set("current", s.streak.current)
            st.set("best", s.streak.best)
            st.set("today", s.streak.today.rawValue)
        }
        o.setObject("adherence") { ad in
            ad.set("days7", s.adherence.days7)
            ad.set("days30", s.adherence.days30)
            ad.set("on_time", s.adherence.onTime)
        }
        o.setArray("stock") { a in
            for item in s.stock {
                a.appendObject { st in
                    st.set("medication", item.medication)
                    st.set("remaining", item.remaining)
                    st.set("days_left", item.daysLeft)
                    st.set("low", item.low)
                }
            }
        }
        o.setArray("cycle") { a in
            for item in s.cycle {
                a.appendObject { c in
                    c.set("medication", item.medication)
                    c.set("phase", item.phase.rawValue)
                    c.set("day", item.day)
                    c.set("length", item.length)
                }
            }
        }
        o.setObject("message") { fillMessage($0, s.message) }
        o.setArray("messages") { a in
            for message in s.messages { a.appendObject { fillMessage($0, message) } }
        }
        o.set("text", s.text)
        o.set("tooltip", s.tooltip)
    }

    private static func fillDose(_ d: JSONObjectBuilder, _ dose: Snapshot.Dose) {
        d.set("medication", dose.medication)
        d.set("medication_id", Int(dose.medicationID))
        d.set("dose", dose.dose)
        d.set("group", dose.group)
        d.set("scheduled", dose.scheduled.iso8601)
        d.set("status", dose.status.rawValue)
        d.set("taken_at", dose.takenAt?.iso8601)
        d.set("late_minutes", dose.lateMinutes)
    }

    private static func fillMessage(_ m: JSONObjectBuilder, _ message: RenderedMessage) {
        m.set("id", message.id)
        m.set("severity", message.severity.rawValue)
        m.set("text", message.text)
    }
}
