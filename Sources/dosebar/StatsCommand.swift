import ArgumentParser
import DoseApp
import DoseCore
import DoseExport

/// `dosebar stats`: adherence figures over N days and the N before.
struct StatsCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show adherence over the last N days, next to the N days before.",
        usage: """
        dosebar stats [<name>] [--from <date>] [--to <date>] [--days <N>]
        [--json] [<global options>]
        """,
        discussion: """
        Per medicine and overall: doses taken of those whose outcome is known (taken, skipped or \
        missed; today's pending doses do not count yet), taken on time (within the window), late, \
        early, skipped, missed, the mean lateness of late doses and the time most often taken late \
        or missed.

        Examples:
          $ dosebar stats
          $ dosebar stats Metformin --days 90
          $ dosebar stats --json | jq '.overall.adherence, .previous.adherence'
        """
    )

    @Argument(help: "Only this medicine (name or unique prefix; archived ones too).", completion: .medicineNames)
    var name: String?
    @OptionGroup var range: RangeOptions
    @Flag(name: .long, help: "Print JSON: {days, from, to, overall, previous, medications: [{name, most_late_slot, …}]}.")
    var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run(_ context: AppContext) throws {
        let service = HistoryService(store: try context.openStore(), context: context)
        let medication = try name.map { try service.medication(named: $0) }
        // The days asked for (default the last 30) and as many just before them.
        let current = try range.range(service, defaultDays: 30)
        let days = current.upperBound - current.lowerBound + 1
        let previous = current.lowerBound.adding(days: -days)...current.lowerBound.adding(days: -1)
        let ledger = try service.ledger(previous.lowerBound...current.upperBound)
        let shown = ledger.medications(in: current).filter { medication == nil || $0.id == medication!.id }
        let now = ledger.figuresByMedication(days: current), before = ledger.figuresByMedication(days: previous)
        let mostLate = ledger.mostLateSlots(days: current)
        let stats = HistoryJSON.Stats(
            days: days, from: current.lowerBound, to: current.upperBound,
            overall: Self.total(now, of: medication?.id),
            previous: Self.total(before, of: medication?.id),
            medications: shown.map { m in
                (name: m.name, mostLateSlot: mostLate[m.id],
                 figures: now[m.id] ?? Figures(), previous: before[m.id] ?? Figures())
            })
        if json {
            Output.line(HistoryJSON.stats(stats))
            return
        }
        for line in StatsTable(stats: stats, catalog: context.catalog, previous: previous).lines() { Output.line(line) }
    }

    /// One medicine's figures, or every medicine's together (every slot belongs to one medicine).
    static func total(_ figures: [Int64: Figures], of id: Int64?) -> Figures {
        if let id { return figures[id] ?? Figures() }
        var sum = Figures()
        for f in figures.values { sum.add(f) }
        return sum
    }
}
