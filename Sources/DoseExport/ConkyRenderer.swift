// conky.txt — for conky's `${catp FILE}`, which reads a file and parses it as conky text.
//
// Output: several lines.
//   line 1: `${color #rrggbb}<expanded conky template>${color}` in the day state's colour
//   then one line per scheduled dose of today, in its status's colour:
//           `${color #rrggbb}HH:MM Name (dose) — status${color}`
//   where status is `upcoming`, `due`, `late 45m`, `missed`, `taken 08:05`,
//   `taken early 06:10`, `taken late 11:30` or `skipped`.
//   then one line per as-needed medicine, in the default colour:
//           `${color}Ibuprofen (as needed): 1/3 today · next from 15:30${color}`
//   then one line per medicine in a cycle (rest days too), in the default colour:
//           `${color}Yaz: day 13 of 21, rest from Thu 11 Dec${color}`
//   then the 7-day strip, oldest day first, today last, in the default colour:
//           `${color}Week: ✓ ✓ ◐ ✗ ✓ · ○${color}` (ASCII icons: `Week: D P M S R - ?`)
// A colour that is the bar's own foreground is written `${color}` (conky's default).
// `catp` parses the file like conky.text: `$` starts a variable and `#` a comment to the
// end of the line. So in every substituted value `$` is doubled (`$$`) and `#` becomes
// `\#`: a medicine called `$HOME`, `${exec rm -rf ~}` or `#1 vitamin` shows as typed.
// Line breaks in values become spaces.
// `catp` reads at most `text_buffer_size` bytes (conky's default: 256), so raise it.
//
// Config keys read (defaults):
//   icons = "emoji"                                   # {icon}, the strip's symbols
//   [colors] late = "#e5484d" … upcoming = ""         # also used per dose: taken* = done,
//                                                     # skipped = rest, others by their name
//   [templates] conky = "{text}"
//
// Example (~/.config/conky/conky.conf):
//   conky.config = { update_interval = 5, text_buffer_size = 4096 }
//   conky.text = [[ ${catp /run/user/1000/dosebar/conky.txt} ]]
import DoseCore
import Foundation

/// Renders a snapshot for conky (`conky.txt`, `status --format conky`).
public enum ConkyRenderer: BarRenderer {
    /// The colour a dose line takes, as the day state whose colour it borrows.
    public static let statusColors: [SlotStatus: DayState] = [
        .upcoming: .upcoming, .due: .due, .late: .late, .missed: .missed,
        .taken: .done, .takenEarly: .done, .takenLate: .done, .skipped: .rest,
    ]

    /// The lines joined by `\n`, without a trailing newline.
    public static func render(_ snapshot: Snapshot, options: RenderOptions) -> String {
        var lines: [String] = []
        let head = Template.expand(options.template("conky"), snapshot: snapshot, options: options, escape: escape)
        lines.append(colored(Sanitize.oneLine(head), options.color(for: snapshot.state)))
        for dose in snapshot.doses {
            // A carried dose (yesterday's, still open) says so, as the tooltip does.
            let time = dose.day == snapshot.day ? dose.scheduled.clock
                : options.catalog.text("slot.yesterday", ["time": dose.scheduled.clock])
            var line = escape(time) + " " + escape(dose.medication)
            if let d = dose.dose, !d.isEmpty { line += " (" + escape(d) + ")" }
            line += " — " + statusLabel(dose, options)
            lines.append(colored(line, statusColors[dose.status].flatMap(options.color(for:))))
        }
        for item in snapshot.asNeeded {
            lines.append(colored(escape(item.text), nil))
        }
        for item in snapshot.cycle {
            lines.append(colored(escape(item.text), nil))
        }
        lines.append(colored(escape(WeekStrip.line(snapshot.week, catalog: options.catalog, icons: options.icons)), nil))
        return lines.joined(separator: "\n")
    }

    /// Doubles every `$`, writes `#` as `\#`, and puts the text on one line.
    public static func escape(_ s: String) -> String {
        let s = Sanitize.oneLine(s)
        guard s.contains(where: { $0 == "$" || $0 == "#" }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for c in s.unicodeScalars {
            switch c {
            case "$": out += "$$"
            case "#": out += "\\#"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func statusLabel(_ dose: Snapshot.Dose, _ options: RenderOptions) -> String {
        let catalog = options.catalog
        let word = escape(catalog.status(dose.status))
        switch dose.status {
        case .late:
            return dose.lateMinutes.map { word + " " + escape(catalog.minutes($0)) } ?? word
        case .taken, .takenEarly, .takenLate:
            return word + (dose.takenAt.map { " " + $0.clock } ?? "")
        case .upcoming, .due, .missed, .skipped:
            return word
        }
    }

    private static func colored(_ text: String, _ color: String?) -> String {
        "${color" + (color.map { " " + $0 } ?? "") + "}" + text + "${color}"
    }
}
