/// Icons per day state, and a symbol per history state for the 7-day strip, as data:
/// emoji, Nerd Font or plain ASCII (chosen by config).
public struct IconSet: Hashable, Sendable {
    public var name: String
    public var icons: [DayState: String]
    /// The strip's symbol of each day (`✓`, `◐`; letters in the ASCII set).
    public var days: [HistoryState: String]

    public init(name: String, icons: [DayState: String], days: [HistoryState: String]) {
        self.name = name; self.icons = icons; self.days = days
    }

    public subscript(state: DayState) -> String { icons[state] ?? icons[.upcoming] ?? "" }

    public subscript(day state: HistoryState) -> String { days[state] ?? state.rawValue }

    /// Symbols that every font with the common Unicode blocks draws, one column wide.
    private static let symbols: [HistoryState: String] = [
        .none: "·", .rest: "☾", .done: "✓", .skipped: "⊘", .missed: "✗", .partial: "◐", .pending: "○",
    ]

    public static let emoji = IconSet(name: "emoji", icons: [
        .empty: "💊", .late: "⏰", .due: "💊", .missed: "⚠️", .done: "✅", .upcoming: "💊", .rest: "🌙", .none: "💊",
    ], days: symbols)
    /// A Nerd Font draws the common symbols too: the strip keeps them.
    public static let nerd = IconSet(name: "nerd", icons: [
        .empty: "\u{f0483}", .late: "\u{f051f}", .due: "\u{f0483}", .missed: "\u{f0026}", .done: "\u{f012c}",
        .upcoming: "\u{f0483}", .rest: "\u{f0594}", .none: "\u{f0483}",
    ], days: symbols)
    /// Letters for the strip, those of `dosebar history` without colour: the initial of each
    /// outcome, `-` for a day without slots and `?` for today while it is open.
    public static let ascii = IconSet(name: "ascii", icons: [
        .empty: "[-]", .late: "[!]", .due: "[*]", .missed: "[x]", .done: "[v]", .upcoming: "[ ]", .rest: "[z]", .none: "[-]",
    ], days: [.none: "-", .rest: "R", .done: "D", .skipped: "S", .missed: "M", .partial: "P", .pending: "?"])

    public static let all: [IconSet] = [.emoji, .nerd, .ascii]
    public static func named(_ name: String) -> IconSet? { all.first { $0.name == name } }
}
