import Foundation
import DoseCore

/// How the bar outputs look: icon set, a colour per day state and a text template per
/// format. Pure data, filled from the config file (`icons`, `[colors]`, `[templates]`).
public struct RenderOptions: Hashable, Sendable {
    /// Icons behind the `{icon}` placeholder (config `icons = "emoji" | "nerd" | "ascii"`).
    public var icons: IconSet
    /// `#rrggbb` per day state (config `[colors] late = "#e5484d"`); an empty string means
    /// the bar's own foreground colour; a missing state falls back to `defaultColors`.
    public var colors: [DayState: String]
    /// Template per name in `templateNames` (config `[templates] waybar = "{icon} {taken}/{total}"`);
    /// a missing name falls back to `defaultTemplates`.
    public var templates: [String: String]

    /// The language of the words a renderer adds itself (conky's per-dose status words and
    /// lateness), from DoseCore's catalog; English by default.
    public var language: Language

    /// Options with the given overrides on top of the defaults.
    public init(icons: IconSet = .emoji, colors: [DayState: String] = RenderOptions.defaultColors,
                templates: [String: String] = [:], language: Language = .en) {
        self.icons = icons
        self.colors = colors
        self.templates = templates
        self.language = language
    }

    /// The catalog of `language`.
    public var catalog: Catalog { Catalog.of(language) }

    /// Late red, due orange, done green, missed dark red, rest blue-grey, nothing grey,
    /// upcoming in the bar's own foreground (empty string).
    public static let defaultColors: [DayState: String] = [
        .late: "#e5484d", .due: "#f5a524", .done: "#46a758", .missed: "#a1191e",
        .rest: "#7c8da6", .none: "#8b8b8b", .empty: "#8b8b8b", .upcoming: "",
    ]

    /// Every `[templates]` key, from the format registry (`OutputFormat.templates`).
    public static let templateNames: [String] = OutputFormat.defaultTemplates.map(\.key)

    /// Each template's default, from the format registry.
    public static let defaultTemplates: [String: String] =
        Dictionary(uniqueKeysWithValues: OutputFormat.defaultTemplates.map { ($0.key, $0.template) })

    /// The template in force for `name`.
    public func template(_ name: String) -> String {
        templates[name] ?? RenderOptions.defaultTemplates[name] ?? "{text}"
    }

    /// The `#rrggbb` colour for `state`, or nil for the bar's own foreground (also when
    /// the configured value is not a valid colour).
    public func color(for state: DayState) -> String? {
        let value = colors[state] ?? RenderOptions.defaultColors[state] ?? ""
        return RenderOptions.isValidColor(value) ? value : nil
    }

    /// Whether `value` is `#rrggbb` (hex digits, either case): the one colour form every bar accepts.
    public static func isValidColor(_ value: String) -> Bool {
        let u = Array(value.utf8)
        guard u.count == 7, u[0] == UInt8(ascii: "#") else { return false }
        return u.dropFirst().allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }
}
