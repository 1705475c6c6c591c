import ArgumentParser

/// Flags every subcommand accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Database file (default: $DOSEBAR_DB, else ~/.local/share/dosebar/dosebar.sqlite).", valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("Shared directory the bars read (default: $DOSEBAR_DIR, else $XDG_RUNTIME_DIR/dosebar).", valueName: "dir"))
    var dir: String?

    @Option(name: .long, help: ArgumentHelp("Language of messages: en or ko (default: from the config, else LANG).", valueName: "en|ko"))
    var lang: String?

    @Option(name: .long, help: ArgumentHelp("Config file (default: ~/.config/dosebar/config.toml).", valueName: "path"))
    var config: String?
}
