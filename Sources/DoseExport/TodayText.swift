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
                if let at = d.takenAt, d.status.isTaken { status += " " + at.clock }
                if let late = d.lateMinutes { status += " " + c.minutes(late) }
                // A carried slot (yesterday's, still open) says so: "yesterday 22:00".
                let time = d.day == snapshot.day ? d.scheduled.clock : c.text("slot.yesterday", ["time": d.scheduled.clock])
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
        return out
    }
}
