import ArgumentParser
import DoseCore
import DoseStore

/// `dosebar refill`: add to (or set) a medicine's stock.
struct Refill: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refill",
        abstract: "Add units to a medicine's stock, or set it with --set.",
        discussion: """
        Examples:
          $ dosebar refill Metformin 60
          $ dosebar refill Metformin --set 42
        """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The medicine (name or unique prefix).") var name: String
    @Argument(help: "Units to add.") var units: Int?
    @Option(name: .long, help: ArgumentHelp("Set the stock to exactly N.", valueName: "N")) var set: Int?

    func run() throws {
        let context = try AppContext(global)
        guard (units == nil) != (set == nil) else {
            throw DosebarError.usage("give either the units to add (refill NAME 30) or --set N")
        }
        if let units, !(1...1_000_000).contains(units) { throw DosebarError.usage("refill: give a number of units from 1 to 1000000") }
        if let set, !(0...1_000_000).contains(set) { throw DosebarError.usage("--set: give a number from 0 to 1000000") }
        let store = try context.openStore()
        let (m, stock) = try store.write { w -> (String, Int) in
            let m = try DoseResolver.match(name, in: try w.medications(includeArchived: false))
            let current = try w.medication(id: m.id)?.stock
            let new = set ?? min((current ?? 0) + units!, 1_000_000)
            try w.setStock(medicationID: m.id, new)
            return (m.name, new)
        }
        Output.line("\(m): \(stock) on hand.")
        Refresh.afterChange(context, store)
    }
}
