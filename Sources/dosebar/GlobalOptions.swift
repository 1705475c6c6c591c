import ArgumentParser
import DoseApp
import DoseCore

/// Flags every subcommand accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Database file (default: $DOSEBAR_DB, else ~/.local/share/dosebar/dosebar.sqlite).", valueName: "path"),
            completion: .file(extensions: ["sqlite"]))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("Shared directory the bars read (default: $DOSEBAR_DIR, else $XDG_RUNTIME_DIR/dosebar).", valueName: "dir"),
            completion: .directory)
    var dir: String?

    @Option(name: .long, help: ArgumentHelp("Language of messages (default: from the config, else LANG).", valueName: "language"))
    var lang: Language?

    @Option(name: .long, help: ArgumentHelp("Config file (default: ~/.config/dosebar/config.toml).", valueName: "path"),
            completion: .file(extensions: ["toml"]))
    var config: String?

    // Optional, the default said in the help: a default value costs every command two scans of the
    // binary's protocol conformances in ArgumentParser (is it CaseIterable? RawRepresentable?).
    @Option(name: .long, help: ArgumentHelp("Colour: auto (the default: a terminal, unless NO_COLOR), always or never.",
                                            valueName: "when"))
    var color: ColorChoice?

    /// Whether what this command prints for a person is coloured.
    func wantsColor(_ context: AppContext) -> Bool { Output.wantsColor(context.env, choice: color ?? .auto) }

    /// What DoseApp's context needs from these flags.
    var options: AppOptions { AppOptions(db: db, dir: dir, lang: lang, config: config) }
}

// The values are spelled out below: ArgumentParser's defaults find them through `String(describing:)`
// on every run, before any command starts (its cost: Benchmarks/README.md); same words.
extension Language: ExpressibleByArgument {
    /// `en`, `ko`, in any letter case.
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public static var allValueDescriptions: [String: String] { [:] }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension ColorChoice: ExpressibleByArgument {
    /// `auto`, `always`, `never`, in any letter case.
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public static var allValueDescriptions: [String: String] { [:] }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
