import ArgumentParser
import DoseCore
import DoseStore
import Foundation

/// `dosebar list`: the medicines and their schedules.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List medicines and their schedules.",
        discussion: """
        Examples:
          $ dosebar list
          $ dosebar list --all          # archived ones too
          $ dosebar list --json | jq '.[].name'
        """
    )

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Include archived medicines.") var all = false
    @Flag(name: .long, help: "Print JSON: [{id, name, dose, group, schedule, times, stock, per_dose, archived}].") var json = false

    struct Row: Encodable {
        var id: Int64
        var name: String
        var dose: String?
        var group: String?
        var schedule: String
        var times: [String]
        var stock: Int?
        var per_dose: Int
        var archived: Bool

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
            try c.encode(dose, forKey: .dose); try c.encode(group, forKey: .group)
            try c.encode(schedule, forKey: .schedule); try c.encode(times, forKey: .times)
            try c.encode(stock, forKey: .stock); try c.encode(per_dose, forKey: .per_dose)
            try c.encode(archived, forKey: .archived)
        }
        enum CodingKeys: String, CodingKey { case id, name, dose, group, schedule, times, stock, per_dose, archived }
    }

    func run() throws {
        let context = try AppContext(global)
        let store = try context.openStore()
        let meds = try store.read { try $0.medications(includeArchived: all) }
        let rows = meds.map { m -> Row in
            let s = m.schedule(on: context.today) ?? m.currentSchedule
            return Row(id: m.id, name: m.name, dose: m.dose, group: m.group, schedule: s?.summary ?? "",
                       times: s?.times.map(\.description) ?? [], stock: m.stock, per_dose: m.perDose,
                       archived: m.archivedOn.map { $0 <= context.today } ?? false)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Output.line(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        if rows.isEmpty {
            Output.line("No medicines yet. Add one: dosebar add Aspirin --at 08:00")
            return
        }
        let table = [["NAME", "DOSE", "SCHEDULE", "TIMES", "STOCK", "GROUP"]] + rows.map { r in
            [r.name + (r.archived ? " (archived)" : ""), r.dose ?? "", r.schedule, r.times.joined(separator: ","),
             r.stock.map(String.init) ?? "", r.group ?? ""]
        }
        for line in TextTable.render(table) { Output.line(line) }
    }
}

/// Left-aligned columns separated by two spaces, sized by display width.
enum TextTable {
    static func render(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = Array(repeating: 0, count: columns)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], width(c)) } }
        return rows.map { r in
            r.enumerated().map { i, c in i == r.count - 1 ? c : c + String(repeating: " ", count: widths[i] - width(c)) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    /// Terminal columns: East Asian wide characters and emoji take two.
    static func width(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { n, u in
            let v = u.value
            if u.properties.generalCategory == .nonspacingMark || v == 0xFE0F || v == 0x200D { return n }
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            return n + (wide ? 2 : 1)
        }
    }
}
