import DoseCore
import DoseStore
import Foundation

/// What the command line (or any other front end) chose explicitly; nil means "from the
/// environment, else the default".
public struct AppOptions: Sendable {
    public var db: String?
    public var dir: String?
    public var lang: Language?
    public var config: String?

    public init(db: String? = nil, dir: String? = nil, lang: Language? = nil, config: String? = nil) {
        self.db = db; self.dir = dir; self.lang = lang; self.config = config
    }
}

/// Everything a command needs from the outside world, built once in `run()`:
/// the clock, the time zone, paths, config and language. Tests build their own through the environment.
public struct AppContext: Sendable {
    public let options: AppOptions
    public let env: [String: String]
    public let now: Date
    public let zone: Zone
    /// Set when `TZ` names no known zone (it then falls back to UTC).
    public let zoneProblem: String?
    public let dbPath: String
    public let dirPath: String
    /// Set when the shared directory fell back to the state directory.
    public let dirFallback: Bool
    public let configPath: String
    public let config: Config
    public let catalog: Catalog

    public var today: LocalDate { zone.date(of: now) }

    public init(_ options: AppOptions, env: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.options = options
        self.env = env
        now = try AppContext.clock(env)
        (zone, zoneProblem) = AppContext.timeZone(env)
        let home = env["HOME"] ?? NSHomeDirectory()
        func xdg(_ key: String, _ fallback: String) -> String {
            if let v = env[key], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        dbPath = options.db ?? env["DOSEBAR_DB"].flatMap { $0.isEmpty ? nil : $0 }
            ?? xdg("XDG_DATA_HOME", ".local/share") + "/dosebar/dosebar.sqlite"
        if let dir = options.dir ?? env["DOSEBAR_DIR"].flatMap({ $0.isEmpty ? nil : $0 }) {
            dirPath = dir; dirFallback = false
        } else if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            dirPath = runtime + "/dosebar"; dirFallback = false
        } else {
            dirPath = xdg("XDG_STATE_HOME", ".local/state") + "/dosebar/shared"; dirFallback = true
        }
        configPath = options.config ?? xdg("XDG_CONFIG_HOME", ".config") + "/dosebar/config.toml"
        config = try Config.load(path: configPath, required: options.config != nil)
        let lang = options.lang?.rawValue ?? config.language?.rawValue ?? env["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? env["LC_MESSAGES"].flatMap { $0.isEmpty ? nil : $0 } ?? env["LANG"]
        catalog = Catalog.forLanguage(lang)
    }

    /// `DOSEBAR_NOW` replaces the clock (tests, replays).
    public static func clock(_ env: [String: String]) throws -> Date {
        guard let text = env["DOSEBAR_NOW"], !text.isEmpty else { return Date() }
        guard let date = ISO8601.parse(text) else {
            throw DosebarError.usage("DOSEBAR_NOW: '\(text)' is not an ISO-8601 instant with an offset (e.g. 2026-11-22T08:30:00+09:00)")
        }
        return date
    }

    /// `TZ` if set (a name, `:name` or a zoneinfo path), else the system's zone.
    public static func timeZone(_ env: [String: String]) -> (Zone, String?) {
        guard var name = env["TZ"], !name.isEmpty else { return (Zone(TimeZone.current), nil) }
        if name.hasPrefix(":") { name.removeFirst() }
        if let r = name.range(of: "zoneinfo/") { name = String(name[r.upperBound...]) }
        if let tz = TimeZone(identifier: name) { return (Zone(tz, name: name), nil) }
        return (Zone(TimeZone(identifier: "UTC")!, name: "UTC"), "TZ='\(env["TZ"]!)' is not a known time zone; using UTC (set TZ to a name like Asia/Seoul)")
    }

    /// Opens (creating if needed) the database, with ``gateClock`` as its validation gate's "now".
    public func openStore() throws -> DoseStore { try DoseStore(path: dbPath, clock: gateClock) }

    /// Parses `--at` of take/skip: `HH:MM` (today) or a date-time (`YYYY-MM-DDTHH:MM`, or ISO-8601 with offset).
    public func instant(fromAt text: String) throws -> Date {
        if let t = LocalTime(text) { return zone.instant(today, t) }
        if let d = ISO8601.parse(text) { return d }
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " })
        if parts.count == 2, let date = LocalDate(String(parts[0])), let t = LocalTime(String(parts[1])) {
            return zone.instant(date, t)
        }
        throw DosebarError.usage("--at: '\(text)' is not a time (use HH:MM or YYYY-MM-DDTHH:MM)")
    }
}
