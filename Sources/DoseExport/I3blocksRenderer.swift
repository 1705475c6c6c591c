// i3blocks.txt — for an i3blocks block (i3blocks(1), the classic line protocol).
//
// Output: three lines, as i3blocks reads a block command's output:
//   full_text   the expanded `i3blocks` template
//   short_text  the expanded `i3blocks_short` template (shown when the bar is crowded)
//   color       the day state's `#rrggbb`, or an empty line for the bar's own foreground
// Values are plain text (the block's default `markup=none`); line breaks in values become
// spaces so the lines stay in place.
//
// Config keys read (defaults):
//   icons = "emoji"                                   # {icon}
//   [colors] late = "#e5484d" … upcoming = ""         # as for polybar
//   [templates] i3blocks = "{text}"  i3blocks_short = "{icon} {taken}/{total}"
//
// Example (~/.config/i3blocks/config):
//   [dosebar]
//   command=[ "$button" = 1 ] && dosebar take >/dev/null; cat "$XDG_RUNTIME_DIR/dosebar/i3blocks.txt"
//   interval=once
//   signal=10
import DoseCore

/// Renders a snapshot for i3blocks (`i3blocks.txt`, `status --format i3blocks`).
public enum I3blocksRenderer: BarRenderer {
    /// The three lines joined by `\n`, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        let full = Template.expand(options.template("i3blocks"), snapshot: snapshot, options: options, escape: Sanitize.oneLine)
        let short = Template.expand(options.template("i3blocks_short"), snapshot: snapshot, options: options, escape: Sanitize.oneLine)
        return [Sanitize.oneLine(full), Sanitize.oneLine(short), options.color(for: snapshot.state) ?? ""].joined(separator: "\n")
    }
}
