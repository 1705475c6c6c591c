import ArgumentParser
import DoseApp
import DoseCore
import DoseExport
import Foundation

/// `dosebar list`: the medicines and their schedules.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List medicines and their schedules.",
        usage: "dosebar list [--all] [--json] [<global options>]",
        discussion: """
        Examples:
          $ dosebar list
          $ dosebar list --all          # archived ones too
          $ dosebar list --json | jq '.[].name'
        """
    )

    @Flag(name: .long, help: "Include archived medicines.") var all = false
    @Flag(name: .long, help: "Print JSON: [{id, name, dose, group, schedule, times, stock, per_dose, archived, tracked_from}].") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    struct Row: Encodable {
        var id: Int64
        var name: String
        var dose: String?
        var group: String?
        var schedule: String
        var times: [String]
        var stock: Amount?
        var per_dose: Amount
        var archived: Bool
        /// ISO-8601 with the local offset; null: tracked from its first schedule day.
        var tracked_from: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
            try c.encode(dose, forKey: .dose); try c.encode(group, forKey: .group)
            try c.encode(schedule, forKey: .schedule); try c.encode(times, forKey: .times)
            try c.encode(stock, forKey: .stock); try c.encode(per_dose, forKey: .per_dose)
            try c.encode(archived, forKey: .archived); try c.encode(tracked_from, forKey: .tracked_from)
        }
        enum CodingKeys: String, CodingKey { case id, name, dose, group, schedule, times, stock, per_dose, archived, tracked_from }
    }

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let meds = try store.read { try $0.medications(includeArchived: all) }
        let rows = meds.map { m -> Row in
            let s = m.schedule(on: context.today) ?? m.currentSchedule
            return Row(id: m.id, name: m.name, dose: m.dose, group: m.group, schedule: s?.summary ?? "",
                       times: s?.times.map(\.description) ?? [], stock: m.stock, per_dose: m.perDose,
                       archived: m.archivedOn.map { $0 <= context.today } ?? false,
                       tracked_from: m.trackedFrom.map { ISO8601.format($0, offset: context.zone.offset(at: $0)) })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Output.line(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        let c = context.catalog
        if rows.isEmpty {
            Output.line(c.text("cli.no_medicines"))
            return
        }
        let header = ["name", "dose", "schedule", "times", "stock", "group"].map { c.text("cli.column." + $0) }
        let table = [header] + zip(rows, meds).map { r, m in
            [r.archived ? c.text("cli.archived_mark", ["name": r.name]) : r.name, r.dose ?? "",
             (m.schedule(on: context.today) ?? m.currentSchedule).map(c.describe) ?? "", r.times.joined(separator: ","),
             r.stock?.description ?? "", r.group ?? ""]
        }
        for line in TextTable.render(table) { Output.line(line) }
    }
}
