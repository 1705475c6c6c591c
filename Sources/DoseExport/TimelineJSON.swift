// timeline.json — the day's timeline, schema 3 (DESIGN §4; `schema/timeline.schema.json`).
//
// Output: one line of JSON, keys in this order
//   {"schema":3, "generated_at", "day", "timezone", "reload_at",
//    "week": [{"day", "state"}, …],
//    "words": {"status": {"upcoming", "due", "late", "missed", "taken", "taken_early",
//              "taken_late", "skipped"}, "take", "take_all", "nothing_today",
//              "slot_day": {"yesterday", "date"},
//              "week": {"line", "symbols": {"none", "rest", "done", "skipped", "missed",
//                                           "partial", "pending"}}},
//    "slots": [{"medication", "medication_id", "dose", "group", "day", "scheduled",
//               "taken_at"|null, "time_known"}, …],
//    "stock": […], "cycle": […],
//    "entries": [{"at", "valid_until", "state", "counts", "progress", "week_today",
//                 ["week_yesterday",] "doses": ["status"|null, …],
//                 "as_needed", "next", "streak", "adherence", "message", "text"}, …]}
// What does not change within the day is written once: stock, cycle, and every slot listed
// by any entry — today's and the carried ones (earlier days' slots still open at an entry's
// instant, which leave once resolved or closed) — once each (identity: medication_id, day,
// scheduled), in display order (carried first, as the entries list them). A slot's
// `taken_at`/`time_known` are those of the take that resolves it (the first entry where its
// status is taken*); entries before it ignore them. An entry's `doses` are parallel to
// `slots`: the slot's status at the entry's instant, `null` where the entry does not list it.
// `week` is the 6 days before today (oldest first) as in the last entry; before that only
// yesterday can differ (pending while one of its slots is open, then final): an entry whose
// yesterday differs writes it as `week_yesterday`. `week_today` is today's state in the strip.
// Expanding an entry gives the snapshot of its instant less `schema`, `messages` and
// `tooltip` (snapshot.json has those): dose i, for every non-null doses[i], is slots[i] with
// `status` = doses[i]; `taken_at`/`time_known` the slot's when the status is taken*, else
// null/true; `late_minutes` = whole minutes from `scheduled` to the entry's `at` when the
// status is `late`, else null. `week` = the top-level week (yesterday replaced by
// `week_yesterday` when present) + {day, state: week_today}; `day`, `timezone`, `stock`,
// `cycle` come from the top level. A skip has no take time: a skipped dose's `taken_at` is
// null in the expansion.
// `generated_at` stays the second key: `SharedDirectory` ignores its value when comparing
// an old file with a new one.
// Schema 1 wrote every entry as a whole snapshot; schema 2 a [status, taken_at, late_minutes]
// triple per slot and entry, to keep the file within DESIGN §4's size (sizes in Benchmarks/README.md).
//
// `words` are the catalog's, in the language of the texts: a reader that lists doses and
// offers a take (the GNOME extension) shows these instead of keeping its own copy. Its
// 7-day strip is `week.line` with `{days}` replaced by the `week.symbols` of the 7 days
// joined by one space (`WeekStrip`), the symbols of the configured icon set. A carried
// dose's time is `slot_day.yesterday` (its day is the day before `day`) or `slot_day.date`
// with `{time}` (HH:MM) and `{date}` (YYYY-MM-DD) filled in.
//
// Config keys read: `language` (through the words), `icons` (the strip's symbols; the
// entries' texts already carry their icons).
//
// Example reader: the GNOME Shell extension (integrations/gnome-shell, `logic.js`), which
// picks the last entry whose `at` is not after now and expands it with `slots` and `week`.
import DoseCore
import Foundation

/// Renders a day's timeline as `timeline.json`, schema 3.
public enum TimelineJSON {
    /// The `schema` number of `timeline.json`.
    public static let schema = 3

