/// Icons per day state, as data: emoji, Nerd Font or plain ASCII (chosen by config).
public struct IconSet: Hashable, Sendable {
    public var name: String
    public var icons: [DayState: String]

    public init(name: String, icons: [DayState: String]) { self.name = name; self.icons = icons }

    public subscript(state: DayState) -> String { icons[state] ?? icons[.upcoming] ?? "" }

    public static let emoji = IconSet(name: "emoji", icons: [
        .empty: "💊", .late: "⏰", .due: "💊", .missed: "⚠️", .done: "✅", .upcoming: "💊", .rest: "🌙", .none: "💊",
    ])
    public static let nerd = IconSet(name: "nerd", icons: [
        .empty: "\u{f0483}", .late: "\u{f051f}", .due: "\u{f0483}", .missed: "\u{f0026}", .done: "\u{f012c}",
        .upcoming: "\u{f0483}", .rest: "\u{f0594}", .none: "\u{f0483}",
    ])
    public static let ascii = IconSet(name: "ascii", icons: [
        .empty: "[-]", .late: "[!]", .due: "[*]", .missed: "[x]", .done: "[v]", .upcoming: "[ ]", .rest: "[z]", .none: "[-]",
    ])

    public static let all: [IconSet] = [.emoji, .nerd, .ascii]
    public static func named(_ name: String) -> IconSet? { all.first { $0.name == name } }
}
