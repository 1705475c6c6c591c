import DoseCore

/// Expands the `{placeholder}`s of a bar template from a snapshot. The template itself is
/// trusted (it comes from the user's config and may hold bar markup); every substituted
/// value goes through the format's escaping. Unknown placeholders stay as written.
public enum Template {
    /// Every placeholder a template may use, without braces.
    public static let placeholders: [String] = [
        "icon", "text", "summary", "taken", "total", "progress", "state", "next", "next_time", "message", "streak",
    ]

    /// The value of one placeholder, unescaped; nil for an unknown name.
    ///
    /// `{taken}` counts resolved slots (taken + skipped), `{next_time}` is the local `HH:MM`
    /// of the next dose, `{next}`/`{next_time}` are empty when nothing is next.
    public static func value(of name: Substring, in snapshot: Snapshot, options: RenderOptions) -> String? {
        switch name {
        case "icon": options.icons[snapshot.state]
        case "text": snapshot.text
        case "summary": summary(of: snapshot, options: options)
        case "taken": String(snapshot.counts.taken + snapshot.counts.skipped)
        case "total": String(snapshot.counts.total)
        case "progress": String(snapshot.progress)
        case "state": snapshot.state.rawValue
        case "next": snapshot.next?.medication ?? ""
        case "next_time": snapshot.next?.scheduled.clock ?? ""
        case "message": snapshot.message.text
        case "streak": String(snapshot.streak.current)
        default: nil
        }
    }

    /// The snapshot's text without its leading icon, for bars that draw the icon themselves
    /// (waybar's `format: "{icon} {0}"` with `format-icons`).
    public static func summary(of snapshot: Snapshot, options: RenderOptions) -> String {
        let prefix = options.icons[snapshot.state] + " "
        return snapshot.text.hasPrefix(prefix) ? String(snapshot.text.dropFirst(prefix.count)) : snapshot.text
    }

    /// `template` with each known `{name}` replaced by `escape(value)`.
    public static func expand(_ template: String, snapshot: Snapshot, options: RenderOptions,
                              escape: (String) -> String) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}" else {
                // No closing brace before the next opening one: keep the `{` literally.
                out += "{"
                rest = rest[afterOpen...]
                continue
            }
            let name = rest[afterOpen..<close]
            if let value = value(of: name, in: snapshot, options: options) {
                out += escape(value)
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }
}
