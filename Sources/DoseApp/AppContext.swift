import DoseCore
import DoseStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the command line (or any other front end) chose explicitly; nil means "from the
/// environment, else the default".
public struct AppOptions: Sendable, Equatable {
    public var db: String?
    public var dir: String?
    public var lang: Language?
    public var config: String?

    public init(db: String? = nil, dir: String? = nil, lang: Language? = nil, config: String? = nil) {
        self.db = db; self.dir = dir; self.lang = lang; self.config = config
    }
}

/// Where a path or setting in force came from.
public enum SettingOrigin: Sendable, Equatable {
    /// A command-line flag (`--db`).
    case flag(String)
    /// An environment variable (`DOSEBAR_DB`, or `XDG_DATA_HOME` for a default under it).
    case environment(String)
    /// The config file.
    case configFile
    /// Built in (or the system's, for the time zone).
    case `default`

    /// `flag`, `environment`, `config` or `default`, for JSON.
    public var kind: String {
        switch self {
        case .flag: "flag"
        case .environment: "environment"
        case .configFile: "config"
        case .default: "default"
        }
    }

    /// The flag or variable's name, if any.
    public var name: String? {
        switch self {
        case .flag(let n), .environment(let n): n
        case .configFile, .default: nil
        }
    }
}

/// Everything a command needs from the outside world, built once in `run()`:
/// the clock, the time zone, paths, config and language. Tests build their own through the environment.
public struct AppContext: Sendable {
    public let options: AppOptions
    public let env: [String: String]
    public let now: Date
    /// The zone days are judged in: the zone log's (DESIGN §3 "Where the person is") once a command
    /// followed it (``ZoneService/follow()``), else this device's.
    public internal(set) var zone: Zone
    /// This device's own zone: `TZ`, else the system's.
    public let systemZone: Zone
    /// Set when `TZ` names no known zone (it then falls back to UTC).
    public let zoneProblem: String?
    public let dbPath: String
    public let dirPath: String
    /// Set when the shared directory fell back to the state directory.
    public let dirFallback: Bool
    public let configPath: String
    public let config: Config
    /// Set when the config file has an error and the context was built with `configErrors: .useDefaults`
    /// (`take`, `skip`, `undo`: a config typo must never lose a dose); `config` is then the defaults.
    public let configProblem: String?
    /// Whether the database path is the default location (not `--db` or `DOSEBAR_DB`): only its
    /// directories are ever created, and a command that reads shows it as empty while it does not exist.
    public let dbIsDefault: Bool

    /// What a config file with an error does.
    public enum ConfigErrors: Sendable {
        /// Throws it (exit 78): every command but the ones that record doses.
        case fail
        /// Keeps it in ``configProblem`` and goes on with the defaults.
        case useDefaults
    }
    public let catalog: Catalog
    /// Where each path and setting in force came from (`dosebar config`).
    public let origins: Origins
    /// The refresh the changes committed in this context owe (``WriteScope``).
    let owedRefresh = OwedRefresh()
    /// The database ``HeadStart`` opened for this context, handed out by `openStore(.read)`.
    private(set) var opened: DoseStore?

    /// Where the database, shared directory, config file, language and zone in force came from.
    public struct Origins: Sendable, Equatable {
        public var db: SettingOrigin
        public var dir: SettingOrigin
        public var config: SettingOrigin
        public var language: SettingOrigin
        public var zone: SettingOrigin
    }

    public var today: LocalDate { zone.date(of: now) }

