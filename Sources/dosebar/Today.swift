import ArgumentParser
import DoseApp
import DoseCore
import DoseExport
import Foundation

/// `dosebar today`: today's doses with their status.
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today's doses and their status.",
        usage: "dosebar today [--json] [<global options>]",
        discussion: """
        Colour when stdout is a terminal (never with NO_COLOR set).

        Examples:
          $ dosebar today
          $ dosebar today --json | jq '.doses[] | {medication, status}'
          $ DOSEBAR_NOW=2026-11-22T21:30:00+09:00 dosebar today
        """
    )

    @Flag(name: .long, help: "Print today as JSON: the snapshot the bars read (snapshot.json).") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let service = DayService(store: store, context: context)
        let snapshot = TimelineProvider(builder: service.builder(try service.load())).snapshot(at: context.now)
        if json {
            Output.line(SnapshotJSON.snapshot(snapshot))
            return
        }
        let color = global.wantsColor(context)
        func paint(_ s: String, _ status: SlotStatus) -> String {
            guard color else { return s }
            let code = switch status {
            // Orange and blue, as the history calendar: apart under red-green colour blindness.
            case .late, .missed: "38;5;208"
            case .due: "33"
            case .taken, .takenEarly, .takenLate: "38;5;33"
            case .skipped: "90"
            case .upcoming: "0"
            }
            return "\u{1B}[\(code)m\(s)\u{1B}[0m"
        }
        let c = context.catalog
        let weekday = c.weekdays[snapshot.day.weekday.rawValue - 1]
        Output.line(c.text("cli.today", ["weekday": weekday, "date": snapshot.day.description, "zone": snapshot.timezone,
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
                Output.line(status.map { paint(line, $0) } ?? line)
            }
        }
        for a in snapshot.asNeeded { Output.line(a.text) }
        // The stock of each tracked medicine, as the exact decimal ("Iron: 8.75 left").
        for s in snapshot.stock { Output.line(c.text("cli.stock_left", ["name": s.medication, "stock": s.remaining.description])) }
        Output.line(snapshot.message.text)
    }
}
