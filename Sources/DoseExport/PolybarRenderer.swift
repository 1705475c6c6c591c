// polybar.txt — for a polybar `custom/script` module (polybar wiki: Formatting).
//
// Output: one line `%{F#rrggbb}<expanded polybar template>%{F-}`, the colour being the
// day state's (no tag at all when that colour is the bar's own foreground).
// Polybar has no escape for a literal `%{`: its tag parser starts a tag at any `%`
// followed by `{`. So in every substituted value a `%` that is followed by `{` — or that
// ends the value, where the template could put a `{` next — gets a ZERO WIDTH SPACE
// (U+200B) after it: it renders as nothing and a medicine called `%{F#f00}` shows as
// typed instead of turning the bar red. Line breaks become spaces (polybar reads lines).
// The template is trusted and may hold tags, e.g. `%{A1:dosebar take:}{text}%{A}`.
//
// Config keys read (defaults):
//   icons = "emoji"                                     # {icon}
//   [colors] late = "#e5484d"  due = "#f5a524"  done = "#46a758"  missed = "#a1191e"
//            rest = "#7c8da6"  none = "#8b8b8b"  empty = "#8b8b8b"  upcoming = ""  ("" = bar foreground)
//   [templates] polybar = "{text}"
//
// Example (~/.config/polybar/config.ini):
//   [module/dosebar]
//   type = custom/script
//   exec = dosebar watch --format polybar
//   tail = true
//   click-left = dosebar take
import DoseCore

/// Renders a snapshot for polybar (`polybar.txt`, `status --format polybar`).
public enum PolybarRenderer: BarRenderer {
    /// The line, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        let body = Template.expand(options.template("polybar"), snapshot: snapshot, options: options, escape: sanitize)
        guard let color = options.color(for: snapshot.state) else { return Sanitize.oneLine(body) }
        return "%{F\(color)}" + Sanitize.oneLine(body) + "%{F-}"
    }

    /// Makes user text inert for polybar's tag parser (see the header) and puts it on one line.
    public static func sanitize(_ s: String) -> String {
        let s = Sanitize.oneLine(s)
        guard s.contains("%") else { return s }
        var out = String.UnicodeScalarView()
        let scalars = Array(s.unicodeScalars)
        for (i, u) in scalars.enumerated() {
            out.append(u)
            if u == "%" && (i + 1 == scalars.count || scalars[i + 1] == "{") { out.append("\u{200B}") }
        }
        return String(out)
    }
}
