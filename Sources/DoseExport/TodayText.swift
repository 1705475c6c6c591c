import DoseCore

/// `dosebar today` for a person: the heading, the table of the day's doses (coloured by status on
/// a terminal), the as-needed lines, the stock left and the day's message. Pure: a snapshot in,
/// lines out. (`today --json` is ``SnapshotJSON``.)
public enum TodayText {
    /// The ANSI SGR colour of each status (orange and blue, as the history calendar: apart under
    /// red-green colour blindness).
    public static let colors: [SlotStatus: String] = [
        .late: "38;5;208", .missed: "38;5;208", .due: "33",
        .taken: "38;5;33", .takenEarly: "38;5;33", .takenLate: "38;5;33",
        .skipped: "90", .upcoming: "0",
    ]

    /// `HH:MM`, after `MM-DD ` when it is on another date than `day`, with its offset when it differs from now's.
    static func moment(_ at: LocalInstant, day: LocalDate, now: LocalInstant) -> String {
        let date = at.localDate
        let prefix = date == day ? "" : String(date.description.dropFirst(5)) + " "
        return prefix + at.clock + offsetNote(at, now: now)
    }

    /// ` (UTC+09:00)` for a time lived at another offset than now's (the person travelled since), else nothing.
    static func offsetNote(_ at: LocalInstant, now: LocalInstant) -> String {
        guard at.offset != now.offset else { return "" }
        return " (" + at.offsetText + ")"
    }

    /// The lines of `today`, with colour when `color`.
    public static func lines(_ snapshot: Snapshot, catalog c: Catalog, color: Bool) -> [String] {
        func paint(_ s: String, _ status: SlotStatus) -> String {
            guard color, let code = colors[status] else { return s }
            return "\u{1B}[\(code)m\(s)\u{1B}[0m"
        }
        var out: [String] = []
        let weekday = c.weekdays[snapshot.day.weekday.rawValue - 1]
        out.append(c.text("cli.today", ["weekday": weekday, "date": snapshot.day.description, "zone": snapshot.timezone,
                                        "done": String(snapshot.counts.taken + snapshot.counts.skipped),
                                        "total": String(snapshot.counts.total), "streak": String(snapshot.streak.current)]))
        if !snapshot.doses.isEmpty {
            var rows: [[String]] = [["time", "medicine", "dose", "status"].map { c.text("cli.column." + $0) }]
            var statuses: [SlotStatus?] = [nil]
            for d in snapshot.doses {
                var status = c.status(d.status)
                // A take on another date than the dose's (a carried dose, one taken early the day
                // before) writes its date; a time lived in another zone than now's, its offset.
                if let at = d.takenAt, d.status.isTaken { status += " " + moment(at, day: d.day, now: snapshot.at) }
                if let late = d.lateMinutes { status += " " + c.minutes(late) }
                // A carried slot (yesterday's, still open) says so: "yesterday 22:00".
                let clock = d.scheduled.clock + offsetNote(d.scheduled, now: snapshot.at)
                let time = d.day == snapshot.day ? clock : c.text("slot.yesterday", ["time": clock])
                rows.append([time, d.medication, d.dose ?? "", status])
                statuses.append(d.status)
            }
            for (line, status) in zip(TextTable.render(rows), statuses) {
                out.append(status.map { paint(line, $0) } ?? line)
            }
        }
        for a in snapshot.asNeeded { out.append(a.text) }
        // The stock of each tracked medicine, as the exact decimal ("Iron: 8.75 left").
        for s in snapshot.stock { out.append(c.text("cli.stock_left", ["name": s.medication, "stock": s.remaining.description])) }
        out.append(snapshot.message.text)
        // A change of zone and each dose it moved are said whatever comes first (DESIGN §3 "Where the person is").
        for m in snapshot.messages.dropFirst() where [MessageID.zoneChanged, MessageID.travelGap, MessageID.travelGapLater].contains(m.id) {
            out.append(m.text)
        }
        return out
    }
}
