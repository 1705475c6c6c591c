import ArgumentParser
import DoseApp
import DoseCore
import DoseExport
import Foundation

/// `dosebar config`: every path and setting in force, and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the paths and settings in force, and where each came from.",
        usage: "dosebar config [--json] [<global options>]",
        discussion: """
        Each line names a setting, its value and its source: a flag (--db), an environment \
        variable (DOSEBAR_DB, XDG_DATA_HOME, TZ, LANG …), the config file, or the default. \
        A config file with an error is named with the error; the defaults are shown.

        Examples:
          $ dosebar config
          $ dosebar config --json | jq -r .database.value
        """
    )

    @Flag(name: .long, help: "Print JSON: {setting: {value, source, name?, …}}.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    /// One setting: its JSON key, its label, its value (text and JSON), its origin and notes.
    struct Row {
        var key: String
        var label: String
        var text: String
        var value: Any
        var origin: SettingOrigin
        var extra: [String: Any] = [:]
        var notes: [String] = []
    }

    func run() throws {
        // A config file with an error is what this command is for: show it, not exit 78.
        let context = try AppContext(global.options, configErrors: .useDefaults)
        let c = context.catalog
        let fm = FileManager.default
        var rows: [Row] = []

        var db = Row(key: "database", label: c.text("config.database"), text: context.dbPath, value: context.dbPath,
                     origin: context.origins.db, extra: ["exists": context.databaseExists])
        if !context.databaseExists { db.notes.append(c.text("config.missing")) }
        rows.append(db)

        let configExists = fm.fileExists(atPath: context.configPath)
        var file = Row(key: "config_file", label: c.text("config.config_file"), text: context.configPath, value: context.configPath,
                       origin: context.origins.config, extra: ["exists": configExists])
        if !configExists { file.notes.append(c.text("config.missing")) }
        if let problem = context.configProblem {
            file.extra["problem"] = problem
            file.notes.append(c.text("config.problem", ["problem": problem]))
        }
        rows.append(file)

        var dir = Row(key: "shared_directory", label: c.text("config.dir"), text: context.dirPath, value: context.dirPath,
                      origin: context.origins.dir, extra: ["fallback": context.dirFallback])
        if context.dirFallback { dir.notes.append(c.text("config.dir_fallback")) }
        rows.append(dir)

        rows.append(Row(key: "language", label: c.text("config.language"), text: c.language, value: c.language,
                        origin: context.origins.language))

        var zone = Row(key: "time_zone", label: c.text("config.zone"), text: context.zone.identifier,
                       value: context.zone.identifier, origin: context.origins.zone,
                       extra: ["fallback": context.zoneProblem != nil])
        if context.zoneProblem != nil {
            zone.extra["problem"] = context.zoneProblem
            zone.notes.append(c.text("config.bad_tz", ["tz": context.env["TZ"] ?? ""]))
        }
        rows.append(zone)

        // DOSEBAR_NOW replaces the clock (tests, replays): worth seeing when it is left set.
        let fixed = (try? AppContext.fixedClock(context.env)) != nil
        let now = context.zone.local(context.now).iso8601
        rows.append(Row(key: "clock", label: c.text("config.clock"), text: fixed ? now : c.text("config.system_clock"),
                        value: fixed ? now as Any : NSNull(), origin: fixed ? .environment("DOSEBAR_NOW") : .default))

        // The config file's settings, labelled by their key in config.toml.
        let config = context.config
        func origin(_ key: String) -> SettingOrigin { config.keysSet.contains(key) ? .configFile : .default }
        rows.append(Row(key: "icons", label: "icons", text: config.icons.name, value: config.icons.name, origin: origin("icons")))
        let window = config.window ?? Schedule.defaultWindow
        rows.append(Row(key: "window", label: "window", text: c.minutes(window / 60), value: window / 60,
                        origin: origin("window")))
        let options = config.renderOptions(c)
        for state in DayState.allCases {
            let value = options.colors[state] ?? ""
            rows.append(Row(key: "colors." + state.rawValue, label: "colors." + state.rawValue,
                            text: value.isEmpty ? c.text("config.no_color") : value, value: value,
                            origin: origin("colors." + state.rawValue)))
        }
        for name in RenderOptions.templateNames {
            let value = options.template(name)
            rows.append(Row(key: "templates." + name, label: "templates." + name, text: "\"\(value)\"", value: value,
                            origin: origin("templates." + name)))
        }
        for nudge in OutputFormat.nudges {
            let key = nudge.key
            let value: Any = nudge.isSignal ? config.nudge.value(nudge) : config.nudge.isOn(nudge)
            rows.append(Row(key: "nudge." + key, label: "nudge." + key, text: "\(value)", value: value, origin: origin("nudge." + key)))
        }

        if json { try printJSON(rows) } else { printText(rows, c) }
    }

    /// `label  value  (source)`, the source on its own line when the line would pass 80 columns.
    func printText(_ rows: [Row], _ c: Catalog) {
        let width = rows.map { TextTable.width($0.label) }.max() ?? 0
        for row in rows {
            let label = row.label + String(repeating: " ", count: width - TextTable.width(row.label) + 2)
            let source = "(" + ([source(row.origin, c)] + row.notes).joined(separator: "; ") + ")"
            let line = label + row.text + "  " + source
            if TextTable.width(line) <= 80 {
                Output.line(line)
            } else {
                Output.line(label + row.text)
                Output.line(String(repeating: " ", count: width + 2) + source)
            }
        }
    }

    func source(_ origin: SettingOrigin, _ c: Catalog) -> String {
        switch origin {
        case .flag(let name): c.text("config.from.flag", ["name": name])
        case .environment(let name): c.text("config.from.env", ["name": name])
        case .configFile: c.text("config.from.file")
        case .default: c.text("config.from.default")
        }
    }

    func printJSON(_ rows: [Row]) throws {
        var top: [String: Any] = [:]
        for row in rows {
            var entry = row.extra
            entry["value"] = row.value
            entry["source"] = row.origin.kind
            if let name = row.origin.name { entry["name"] = name }
            let parts = row.key.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                var group = top[parts[0]] as? [String: Any] ?? [:]
                group[parts[1]] = entry
                top[parts[0]] = group
            } else {
                top[row.key] = entry
            }
        }
        let data = try JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        Output.line(String(decoding: data, as: UTF8.self))
    }
}