    /// The timeline as compact JSON on one line (no trailing newline).
    /// Throws `DosebarError.internal` when the entries cannot be written without losing what
    /// one of them says (another day, stock or cycle; one slot told two ways).
    public static func text(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> String {
        try object(timeline, words: words, icons: icons).text
    }

    /// The timeline as JSON; each entry's `doses` are rendered as bytes, reusing the
    /// previous entry's when no status changed.
    public static func object(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> JSONValue {
        let layout = try Layout(timeline)
        var previous: (statuses: [Int8], text: [UInt8])?
        return build(timeline, layout, words: words, icons: icons) { o, e in
            let statuses = layout.statuses[e]
            if let previous, previous.statuses == statuses {
                o.setRaw("doses", json: previous.text)
                return
            }
            let text = renderStatuses(statuses)
            previous = (statuses, text)
            o.setRaw("doses", json: text)
        }
    }

    static let allStatuses = SlotStatus.allCases
    /// Every status word quoted, one after the other, and where each one is (one flat table: an
    /// array per word cost a retain and a release per slot and entry).
    private static let statusTexts: (bytes: [UInt8], ranges: [Range<Int>]) = {
        var bytes: [UInt8] = [], ranges: [Range<Int>] = []
        for status in allStatuses {
            let start = bytes.count
            bytes += Array("\"\(status.rawValue)\"".utf8)
            ranges.append(start..<bytes.count)
        }
        return (bytes, ranges)
    }()

    /// `["status"|null,…]` as UTF-8 (status words need no escaping).
    private static func renderStatuses(_ statuses: [Int8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(statuses.count * 10 + 2)
        bytes.append(UInt8(ascii: "["))
        let ranges = statusTexts.ranges
        statusTexts.bytes.withUnsafeBufferPointer { table in
            for (i, status) in statuses.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                if status < 0 {
                    bytes.append(contentsOf: "null".utf8)
                } else {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: table[ranges[Int(status)]]))
                }
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// Every field in contract order; `setDoses` writes the `doses` of entry `e` (the fast path here;
    /// the tests' reference builds them status by status).
    static func build(_ timeline: Timeline, _ layout: Layout, words: Catalog, icons: IconSet,
                              setDoses: (JSONObjectBuilder, Int) -> Void) -> JSONValue {
        let first = timeline.entries.first
        return JSONValue.object { o in
            o.set("schema", schema)
            o.set("generated_at", timeline.generatedAt.iso8601)
            o.set("day", timeline.day.description)
            o.set("timezone", timeline.timezone)
            o.set("reload_at", timeline.reloadAt.iso8601)
            o.setArray("week") { SnapshotJSON.fillWeek($0, layout.pastWeek) }
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
                w.setObject("slot_day") { d in
                    d.set("yesterday", words.text("menu.slot.yesterday"))
                    d.set("date", words.text("menu.slot.date"))
                }
                w.setObject("week") { week in
                    week.set("line", words.text("week.line"))
                    week.setObject("symbols") { d in
                        d.set("none", icons[day: .none]); d.set("rest", icons[day: .rest]); d.set("done", icons[day: .done])
                        d.set("skipped", icons[day: .skipped]); d.set("missed", icons[day: .missed])
                        d.set("partial", icons[day: .partial]); d.set("pending", icons[day: .pending])
                    }
                }
            }
            o.setArray("slots") { a in
                for slot in layout.slots {
                    a.appendObject { d in
                        SnapshotJSON.fillSlot(d, slot.dose)
                        d.set("taken_at", slot.take?.at.iso8601)
                        d.set("time_known", slot.take?.timeKnown ?? true)
                    }
                }
            }
            o.setArray("stock") { SnapshotJSON.fillStock($0, first?.stock ?? []) }
            o.setArray("cycle") { SnapshotJSON.fillCycle($0, first?.cycle ?? []) }
            o.setArray("entries") { a in
                for (e, entry) in timeline.entries.enumerated() {
                    a.appendObject { o in
                        o.set("at", entry.at.iso8601)
                        o.set("valid_until", entry.validUntil.iso8601)
                        o.set("state", entry.state.rawValue)
                        o.setObject("counts") { SnapshotJSON.fillCounts($0, entry.counts) }
                        o.set("progress", entry.progress)
                        o.set("week_today", entry.week.last?.state.rawValue)
                        let yesterday = entry.week.count >= 2 ? entry.week[entry.week.count - 2] : nil
                        if let yesterday, yesterday != layout.pastWeek.last { o.set("week_yesterday", yesterday.state.rawValue) }
                        setDoses(o, e)
                        o.setArray("as_needed") { SnapshotJSON.fillAsNeeded($0, entry.asNeeded) }
                        SnapshotJSON.setNext(o, entry.next)
                        o.setObject("streak") { SnapshotJSON.fillStreak($0, entry.streak) }
                        o.setObject("adherence") { SnapshotJSON.fillAdherence($0, entry.adherence) }
                        o.setObject("message") { SnapshotJSON.fillMessage($0, entry.message) }
                        o.set("text", entry.text)
                    }
                }
            }
        }
    }

    /// The slots of the day in display order and each entry's status of each, checked so that
    /// expanding any entry gives back exactly its doses and week.
    struct Layout {
        struct Slot {
            /// The dose as first listed (its medication, dose, group, day and time).
            var dose: Snapshot.Dose
            /// The take that resolves the slot: from the first entry listing it as taken*.
            var take: (at: LocalInstant, timeKnown: Bool)?
        }

        /// What identifies a slot across entries.
        struct Key: Hashable {
            var medicationID: Int64
            var day: LocalDate
            var scheduled: Date
            init(_ d: Snapshot.Dose) { medicationID = d.medicationID; day = d.day; scheduled = d.scheduled.date }
        }

        var slots: [Slot] = []
        /// `statuses[e][i]`: the index in `SlotStatus.allCases` of slot i's status at entry e, -1 when not listed.
        var statuses: [[Int8]] = []
        /// The 6 days before today as the last entry has them.
        var pastWeek: [Snapshot.WeekDay] = []

        init(_ timeline: Timeline) throws {
            guard let last = timeline.entries.last else { return }
            pastWeek = Array(last.week.dropLast())
            // Each entry's doses as indexes into `slots`, merged in display order: a slot first
            // listed by a later entry goes right after the slot listed before it there.
            var order: [Key: Int] = [:]
            var indexes: [[Int]] = []
            var inserted = false
            let entries = timeline.entries
            for (e, entry) in entries.enumerated() {
                try Self.check(entry, in: timeline, pastWeek: pastWeek)
                var mine: [Int] = []
                mine.reserveCapacity(entry.doses.count)
                var p = 0
                // Field by field, in place: copying a dose would retain and release its strings.
                for d in entry.doses.indices {
                    // Slots mostly repeat the previous entry's in its order: walk it alongside.
                    if e > 0 {
                        let previous = entries[e - 1].doses
                        var q = p
                        while q < previous.count, !Self.same(previous, q, entry.doses, d) { q += 1 }
                        if q < previous.count {
                            mine.append(indexes[e - 1][q]); p = q + 1
                            continue
                        }
                    }
                    let key = Key(entry.doses[d])
                    if let i = order[key] {
                        mine.append(i)
                    } else {
                        // A new slot, first listed here; `merge` places it among the others.
                        order[key] = slots.count
                        slots.append(Slot(dose: entry.doses[d], take: nil))
                        mine.append(slots.count - 1)
                        inserted = inserted || e > 0
                    }
                }
                indexes.append(mine)
            }
            // Display order: a slot's rank is where the entries put it among the others. With
            // no slot appearing after the first entry, that is the order of first listing.
            let rank = inserted ? Self.merge(indexes, count: slots.count) : Array(slots.indices)
            var position = [Int](repeating: 0, count: slots.count)
            for (pos, i) in rank.enumerated() { position[i] = pos }
            slots = rank.map { slots[$0] }

            statuses.reserveCapacity(entries.count)
            for (e, entry) in entries.enumerated() {
                var row = [Int8](repeating: -1, count: slots.count)
                for d in entry.doses.indices {
                    let s = position[indexes[e][d]]
                    func refuse(_ what: String) -> DosebarError {
                        Self.refuse(entry, timeline, "the dose of \(entry.doses[d].medication) at \(entry.doses[d].scheduled.iso8601) \(what)")
                    }
                    guard row[s] < 0 else { throw refuse("twice") }
                    guard slots[s].dose.medication == entry.doses[d].medication, slots[s].dose.dose == entry.doses[d].dose,
                          slots[s].dose.group == entry.doses[d].group else {
                        throw refuse("under another name, dose or group")
                    }
                    let status = entry.doses[d].status
                    if status.isTaken {
                        guard let takenAt = entry.doses[d].takenAt else { throw refuse("taken without its time") }
                        let timeKnown = entry.doses[d].timeKnown
                        if let take = slots[s].take {
                            guard take.at == takenAt, take.timeKnown == timeKnown else { throw refuse("taken at another time") }
                        } else {
                            slots[s].take = (takenAt, timeKnown)
                        }
                    }
                    let late = status == .late ? Self.lateMinutes(entry.at, entry.doses[d].scheduled) : nil
                    guard entry.doses[d].lateMinutes == late else {
                        throw refuse("\(status.rawValue) with late_minutes \(entry.doses[d].lateMinutes.map(String.init) ?? "null") "
                                     + "(at − scheduled: \(late.map(String.init) ?? "null"))")
                    }
                    row[s] = Self.statusIndex(status)
                }
                statuses.append(row)
            }
        }

        /// The index of `status` in `SlotStatus.allCases`.
        private static func statusIndex(_ status: SlotStatus) -> Int8 {
            switch status {
            case .upcoming: 0
            case .due: 1
            case .late: 2
            case .missed: 3
            case .taken: 4
            case .takenEarly: 5
            case .takenLate: 6
            case .skipped: 7
            }
        }

        /// Whole minutes from `scheduled` to `at` (DESIGN §3: a late slot's `late_minutes`).
        static func lateMinutes(_ at: LocalInstant, _ scheduled: LocalInstant) -> Int {
            Int((at.date.timeIntervalSince(scheduled.date) / 60).rounded(.down))
        }

        private static func same(_ a: [Snapshot.Dose], _ i: Int, _ b: [Snapshot.Dose], _ j: Int) -> Bool {
            a[i].medicationID == b[j].medicationID && a[i].scheduled.date == b[j].scheduled.date && a[i].day == b[j].day
        }

        /// A display order of `count` slots in which every entry's list keeps its order: slots
        /// sorted by the first entry that lists each, then by the position it has there
        /// relative to slots placed already (a stable topological order of the entries' lists).
        static func merge(_ lists: [[Int]], count: Int) -> [Int] {
            // Edges from each slot to the next in each list; Kahn's algorithm, preferring the
            // slot first listed earliest, so an unconstrained pair keeps the order of first listing.
            var next = [Set<Int>](repeating: [], count: count)
            var incoming = [Int](repeating: 0, count: count)
            for list in lists {
                for (a, b) in zip(list, list.dropFirst()) where next[a].insert(b).inserted { incoming[b] += 1 }
            }
            var ready = (0..<count).filter { incoming[$0] == 0 }
            var out: [Int] = []
            out.reserveCapacity(count)
            while !ready.isEmpty {
                let i = ready.indices.min { ready[$0] < ready[$1] }!
                let a = ready.remove(at: i)
                out.append(a)
                for b in next[a] {
                    incoming[b] -= 1
                    if incoming[b] == 0 { ready.append(b) }
                }
            }
            // A cycle (two entries listing two slots in opposite orders) cannot be one display
            // order; keep what is left in order of first listing rather than lose slots.
            if out.count < count {
                let placed = Set(out)
                out += (0..<count).filter { !placed.contains($0) }
            }
            return out
        }

        /// What every entry of one file must share: its day and zone, stock and cycle lines,
        /// and the past week but for yesterday (whose slots may still close during the day).
        private static func check(_ entry: Snapshot, in timeline: Timeline, pastWeek: [Snapshot.WeekDay]) throws {
            guard entry.day == timeline.day, entry.timezone == timeline.timezone else {
                throw refuse(entry, timeline, "another day or time zone")
            }
            guard let first = timeline.entries.first, entry.stock == first.stock, entry.cycle == first.cycle else {
                throw refuse(entry, timeline, "other stock or cycle lines than the first")
            }
            guard entry.week.count == pastWeek.count + 1, entry.week.last?.day == timeline.day,
                  entry.week.dropLast(2) == pastWeek.dropLast(),
                  entry.week.count < 2 || entry.week[entry.week.count - 2].day == pastWeek.last?.day else {
                throw refuse(entry, timeline, "another week than the last entry (only yesterday's state may differ)")
            }
        }

        private static func refuse(_ entry: Snapshot, _ timeline: Timeline, _ what: String) -> DosebarError {
            .internal("the timeline of \(timeline.day) cannot be written: its entry at \(entry.at.iso8601) has \(what)")
        }
    }
}
