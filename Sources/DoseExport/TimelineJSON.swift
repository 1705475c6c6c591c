// timeline.json — the day's timeline, schema 2 (DESIGN §4; `schema/timeline.schema.json`).
//
// Output: one line of JSON, keys in this order
//   {"schema":2, "generated_at", "day", "timezone", "reload_at",
//    "slots": [{"medication", "medication_id", "dose", "group", "scheduled"}, …],
//    "stock": […], "cycle": […], "week": [{"day", "state"}, …],
//    "words": {"status": {"upcoming", "due", "late", "missed", "taken", "taken_early",
//              "taken_late", "skipped"}, "take", "take_all", "nothing_today",
//              "week": {"line", "symbols": {"none", "rest", "done", "skipped", "missed",
//                                           "partial", "pending"}}},
//    "entries": [{"at", "valid_until", "state", "counts", "progress",
//                 "doses": [["status", "taken_at"|null, late_minutes|null], …],
//                 "as_needed", "next", "streak", "adherence", "week_today", "message", "text"}, …]}
// What does not change within the day is written once: today's slots in display order,
// stock, cycle, and `week`: the 6 days before today (oldest first), whose states are final.
// Each entry carries only what does; its `doses` are parallel to `slots`, its `week_today`
// is today's state in the strip (`pending` until today is complete). Expanding an entry
// (dose i = slots[i] + {status, taken_at, late_minutes}; week = the top-level week +
// {day, state: week_today}; plus the top-level day, timezone, stock and cycle) gives the
// snapshot of its instant less `schema`, `messages` and `tooltip` (snapshot.json has those).
// `generated_at` stays the second key: `SharedDirectory` ignores its value when comparing
// an old file with a new one.
// Schema 1 (every entry a whole snapshot) was 2.5 MB for 50 medicines, 21–51 MB for 1,000.
//
// `words` are the catalog's, in the language of the texts: a reader that lists doses and
// offers a take (the GNOME extension) shows these instead of keeping its own copy. Its
// 7-day strip is `week.line` with `{days}` replaced by the `week.symbols` of the 7 days
// joined by one space (`WeekStrip`), the symbols of the configured icon set.
//
// Config keys read: `language` (through the words), `icons` (the strip's symbols; the
// entries' texts already carry their icons).
//
// Example reader: the GNOME Shell extension (integrations/gnome-shell, `logic.js`), which
// picks the last entry whose `at` is not after now and expands it with `slots` and `week`.
import DoseCore

/// Renders a day's timeline as `timeline.json`, schema 2.
public enum TimelineJSON {
    /// The `schema` number of `timeline.json`.
    public static let schema = 2

