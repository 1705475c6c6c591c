// snapshot.txt — one line of plain text for anything that just prints a line
// (a shell prompt, `dosebar status`, a bar that shows a command's stdout as is).
//
// Output: the expanded `text` template on one line, no markup, no colour. Line breaks
// and control characters in values become spaces.
//
// Config keys read (defaults):
//   icons = "emoji"               # {icon}: emoji | nerd | ascii
//   [templates] text = "{text}"   # placeholders: see Template.placeholders
//
// Example (bash prompt):
//   PS1='$(cat "$XDG_RUNTIME_DIR/dosebar/snapshot.txt" 2>/dev/null) \$ '
import DoseCore

/// Renders a snapshot as one plain line (`snapshot.txt`, `status --format text`).
public enum PlainTextRenderer: BarRenderer {
    /// The line, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        Template.expand(options.template("text"), snapshot: snapshot, options: options, escape: Sanitize.oneLine)
    }
}
