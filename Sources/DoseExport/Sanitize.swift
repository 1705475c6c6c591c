import DoseCore
import Foundation

/// Text clean-up shared by the renderers.
enum Sanitize {
    /// Replaces line breaks and other control characters (``FieldRules/isControl(_:)``) by a space,
    /// so a value stays on one line.
    static func oneLine(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: FieldRules.isControl) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars { out.append(FieldRules.isControl(u) ? " " : u) }
        return String(out)
    }

    /// Drops control characters except line feeds and tabs (for multi-line fields such as tooltips).
    static func keepingLines(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { FieldRules.isControl($0) && $0 != "\n" && $0 != "\t" }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where !(FieldRules.isControl(u) && u != "\n" && u != "\t") { out.append(u) }
        return String(out)
    }

    /// `& < > " '` as entities: the five characters XML reserves, so Pango markup (waybar) and HTML
    /// (the report) alike show a user's string as text, in element content and quoted attributes.
    static func markup(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 39 || $0 == 34 }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