    /// The timeline as compact JSON on one line (no trailing newline).
    /// Throws `DosebarError.internal` when the entries do not share one day's slots.
    public static func text(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> String {
        try object(timeline, words: words, icons: icons).text
    }

    /// The timeline as a json-c tree; each entry's `doses` are rendered reusing the
    /// triples of slots whose outcome did not change since the previous entry.
    public static func object(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> JSONValue {
        try check(timeline)
        var doses = DoseListJSON()
        return build(timeline, words: words, icons: icons) { o, entry in o.setRaw("doses", json: doses.renderOutcomes(entry.doses)) }
    }

    /// The timeline built as plain json-c values, triple by triple: the reference the fast
    /// path must match byte for byte (tests compare the two).
    static func referenceObject(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> JSONValue {
        try check(timeline)
        return build(timeline, words: words, icons: icons) { o, entry in
            o.setArray("doses") { a in
                for dose in entry.doses {
                    a.appendArray { t in
                        t.append(dose.status.rawValue)
                        t.append(dose.takenAt?.iso8601)
                        t.append(dose.lateMinutes)
                    }
                }
            }
        }
    }

    /// Every field in contract order; `setDoses` writes an entry's `doses`.
    private static func build(_ timeline: Timeline, words: Catalog, icons: IconSet,
                              setDoses: (JSONObjectBuilder, Snapshot) -> Void) -> JSONValue {
        let first = timeline.entries.first
        return JSONValue.object { o in
            o.set("schema", schema)
            o.set("generated_at", timeline.generatedAt.iso8601)
            o.set("day", timeline.day.description)
            o.set("timezone", timeline.timezone)
            o.set("reload_at", timeline.reloadAt.iso8601)
            o.setArray("slots") { a in
                for dose in first?.doses ?? [] { a.appendObject { SnapshotJSON.fillSlot($0, dose) } }
            }
            o.setArray("stock") { SnapshotJSON.fillStock($0, first?.stock ?? []) }
            o.setArray("cycle") { SnapshotJSON.fillCycle($0, first?.cycle ?? []) }
            o.setArray("week") { SnapshotJSON.fillWeek($0, first?.week.dropLast() ?? []) }
            o.setObject("words") { w in
                w.setObject("status") { s in
                    s.set("upcoming", words.status(.upcoming)); s.set("due", words.status(.due))
                    s.set("late", words.status(.late)); s.set("missed", words.status(.missed))
                    s.set("taken", words.status(.taken)); s.set("taken_early", words.status(.takenEarly))
                    s.set("taken_late", words.status(.takenLate)); s.set("skipped", words.status(.skipped))
                }
                w.set("take", words.text("action.taken"))
                w.set("take_all", words.text("menu.take_all"))
                w.set("nothing_today", words.text("tooltip.none"))
                w.setObject("week") { week in
                    week.set("line", words.text("week.line"))
                    week.setObject("symbols") { d in
                        d.set("none", icons[day: .none]); d.set("rest", icons[day: .rest]); d.set("done", icons[day: .done])
                        d.set("skipped", icons[day: .skipped]); d.set("missed", icons[day: .missed])
                        d.set("partial", icons[day: .partial]); d.set("pending", icons[day: .pending])
                    }
                }
            }
            o.setArray("entries") { a in
                for entry in timeline.entries {
                    a.appendObject { e in
                        e.set("at", entry.at.iso8601)
                        e.set("valid_until", entry.validUntil.iso8601)
                        e.set("state", entry.state.rawValue)
                        e.setObject("counts") { SnapshotJSON.fillCounts($0, entry.counts) }
                        e.set("progress", entry.progress)
                        setDoses(e, entry)
                        e.setArray("as_needed") { SnapshotJSON.fillAsNeeded($0, entry.asNeeded) }
                        SnapshotJSON.setNext(e, entry.next)
                        e.setObject("streak") { SnapshotJSON.fillStreak($0, entry.streak) }
                        e.setObject("adherence") { SnapshotJSON.fillAdherence($0, entry.adherence) }
                        e.set("week_today", entry.week.last?.state.rawValue)
                        e.setObject("message") { SnapshotJSON.fillMessage($0, entry.message) }
                        e.set("text", entry.text)
                    }
                }
            }
        }
    }

    /// Schema 2 writes once what every entry shares; a timeline whose entries disagree on
    /// it (never one of `TimelineProvider`'s) cannot be written without losing data.
    private static func check(_ timeline: Timeline) throws {
        guard let first = timeline.entries.first else { return }
        for entry in timeline.entries {
            func refuse(_ what: String) -> DosebarError {
                .internal("the timeline of \(timeline.day) cannot be written: its entry at \(entry.at.iso8601) has \(what)")
            }
            guard entry.day == timeline.day, entry.timezone == timeline.timezone else {
                throw refuse("another day or time zone")
            }
            guard entry.doses.count == first.doses.count,
                  zip(entry.doses, first.doses).allSatisfy(sameSlot) else { throw refuse("other slots than the first") }
            guard entry.stock == first.stock, entry.cycle == first.cycle else {
                throw refuse("other stock or cycle lines than the first")
            }
            guard entry.week.dropLast() == first.week.dropLast(), entry.week.last?.day == timeline.day else {
                throw refuse("another week than the first")
            }
        }
    }

    private static func sameSlot(_ a: Snapshot.Dose, _ b: Snapshot.Dose) -> Bool {
        a.medicationID == b.medicationID && a.scheduled == b.scheduled && a.medication == b.medication
            && a.dose == b.dose && a.group == b.group
    }
}
