// tmux.txt — for tmux's status line, through `#(cat …/tmux.txt)` (tmux(1) FORMATS, STYLES).
//
// Output: one line `#[fg=#rrggbb]<expanded tmux template>#[default]` (no style when the
// colour is the bar's own foreground). tmux expands the output of `#()` as a format, so
// every `#` in a substituted value is doubled (`##` is a literal `#`): a medicine called
// `#{pane_pid}` or `#[fg=red]` shows as typed. Line breaks become spaces (tmux reads one line).
//
// Config keys read (defaults):
//   icons = "emoji"                                   # {icon}
//   [colors] late = "#e5484d" … upcoming = ""         # as for polybar
//   [templates] tmux = "{text}"
//
// Example (~/.tmux.conf; the dosebar.tmux TPM plugin writes this for #{dosebar}):
//   set -g status-interval 5
//   set -g status-right '#(cat "$XDG_RUNTIME_DIR/dosebar/tmux.txt") %H:%M'
import DoseCore

/// Renders a snapshot for tmux (`tmux.txt`, `status --format tmux`).
public enum TmuxRenderer: BarRenderer {
    /// The line, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        let body = Sanitize.oneLine(Template.expand(options.template("tmux"), snapshot: snapshot, options: options, escape: escape))
        guard let color = options.color(for: snapshot.state) else { return body }
        return "#[fg=\(color)]" + body + "#[default]"
    }

    /// Doubles every `#` and puts the text on one line.
    public static func escape(_ s: String) -> String {
        let s = Sanitize.oneLine(s)
        guard s.contains("#") else { return s }
        return s.replacingOccurrences(of: "#", with: "##")
    }
}
