// waybar.json — for a Waybar `custom` module with `return-type: json` (waybar-custom(5)).
//
// Output: one line of JSON
//   {"text": …, "alt": <state>, "tooltip": …, "class": <state>, "percentage": <progress>}
// `text` is the expanded `waybar` template; `tooltip` is the snapshot's tooltip. Waybar
// parses both as Pango markup, so every substituted value (and the tooltip) is escaped:
// & < > ' " become &amp; &lt; &gt; &#39; &quot; (as g_markup_escape_text does). The
// template itself is not escaped, so it may hold markup such as <b>{taken}</b>.
// `alt` selects an entry of `format-icons`; `class` is the CSS class to style (colours
// live in style.css, e.g. `#custom-dosebar.late { color: #e5484d; }`); the `[colors]`
// table is not used here. `percentage` is the integer percent of slots resolved.
//
// Config keys read (defaults):
//   icons = "emoji"                 # {icon}
//   [templates] waybar = "{summary}"   (the text without its icon: waybar adds {icon} itself)
//
// Example (~/.config/waybar/config):
//   "custom/dosebar": {
//       "exec": "dosebar watch --format waybar",
//       "return-type": "json",
//       "format": "{icon} {0}",
//       "format-icons": { "late": "⏰", "due": "💊", "done": "✅", "default": "💊" },
//       "on-click": "dosebar take"
//   }
import DoseCore

/// Renders a snapshot for Waybar's custom module (`waybar.json`, `status --format waybar`).
public enum WaybarRenderer: BarRenderer {
    /// The JSON line, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        let text = Template.expand(options.template("waybar"), snapshot: snapshot, options: options) {
            escapeMarkup(Sanitize.oneLine($0))
        }
        return JSONValue.object { o in
            o.set("text", Sanitize.oneLine(text))
            o.set("alt", snapshot.state.rawValue)
            o.set("tooltip", escapeMarkup(Sanitize.keepingLines(snapshot.tooltip)))
            o.set("class", snapshot.state.rawValue)
            o.set("percentage", snapshot.progress)
        }.text
    }

    /// Escapes the five characters Pango markup reserves.
    public static func escapeMarkup(_ s: String) -> String { Sanitize.markup(s) }
}
