import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar take`: log doses as taken.
struct Take: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "take",
        abstract: "Log doses as taken (every due dose when no name is given).",
        usage: """
        dosebar take [<names> ...] [--at <time>] [--slot <dose>] [--next]
        [--force] [<global options>]
        """,
        discussion: """
        'take NAME' takes that medicine's open dose, whatever day it belongs to (a 22:00 pill taken \
        at 00:30 is last night's, taken late), else its next dose if it opens within the tolerance \
        window, else a dose of an as-needed medicine. A forgotten dose stays open until it is nearly \
        time for the next one; then it is missed, never doubled: one command takes at most one dose \
        of a medicine. --at says when it was taken and picks the dose 'take NAME' would have picked \
        then (refused when that dose is already taken or skipped); --slot names the dose instead. \
        An as-needed dose beyond --max-per-day or --min-interval is refused unless --force. A dose \
        already taken or skipped is never recorded again, whatever the clock says ('undo' it first). \
        A bar click ('take --next') takes the next dose only once its window has opened; to take \
        one earlier on purpose, name it: 'take NAME --slot HH:MM'.

        Examples:
          $ dosebar take                    # everything due or late now
          $ dosebar take --next             # ... or the next, once its window opened
          $ dosebar take Aspirin Magnesium
          $ dosebar take Aspirin --at 08:10
          $ dosebar take Aspirin --at 2026-11-21T21:05
          $ dosebar take Yaz --slot "2026-11-21 22:00" --at 2026-11-22T00:30
          $ dosebar take Ibuprofen --force    # over the limit: marked over_limit
        """
    )

    @Argument(help: "Medicines (names or unique prefixes).", completion: .medicineNames) var names: [String] = []
    @Option(name: .long, help: ArgumentHelp("When it was taken: HH:MM today or YYYY-MM-DDTHH:MM.", valueName: "time"))
    var at: String?
    @Option(name: .long, help: ArgumentHelp("Which dose: HH:MM, or 'YYYY-MM-DD HH:MM' for another day's.", valueName: "dose"))
    var slot: String?
    @Flag(name: .long, help: "When nothing is due, take the next dose(s) whose window has opened.") var next = false
    @Flag(name: .long, help: "Record an as-needed dose beyond --max-per-day/--min-interval (marked over_limit).")
    var force = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // A config error never loses a dose (DESIGN §9): recorded, rendered with the defaults, warned.
    static let recordsDoses = true

    func run(_ context: AppContext) throws {
        let instant = try at.map { try context.instant(fromAt: $0) }
        let store = try context.openStore()
        let origin = CommandOrigin.current()
        let recorded: [DoseRecorder.Recorded]
        do {
            recorded = try DoseRecorder(context: context, store: store).record(.taken, names: names, at: instant, next: next, force: force,
                                                                               slot: try slot.map { try InputParser.slot($0, today: context.today) },
                                                                               origin: origin)
        } catch DosebarError.badData(let refusal) where names.isEmpty && origin == .click && context.config.notifyClicks {
            // A bar click that took nothing: `daemon --notify` says what is next (DESIGN §2).
            ClickNotice(at: context.now, text: refusal).leave(database: context.dbPath)
            throw DosebarError.badData(refusal)
        }
        for r in recorded { Output.line(r.line(context.catalog, zone: context.zone, today: context.today)) }
    }
}
