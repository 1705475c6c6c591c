/// Every output dosebar renders, by the name used on the command line
/// (`status --format NAME`, `watch --format NAME`) and in the config's `templates`.
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, waybar, polybar, tmux, conky, i3blocks

    /// Every name `--format` accepts, in documentation order.
    public static let names: [String] = allCases.map(\.rawValue)

    /// The file in the shared directory that holds this format's current output.
    public var fileName: String {
        switch self {
        case .text: "snapshot.txt"
        case .json: "snapshot.json"
        case .waybar: "waybar.json"
        case .polybar: "polybar.txt"
        case .tmux: "tmux.txt"
        case .conky: "conky.txt"
        case .i3blocks: "i3blocks.txt"
        }
    }
}
