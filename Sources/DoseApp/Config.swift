import DoseCore
import DoseExport
import Foundation
import TOMLKit

/// The user's `config.toml`: language, icon set, colours, text templates, default window and
/// which bars the daemon nudges. Every key is optional; an unknown key or a wrong type is an
/// error naming its line.
///
/// ```toml
/// language = "ko"          # en | ko (default: LANG)
/// icons = "nerd"           # emoji | nerd | ascii
/// window = "90m"           # default tolerance for new medicines
///
/// [colors]                 # per day state, #rrggbb
/// late = "#ff5555"
///
/// [templates]              # per output format; placeholders {icon} {text} {taken} {total} …
/// waybar = "{icon} {taken}/{total}"
///
/// [nudge]                  # what the daemon pokes after each write
/// waybar_signal = 8        # SIGRTMIN+8 to processes named waybar (0 = off)
/// polybar = true           # polybar-msg action dosebar hook 0
/// tmux = true              # tmux refresh-client -S
/// i3blocks_signal = 10     # SIGRTMIN+10 to i3blocks (0 = off)
///
/// [notify]                 # what `daemon --notify` shows besides reminders
/// clicks = true            # confirm a dose taken without a terminal (with Undo), and say what
///                          # is next when a click took nothing
/// repeat = "10m"           # show an unanswered reminder again this often (default off; a
///                          # medicine's own `--repeat` wins)
/// ```
public struct Config: Sendable {
    public var language: Language?
    public var icons: IconSet = .emoji
    public var window: Int?
    public var colors: [DayState: String] = [:]
    public var templates: [String: String] = [:]
    public var nudge = Nudge()
    /// `[notify] clicks`: the daemon confirms doses recorded without a terminal and answers a click
    /// that recorded nothing (DESIGN §2); false turns both off.
    public var notifyClicks = true
    /// `[notify] repeat`: minutes after which an unanswered reminder comes again, for the medicines
    /// with no `--repeat` of their own; nil (the default) or 0: never.
    public var notifyRepeat: Int?
    /// The keys the file set (`language`, `colors.late`, `nudge.tmux` …): the others are defaults.
    public var keysSet: Set<String> = []

    public init() {}

    /// Which bars the daemon pokes after a write.
    /// `[nudge]`: one setting per registered bar nudge (`OutputFormat.nudges`): a signal number
    /// (0 = off) or a switch (1 = on, 0 = off).
    public struct Nudge: Sendable {
        /// The value of each key the file set; the others keep the registry's default.
        public var values: [String: Int] = [:]

        /// The value in force for `nudge`.
        public func value(_ nudge: BarNudge) -> Int { values[nudge.key] ?? nudge.defaultValue }
        /// Whether `nudge` is on (a signal number above 0, or a switch that is on).
        public func isOn(_ nudge: BarNudge) -> Bool { value(nudge) > 0 }
    }

    static let formats = RenderOptions.templateNames

    /// Icons, colours and templates for the renderers, in the catalog's language.
    public func renderOptions(_ catalog: Catalog) -> RenderOptions {
        RenderOptions(icons: icons, colors: RenderOptions.defaultColors.merging(colors) { $1 }, templates: templates,
                      language: Language(rawValue: catalog.language) ?? .en)
    }

