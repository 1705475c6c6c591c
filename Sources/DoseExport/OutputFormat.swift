import DoseCore

/// Every output dosebar renders, registered once: its name (`status --format NAME`,
/// `watch --format NAME`), its file in the shared directory, its config templates and their
/// defaults, whether `watch` streams it, how the daemon nudges its bar, and its renderer.
/// The exporter (writing order), `watch`, `doctor`, the config (`[templates]`, `[nudge]`) and the
/// golden tests all read this list.
///
/// Adding a bar format is its renderer (a `BarRenderer`) plus one entry in `all`
/// (`OutputFormatRegistryTests` fails for a `BarRenderer` of DoseExport that no entry uses).
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible {
    /// The name on the command line and in the config's `[templates]`.
    public let name: String
    /// The file in the shared directory that holds this format's current output.
    public let fileName: String
    /// The config `[templates]` keys this format renders with, each with its default (i3blocks has a
    /// full and a short text). Empty for a format without a template (json).
    public let templates: [(key: String, template: String)]
    /// Whether `watch --format NAME` streams it (a bar that reads a line per change from a pipe).
    public let streams: Bool
    /// How the daemon tells the bar that the file changed; nil for a bar that watches or polls.
    public let nudge: BarNudge?
    /// The program that reads it (doctor looks for it on PATH and points at
    /// `integrations/<client>`); nil for a format no bar reads on its own.
    public let client: String?
    /// What renders it.
    public let renderer: any BarRenderer.Type

    /// The rendering of `snapshot`, without a trailing newline (see `Exporter.render`).
    public func render(_ snapshot: Snapshot, options: RenderOptions) -> String { renderer.render(snapshot, options: options) }

    public var description: String { name }
    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    // MARK: The registry

    public static let json = OutputFormat(
        name: "json", fileName: "snapshot.json", templates: [], streams: true, nudge: nil, client: nil,
        renderer: SnapshotJSON.self)
    public static let text = OutputFormat(
        name: "text", fileName: "snapshot.txt", templates: [("text", "{text}")], streams: true, nudge: nil, client: nil,
        renderer: PlainTextRenderer.self)
    /// waybar draws the icon itself (`format-icons`), so its default template is `{summary}`.
    public static let waybar = OutputFormat(
        name: "waybar", fileName: "waybar.json", templates: [("waybar", "{summary}")], streams: true,
        nudge: .signal(process: "waybar", key: "waybar_signal", default: 8), client: "waybar",
        renderer: WaybarRenderer.self)
    public static let polybar = OutputFormat(
        name: "polybar", fileName: "polybar.txt", templates: [("polybar", "{text}")], streams: true,
        nudge: .polybarHook(key: "polybar"), client: "polybar",
        renderer: PolybarRenderer.self)
    public static let tmux = OutputFormat(
        name: "tmux", fileName: "tmux.txt", templates: [("tmux", "{text}")], streams: true,
        nudge: .tmuxRefresh(key: "tmux"), client: "tmux",
        renderer: TmuxRenderer.self)
    /// conky polls `${catp FILE}`: nothing to stream, nothing to nudge.
    public static let conky = OutputFormat(
        name: "conky", fileName: "conky.txt", templates: [("conky", "{text}")], streams: false, nudge: nil, client: "conky",
        renderer: ConkyRenderer.self)
    /// i3blocks has a full and a short text, each with its template.
    public static let i3blocks = OutputFormat(
        name: "i3blocks", fileName: "i3blocks.txt",
        templates: [("i3blocks", "{text}"), ("i3blocks_short", "{icon} {taken}/{total}")], streams: true,
        nudge: .signal(process: "i3blocks", key: "i3blocks_signal", default: 10), client: "i3blocks",
        renderer: I3blocksRenderer.self)

    /// Every format, in writing order (after `timeline.json`), as DESIGN §4 lists the files.
    public static let all: [OutputFormat] = [json, text, waybar, polybar, tmux, conky, i3blocks]

    /// The programs that read `timeline.json` rather than a format of their own.
    public static let timelineClients = ["gnome-shell"]

    // MARK: Derived

    /// Every name `--format` accepts, in documentation order: `text` (the default) first.
    public static let names: [String] = ["text"] + all.map(\.name).filter { $0 != "text" }

    /// The format named `name` (any letter case), or nil.
    public init?(name: String) {
        guard let format = OutputFormat.all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = format
    }

    /// Every `[templates]` key, in registry order, and its default.
    public static let defaultTemplates: [(key: String, template: String)] = all.flatMap(\.templates)

    /// Every bar program doctor looks for, in registry order, then those of `timeline.json`.
    public static let clients: [String] = all.compactMap(\.client) + timelineClients

    /// Every `[nudge]` setting, in registry order.
    public static let nudges: [BarNudge] = all.compactMap(\.nudge)

    private init(name: String, fileName: String, templates: [(String, String)], streams: Bool, nudge: BarNudge?,
                 client: String?, renderer: any BarRenderer.Type) {
        self.name = name; self.fileName = fileName
        self.templates = templates.map { (key: $0.0, template: $0.1) }
        self.streams = streams; self.nudge = nudge; self.client = client; self.renderer = renderer
    }
}

/// A renderer of one output format: a snapshot in, the file's content out (no trailing newline).
public protocol BarRenderer {
    static func render(_ snapshot: Snapshot, options: RenderOptions) -> String
}

extension SnapshotJSON: BarRenderer {
    /// The snapshot object on one line; `json` has no template, icons or colours.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String { self.snapshot(snapshot) }
}

/// How the daemon tells a bar that reads its file on demand that it changed (DESIGN §5), and the
/// `[nudge]` key that turns it off. The daemon's `BarNudger` carries each kind out.
public enum BarNudge: Sendable, Equatable {
    /// `SIGRTMIN+N` to this user's processes whose comm is `process`; `[nudge] key = N` (0 = off).
    case signal(process: String, key: String, default: Int)
    /// `polybar-msg action "#dosebar.hook.0"` (polybar ≥ 3.6) when polybar runs; `[nudge] key = true|false`.
    case polybarHook(key: String)
    /// `tmux refresh-client -S` for every client of every server socket; `[nudge] key = true|false`.
    case tmuxRefresh(key: String)

    /// The `[nudge]` key.
    public var key: String {
        switch self {
        case .signal(_, let key, _), .polybarHook(let key), .tmuxRefresh(let key): key
        }
    }

    /// The setting's default: a signal number, or 1 (on) for a switch.
    public var defaultValue: Int {
        if case .signal(_, _, let n) = self { return n }
        return 1
    }

    /// Whether the setting is a signal number (0–30) rather than a switch (true/false).
    public var isSignal: Bool {
        if case .signal = self { return true }
        return false
    }
}