    public init(_ options: AppOptions, env: [String: String] = ProcessEnvironment.current(),
                configErrors: ConfigErrors = .fail) throws {
        self.options = options
        self.env = env
        now = try AppContext.clock(env)
        (systemZone, zoneProblem) = AppContext.timeZone(env)
        zone = systemZone
        let home = env["HOME"] ?? NSHomeDirectory()
        func xdg(_ key: String, _ fallback: String) -> (String, SettingOrigin) {
            if let v = env[key], v.hasPrefix("/") { return (v, .environment(key)) }
            return (home + "/" + fallback, .default)
        }
        func nonEmpty(_ key: String) -> String? { env[key].flatMap { $0.isEmpty ? nil : $0 } }
        var origins = Origins(db: .default, dir: .default, config: .default, language: .default,
                              zone: env["TZ"].map { $0.isEmpty ? .default : .environment("TZ") } ?? .default)
        if let db = options.db {
            dbPath = db; origins.db = .flag("--db")
        } else if let db = nonEmpty("DOSEBAR_DB") {
            dbPath = db; origins.db = .environment("DOSEBAR_DB")
        } else {
            let (data, origin) = xdg("XDG_DATA_HOME", ".local/share")
            dbPath = data + "/dosebar/dosebar.sqlite"; origins.db = origin
        }
        dbIsDefault = options.db == nil && nonEmpty("DOSEBAR_DB") == nil
        if !dbIsDefault { try AppContext.checkDatabasePath(dbPath, from: options.db != nil ? "--db" : "DOSEBAR_DB") }
        if let dir = options.dir {
            dirPath = dir; dirFallback = false; origins.dir = .flag("--dir")
        } else if let dir = nonEmpty("DOSEBAR_DIR") {
            dirPath = dir; dirFallback = false; origins.dir = .environment("DOSEBAR_DIR")
        } else if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            dirPath = runtime + "/dosebar"; dirFallback = false; origins.dir = .environment("XDG_RUNTIME_DIR")
        } else {
            let (state, origin) = xdg("XDG_STATE_HOME", ".local/state")
            dirPath = state + "/dosebar/shared"; dirFallback = true; origins.dir = origin
        }
        if let config = options.config {
            configPath = config; origins.config = .flag("--config")
        } else {
            let (base, origin) = xdg("XDG_CONFIG_HOME", ".config")
            configPath = base + "/dosebar/config.toml"; origins.config = origin
        }
        do {
            config = try Config.load(path: configPath, required: options.config != nil)
            configProblem = nil
        } catch where configErrors == .useDefaults {
            config = Config()
            configProblem = (error as? DosebarError)?.description ?? "\(configPath): \(error)"
        }
        let lang: String?
        if let flag = options.lang {
            lang = flag.rawValue; origins.language = .flag("--lang")
        } else if let file = config.language {
            lang = file.rawValue; origins.language = .configFile
        } else if let name = ["LC_ALL", "LC_MESSAGES", "LANG"].first(where: { nonEmpty($0) != nil }) {
            lang = env[name]; origins.language = .environment(name)
        } else {
            lang = nil
        }
        catalog = Catalog.forLanguage(lang)
        self.origins = origins
    }

    /// `DOSEBAR_NOW` replaces the clock (tests, replays).
    public static func clock(_ env: [String: String]) throws -> Date {
        try fixedClock(env) ?? Date()
    }

    /// The instant `DOSEBAR_NOW` names, nil when it is unset or empty (the system clock): the one
    /// place it is read.
    public static func fixedClock(_ env: [String: String]) throws -> Date? {
        guard let text = env["DOSEBAR_NOW"], !text.isEmpty else { return nil }
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

    /// How a command uses the database when it does not exist yet (DESIGN §9).
    public enum StoreAccess: Sendable {
        /// Creates it (`add`, `import`, `restore`, `sync init`): at the default location with its
        /// directories; at an explicit path only when the directory exists (else exit 74 naming it).
        case create
        /// Never creates it: an explicit path with no database is exit 74 (a mistyped `--db` must not
        /// show, or export, an empty day); the default location with none yet reads as an empty
        /// database, in memory, so `today` says "no medicines" and nothing is left on disk.
        case read
        /// Never creates it, and there must be one (`backup`): exit 74 when there is none.
        case existing
    }

    /// Opens the database as `access` allows. Commands that only read or that change existing
    /// medicines use the default, `.read`; only the ones that bring data in pass `.create`.
    public func openStore(_ access: StoreAccess = .read) throws -> DoseStore {
        if access == .read, let opened { return opened }
        return try openStore(access, changing: true)
    }

    /// `openStore(access)`; `changing: false` opens the database only if that changes nothing in it
    /// (``HeadStart``).
    func openStore(_ access: StoreAccess, changing: Bool) throws -> DoseStore {
        switch access {
        case .create:
            return try DoseStore(path: dbPath, creation: dbIsDefault ? .withDirectories : .inExistingDirectory, clock: gateClock)
        case .read where dbIsDefault && !databaseExists:
            return try DoseStore.inMemory(clock: gateClock)
        case .read:
            return try DoseStore(path: dbPath, creation: .never, changing: changing, clock: gateClock)
        case .existing:
            if dbIsDefault && !databaseExists {
                throw DosebarError.io("no database at \(dbPath) yet; `dosebar add` creates one")
            }
            return try DoseStore(path: dbPath, creation: .never, clock: gateClock)
        }
    }

    /// This context with `store` as the one `openStore(.read)` gives.
    func with(opened store: DoseStore) -> AppContext {
        var context = self
        context.opened = store
        return context
    }

    /// For a command that exits when its work is done: the stores it opens stay open until then
    /// (``DoseStore/keepConnectionsUntilExit()``): closing a connection disposes of GRDB's dispatch
    /// queue, which starts threads the process's exit then waits for.
    public static func exitsWhenDone() {
        DoseStore.keepConnectionsUntilExit()
    }

    /// The name of the newest database migration this build knows (`dosebar --version`).
    public static var schemaMigration: String { DoseStore.schemaMigration }

    /// An explicit database path names a file: a blank one is a usage error (64), a directory
    /// (`--db .`, `--db ~`, `--db dir/`) one line naming the file it could be (74), never a crash.
    static func checkDatabasePath(_ path: String, from source: String) throws {
        guard !path.allSatisfy(\.isWhitespace) else {
            throw DosebarError.usage("\(source) is blank; give the database file's path, e.g. \(source == "--db" ? "--db " : "DOSEBAR_DB=")~/meds.sqlite")
        }
        var info = stat()
        if path.hasSuffix("/") || (stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            let file = (path.hasSuffix("/") ? path : path + "/") + "dosebar.sqlite"
            throw DosebarError.io("\(source) \(path) is a directory; give the database file's path, e.g. \(file)")
        }
    }

    /// Whether something is at the database path (a file SQLite may or may not accept).
    public var databaseExists: Bool {
        var info = stat()
        return stat(dbPath, &info) == 0 || errno != ENOENT
    }

    /// Parses `--at` of take/skip: `HH:MM` (today) or a date-time (`YYYY-MM-DDTHH:MM`, or ISO-8601 with offset).
    public func instant(fromAt text: String) throws -> Date {
        if let t = LocalTime(text) { return try reading(today, t, text) }
        if let d = ISO8601.parse(text) { return d }
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " })
        if parts.count == 2, let date = LocalDate(String(parts[0])), let t = LocalTime(String(parts[1])) {
            return try reading(date, t, text)
        }
        throw DosebarError.usage(catalog.text("usage.at", ["value": text]))
    }

    /// The instant the clock read `time` on `date`. After a flight west one reading can have come
    /// twice, once in each zone: dosebar does not pick one (exit 65 naming both, to be given with
    /// its offset). A reading the clock jumped over (a flight east, a DST gap) is placed as a slot is.
    func reading(_ date: LocalDate, _ time: LocalTime, _ text: String) throws -> Date {
        let found = zone.readings(date, time)
        guard found.count > 1 else { return found.first ?? zone.instant(date, time) }
        let choices = found.map { "\(zone.local($0).iso8601) (\(zone.name(at: $0)))" }
        throw DosebarError.badData(catalog.text("cli.at_twice", ["value": text, "choices": choices.joined(separator: " or ")]))
    }
}
