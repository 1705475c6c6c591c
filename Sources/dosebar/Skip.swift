import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar skip`: log doses as deliberately skipped.
struct Skip: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Log doses as skipped on purpose (they do not break the streak).",
        usage: "dosebar skip <names> ... [--at <time>] [--slot <dose>] [<global options>]",
        discussion: """
        Examples:
          $ dosebar skip Magnesium
          $ dosebar skip Aspirin --at 2026-11-21T08:00
          $ dosebar skip Aspirin --slot "2026-11-21 20:00"
        """
    )

    @Argument(help: "Medicines (names or unique prefixes).", completion: .medicineNames) var names: [String]
    @Option(name: .long, help: ArgumentHelp("When: HH:MM today or YYYY-MM-DDTHH:MM (picks the dose open then).", valueName: "time"))
    var at: String?
    @Option(name: .long, help: ArgumentHelp("Which dose: HH:MM, or 'YYYY-MM-DD HH:MM' for another day's.", valueName: "dose"))
    var slot: String?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    // A config error never loses a dose (DESIGN §9): recorded, rendered with the defaults, warned.
    static let recordsDoses = true

    func run(_ context: AppContext) throws {
        let instant = try at.map { try context.instant(fromAt: $0) }
        let store = try context.openStore()
        let recorded = try DoseRecorder(context: context, store: store).record(.skipped, names: names, at: instant, next: false,
                                                                                  slot: try slot.map { try InputParser.slot($0, today: context.today) },
                                                                                  origin: CommandOrigin.current())
        for r in recorded { Output.line(r.line(context.catalog, zone: context.zone, today: context.today)) }
    }
}
