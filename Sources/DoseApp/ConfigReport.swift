import DoseCore
import DoseExport
import Foundation

/// What `dosebar config` shows: every path and setting in force, its value and where it came from
/// (a flag, an environment variable, the config file, the default), with notes (a file missing, a
/// config file's error, a bad `TZ`). Read from a context by ``init(_:)``; ``lines(_:)`` and
/// ``json()`` are the two ways it is printed.
public struct ConfigReport {
    /// One setting: its JSON key (`colors.due` nests under `colors`), its label, its value (text and
    /// JSON), its origin and notes.
    public struct Setting {
        public var key: String
        public var label: String
        public var text: String
        public var value: Any
        public var origin: SettingOrigin
        public var extra: [String: Any] = [:]
        public var notes: [String] = []
    }

    public var settings: [Setting]

    /// The settings `context` runs with: the database, the config file, the shared directory, the
    /// language, the time zone, the clock, then the config file's settings labelled by their key in
    /// config.toml (icons, window, colours, templates, nudges).
    public init(_ context: AppContext) {
        let c = context.catalog
        let fm = FileManager.default
        var rows: [Setting] = []

        var db = Setting(key: "database", label: c.text("config.database"), text: context.dbPath, value: context.dbPath,
                         origin: context.origins.db, extra: ["exists": context.databaseExists])
        if !context.databaseExists { db.notes.append(c.text("config.missing")) }
        rows.append(db)

        let configExists = fm.fileExists(atPath: context.configPath)
        var file = Setting(key: "config_file", label: c.text("config.config_file"), text: context.configPath, value: context.configPath,
                           origin: context.origins.config, extra: ["exists": configExists])
        if !configExists { file.notes.append(c.text("config.missing")) }
        if let problem = context.configProblem {
            file.extra["problem"] = problem
            file.notes.append(c.text("config.problem", ["problem": problem]))
        }
        rows.append(file)

        var dir = Setting(key: "shared_directory", label: c.text("config.dir"), text: context.dirPath, value: context.dirPath,
                          origin: context.origins.dir, extra: ["fallback": context.dirFallback])
        if context.dirFallback { dir.notes.append(c.text("config.dir_fallback")) }
        rows.append(dir)

        rows.append(Setting(key: "language", label: c.text("config.language"), text: c.language, value: c.language,
                            origin: context.origins.language))

        var zone = Setting(key: "time_zone", label: c.text("config.zone"), text: context.zone.identifier,
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
        rows.append(Setting(key: "clock", label: c.text("config.clock"), text: fixed ? now : c.text("config.system_clock"),
                            value: fixed ? now as Any : NSNull(), origin: fixed ? .environment("DOSEBAR_NOW") : .default))

        // The config file's settings, labelled by their key in config.toml.
        let config = context.config
        func origin(_ key: String) -> SettingOrigin { config.keysSet.contains(key) ? .configFile : .default }
        rows.append(Setting(key: "icons", label: "icons", text: config.icons.name, value: config.icons.name, origin: origin("icons")))
        let window = config.window ?? Schedule.defaultWindow
        rows.append(Setting(key: "window", label: "window", text: c.minutes(window / 60), value: window / 60,
                            origin: origin("window")))
        let options = config.renderOptions(c)
        for state in DayState.allCases {
            let value = options.colors[state] ?? ""
            rows.append(Setting(key: "colors." + state.rawValue, label: "colors." + state.rawValue,
                                text: value.isEmpty ? c.text("config.no_color") : value, value: value,
                                origin: origin("colors." + state.rawValue)))
        }
        for name in RenderOptions.templateNames {
            let value = options.template(name)
            rows.append(Setting(key: "templates." + name, label: "templates." + name, text: "\"\(value)\"", value: value,
                                origin: origin("templates." + name)))
        }
        for nudge in OutputFormat.nudges {
            let key = nudge.key
            let value: Any = nudge.isSignal ? config.nudge.value(nudge) : config.nudge.isOn(nudge)
            rows.append(Setting(key: "nudge." + key, label: "nudge." + key, text: "\(value)", value: value, origin: origin("nudge." + key)))
        }
        rows.append(Setting(key: "notify.clicks", label: "notify.clicks", text: "\(config.notifyClicks)", value: config.notifyClicks,
                            origin: origin("notify.clicks")))
        let repeatMinutes = config.notifyRepeat ?? 0
        rows.append(Setting(key: "notify.repeat", label: "notify.repeat",
                            text: repeatMinutes > 0 ? c.minutes(repeatMinutes) : "off", value: repeatMinutes,
                            origin: origin("notify.repeat")))
        settings = rows
    }

    /// `label  value  (source)`, the source on its own line when the line would pass 80 columns.
    public func lines(_ c: Catalog) -> [String] {
        let width = settings.map { TextTable.width($0.label) }.max() ?? 0
        var out: [String] = []
        for row in settings {
            let label = row.label + String(repeating: " ", count: width - TextTable.width(row.label) + 2)
            let source = "(" + ([Self.source(row.origin, c)] + row.notes).joined(separator: "; ") + ")"
            let line = label + row.text + "  " + source
            if TextTable.width(line) <= 80 {
                out.append(line)
            } else {
                out.append(label + row.text)
                out.append(String(repeating: " ", count: width + 2) + source)
            }
        }
        return out
    }

    /// Where a setting came from, in words.
    static func source(_ origin: SettingOrigin, _ c: Catalog) -> String {
        switch origin {
        case .flag(let name): c.text("config.from.flag", ["name": name])
        case .environment(let name): c.text("config.from.env", ["name": name])
        case .configFile: c.text("config.from.file")
        case .default: c.text("config.from.default")
        }
    }

    /// `config --json`: `{setting: {value, source, name?, …}}`, `colors.due` as `colors: {due: …}`.
    public func json() throws -> String {
        var top: [String: Any] = [:]
        for row in settings {
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
        return String(decoding: data, as: UTF8.self)
    }
}
