import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar take`: log doses as taken.
struct Take: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take",
        abstract: "Log doses as taken (every due dose when no name is given).",
        usage: "dosebar take [<names> ...] [--at <time>] [--next] [--force] [<global options>]",
        discussion: """
        'take NAME' takes that medicine's earliest due or late dose today, else its next dose if it \
        opens within the tolerance window, else a dose of an as-needed medicine. \
        --at back-dates: the dose of that day whose window holds the time, else the nearest one. \
        An as-needed dose beyond --max-per-day or --min-interval is refused unless --force.

        Examples:
          $ dosebar take                    # everything due or late now
          $ dosebar take --next             # ... or, if none is due, the next
          $ dosebar take Aspirin Magnesium
          $ dosebar take Aspirin --at 08:10
          $ dosebar take Aspirin --at 2026-11-21T21:05
          $ dosebar take Ibuprofen --force    # beyond --max-per-day: recorded, marked over_limit
        """
    )

    @Argument(help: "Medicines (names or unique prefixes).", completion: .medicineNames) var names: [String] = []
    @Option(name: .long, help: ArgumentHelp("When it was taken: HH:MM today or YYYY-MM-DDTHH:MM.", valueName: "time"))
    var at: String?
    @Flag(name: .long, help: "When nothing is due, take the next dose(s).") var next = false
    @Flag(name: .long, help: "Record an as-needed dose beyond --max-per-day/--min-interval (marked over_limit).")
    var force = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        // A config error never loses a dose (DESIGN §9): recorded, rendered with the defaults, warned.
        let context = try AppContext(global.options, configErrors: .useDefaults)
        let instant = try at.map { try context.instant(fromAt: $0) }
        let store = try context.openStore()
        let recorded = try DoseRecorder(context: context, store: store).record(.taken, names: names, at: instant, next: next, force: force)
        for r in recorded { Output.line(r.line(context.catalog, zone: context.zone, today: context.today)) }
        Refresh.afterChange(context, store)
        Output.configWarning(context)
    }
}
