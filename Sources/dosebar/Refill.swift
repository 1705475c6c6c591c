import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar refill`: add to (or set) a medicine's stock.
struct Refill: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "refill",
        abstract: "Add units to a medicine's stock, or set it with --set.",
        usage: "dosebar refill <name> (<units> | --set <N>) [<global options>]",
        discussion: """
        Examples:
          $ dosebar refill Metformin 60
          $ dosebar refill Metformin --set 42
          $ dosebar refill Warfarin 0.5      # half a tablet (to hundredths)
        """
    )

    @Argument(help: "The medicine (name or unique prefix).", completion: .medicineNames) var name: String
    @Argument(help: "Units to add (to hundredths, e.g. 0.5).", transform: Amount.argument("refill", FieldRules.unitsRange))
    var units: Amount?
    @Option(name: .long, help: ArgumentHelp("Set the stock to exactly N (to hundredths).", valueName: "N"),
            transform: Amount.argument("--set", FieldRules.stockRange))
    var set: Amount?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func precheck() throws {
        // Here, not in validate(): ArgumentParser validates before it reports an argument it could
        // not place, and `refill NAME -5` must say what is wrong with -5.
        guard (units == nil) != (set == nil) else {
            throw DosebarError.usage(Catalog.english.text("usage.refill_either"))
        }
    }

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let m = try RefillService(context: context, store: store).refill(name, adding: units, setTo: set)
        let stock = DoseConfirmation.onHand(m, on: context.today, catalog: context.catalog)
            ?? context.catalog.text("stock.on_hand", ["amount": DoseConfirmation.amountText(m.stock ?? .zero)])
        Output.line(context.catalog.text("cli.on_hand", ["name": m.name, "stock": stock]))
    }
}
