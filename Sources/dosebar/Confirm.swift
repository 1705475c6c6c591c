import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar confirm`: a dose taken twice (on two devices) was taken twice on purpose.
struct Confirm: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm that a dose taken on two devices was really taken twice (the bar stops warning).",
        usage: "dosebar confirm <name> [--slot <dose>] [<global options>]",
        discussion: """
        When two devices each recorded a take of the same dose before they synced, both are kept and
        every device warns "taken twice". If one of them is a mistake, undo it on either device
        ('dosebar undo NAME'); if both were taken, confirm it here: every device stops warning once
        it syncs, and history and the report keep the dose marked as taken twice.

        Examples:
          $ dosebar confirm Warfarin
          $ dosebar confirm Warfarin --slot 18:00
          $ dosebar confirm Warfarin --slot "2026-11-21 18:00"
        """
    )

    @Argument(help: "The medicine (name or unique prefix).", completion: .medicineNames) var name: String
    @Option(name: .long, help: ArgumentHelp("Which dose: HH:MM, or 'YYYY-MM-DD HH:MM' for another day's.", valueName: "dose"))
    var slot: String?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let slot = try slot.map { try InputParser.slot($0, today: context.today) }
        let store = try context.openStore()
        let double = try DoubleDoseService(context: context, store: store).confirm(name, day: slot?.date, time: slot?.time)
        let c = context.catalog
        Output.line(c.text("cli.confirmed_double", ["name": double.medication, "time": double.slotText(today: context.today),
                                                    "takes": double.takeTexts(zone: context.zone).joined(separator: c.listSeparator)]))
    }
}