    /// Loads `path`; a missing file is the defaults unless `required`.
    public static func load(path: String, required: Bool) throws -> Config {
        guard let data = FileManager.default.contents(atPath: path) else {
            if required || FileManager.default.fileExists(atPath: path) {
                throw DosebarError.config("cannot read config file \(path)")
            }
            return Config()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DosebarError.config("\(path): not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses the text of a config file; errors name `path` and the line.
    public static func parse(_ text: String, path: String) throws -> Config {
        try precheck(text, path: path)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw DosebarError.config("\(path):\(e.source.begin.line): \(e.description)")
        }
        var config = Config()
        let reader = KeyReader(text: text, path: path)
        for (key, value) in table {
            if let t = value.table { for (k, _) in t { config.keysSet.insert(key + "." + k) } } else { config.keysSet.insert(key) }
            switch key {
            case "language":
                let s = try reader.string(value, key, nil)
                guard let language = Language(rawValue: s) else { throw reader.fail(key, nil, "'\(s)' is not en or ko") }
                config.language = language
            case "icons":
                let s = try reader.string(value, key, nil)
                guard let set = IconSet.named(s) else { throw reader.fail(key, nil, "'\(s)' is not emoji, nerd or ascii") }
                config.icons = set
            case "window":
                do { config.window = try InputParser.duration(try reader.string(value, key, nil), flag: "window") }
                catch let e as DosebarError { throw reader.fail(key, nil, e.description) }
            case "colors": config.colors = try colors(value, reader)
            case "templates": config.templates = try templates(value, reader)
            case "nudge": config.nudge = try nudge(value, reader)
            case "notify": (config.notifyClicks, config.notifyRepeat) = try notify(value, reader)
            default:
                throw reader.fail(key, nil, "unknown key (known: language, icons, window, [colors], [templates], [nudge], [notify])")
            }
        }
        return config
    }

    /// Finds a key's line for an error and reads typed values.
    struct KeyReader {
        let text: String
        let path: String

        func fail(_ key: String, _ section: String?, _ why: String) -> DosebarError {
            .config("\(path):\(Config.line(of: key, section: section, in: text)): \(section.map { "[\($0)] " } ?? "")\(key): \(why)")
        }

        func string(_ v: TOMLValueConvertible, _ key: String, _ section: String?) throws -> String {
            guard let s = v.string else { throw fail(key, section, "expected a string in quotes") }
            return s
        }
    }

    /// `[colors]`: a `#rrggbb` per day state.
    static func colors(_ value: TOMLValueConvertible, _ reader: KeyReader) throws -> [DayState: String] {
        guard let t = value.table else { throw reader.fail("colors", nil, "expected a [colors] table") }
        var colors: [DayState: String] = [:]
        for (k, v) in t {
            guard let state = DayState(rawValue: k) else {
                throw reader.fail(k, "colors", "unknown state (use \(DayState.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let c = try reader.string(v, k, "colors")
            guard RenderOptions.isValidColor(c) else { throw reader.fail(k, "colors", "'\(c)' is not a colour like #ff5555") }
            colors[state] = c
        }
        return colors
    }

    /// `[templates]`: a text template per output format.
    static func templates(_ value: TOMLValueConvertible, _ reader: KeyReader) throws -> [String: String] {
        guard let t = value.table else { throw reader.fail("templates", nil, "expected a [templates] table") }
        var templates: [String: String] = [:]
        for (k, v) in t {
            guard formats.contains(k) else { throw reader.fail(k, "templates", "unknown format (use \(formats.joined(separator: ", ")))") }
            templates[k] = try reader.string(v, k, "templates")
        }
        return templates
    }

    /// `[nudge]`: which bars the daemon pokes.
    static func nudge(_ value: TOMLValueConvertible, _ reader: KeyReader) throws -> Nudge {
        guard let t = value.table else { throw reader.fail("nudge", nil, "expected a [nudge] table") }
        var nudge = Nudge()
        for (k, v) in t {
            guard let known = OutputFormat.nudges.first(where: { $0.key == k }) else {
                throw reader.fail(k, "nudge", "unknown key (use \(OutputFormat.nudges.map(\.key).joined(separator: ", ")))")
            }
            if known.isSignal {
                guard let n = v.int, (0...30).contains(n) else { throw reader.fail(k, "nudge", "expected a number 0–30 (0 = off)") }
                nudge.values[k] = n
            } else {
                guard let b = v.bool else { throw reader.fail(k, "nudge", "expected true or false") }
                nudge.values[k] = b ? 1 : 0
            }
        }
        return nudge
    }

    /// `[notify]`: `clicks = true|false`, `repeat = "10m"|"off"`.
    static func notify(_ value: TOMLValueConvertible, _ reader: KeyReader) throws -> (clicks: Bool, repeat: Int?) {
        guard let t = value.table else { throw reader.fail("notify", nil, "expected a [notify] table") }
        var clicks = true
        var repeatMinutes: Int?
        for (k, v) in t {
            switch k {
            case "clicks":
                guard let b = v.bool else { throw reader.fail(k, "notify", "expected true or false") }
                clicks = b
            case "repeat":
                guard let text = v.string else { throw reader.fail(k, "notify", "expected a duration like \"10m\", or \"off\"") }
                do { repeatMinutes = try InputParser.repeatMinutes(text, flag: "repeat") } catch {
                    throw reader.fail(k, "notify", "expected whole minutes from 1m to 24h (e.g. \"10m\"), or \"off\", not '\(text)'")
                }
            default:
                throw reader.fail(k, "notify", "unknown key (use clicks, repeat)")
            }
        }
        return (clicks, repeatMinutes)
    }

    /// Accepts only the TOML dosebar's config uses — `[table]` headers and `key = "string" | 'string'
    /// | integer | true | false` lines, with comments — before TOMLKit sees the text: its bundled
    /// toml++ aborts the process on some malformed input (`[` alone on a line) instead of throwing.
    static func precheck(_ text: String, path: String) throws {
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            func fail(_ why: String) -> DosebarError { .config("\(path):\(i + 1): \(why)") }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let bare = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else { throw fail("a table header needs a closing ]") }
                let name = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)
                let rest = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.unicodeScalars.allSatisfy(bare.contains) else {
                    throw fail("'\(line)' is not a table header like [colors]")
                }
                guard rest.isEmpty || rest.hasPrefix("#") else { throw fail("unexpected text after [\(name)]") }
                continue
            }
            guard let eq = line.firstIndex(of: "=") else { throw fail("expected key = value") }
            var key = line[..<eq].trimmingCharacters(in: .whitespaces)
            if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
            guard !key.isEmpty, key.unicodeScalars.allSatisfy(bare.contains) else {
                throw fail("'\(key)' is not a plain key (letters, digits, _ and -)")
            }
            var value = Substring(line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces))
            if let quote = value.first, quote == "\"" || quote == "'" {
                var j = value.index(after: value.startIndex)
                var closed = false
                while j < value.endIndex {
                    let c = value[j]
                    if quote == "\"" && c == "\\" {
                        j = value.index(after: j)
                        guard j < value.endIndex else { break }
                    } else if c == quote { closed = true; break }
                    j = value.index(after: j)
                }
                guard closed else { throw fail("the string for \(key) is not closed on its line") }
                value = value[value.index(after: j)...]
            } else {
                let token = value.prefix { !$0.isWhitespace && $0 != "#" }
                let t = String(token)
                guard t == "true" || t == "false" || Int(t.replacingOccurrences(of: "_", with: "")) != nil else {
                    throw fail("the value of \(key) must be a \"string\", a number, true or false")
                }
                value = value.dropFirst(token.count)
            }
            let rest = value.trimmingCharacters(in: .whitespaces)
            guard rest.isEmpty || rest.hasPrefix("#") else { throw fail("unexpected text after the value of \(key)") }
        }
    }

    /// The 1-based line where `key` is assigned (inside `[section]` if given), for error messages.
    static func line(of key: String, section: String?, in text: String) -> Int {
        var current: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let l = raw.trimmingCharacters(in: .whitespaces)
            if l.hasPrefix("[") {
                current = l.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if section == nil && current == key { return i + 1 }
                continue
            }
            let name = l.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
            if current == section, name == key || name == "\"\(key)\"" { return i + 1 }
        }
        return 1
    }
}
