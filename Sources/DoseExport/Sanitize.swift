import Foundation

/// Text clean-up shared by the renderers.
enum Sanitize {
    /// Replaces line breaks and other control characters by a space, so a value stays on one line.
    static func oneLine(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars { out.append(isControl(u) ? " " : u) }
        return String(out)
    }

    /// Drops control characters except line feeds and tabs (for multi-line fields such as tooltips).
    static func keepingLines(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where !(isControl(u) && u != "\n" && u != "\t") { out.append(u) }
        return String(out)
    }

    /// C0, DEL, C1 and the Unicode line/paragraph separators.
    static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7f...0x9f).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }
}
