import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar restore`: replace the database by a backup, keeping the one it replaces.
struct Restore: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database by a backup; the replaced one is kept beside it.",
        usage: "dosebar restore <file> [<global options>]",
        discussion: """
        Checks the backup first and changes nothing when it is not a whole dosebar database: \
        another program's database, a damaged or truncated file, or one written by a newer \
        dosebar is refused with exit 65; a missing or unreadable file with exit 74. An older \
        backup is migrated to the current schema.

        The current database is first copied to <database>.replaced-YYYYMMDDTHHMMSSZ (UTC, \
        mode 0600), then the backup is copied into it through SQLite, so a running daemon sees \
        the restored data at once and rewrites the shared directory.

        Examples:
          $ dosebar backup ~/dosebar-backup.sqlite
          $ dosebar restore ~/dosebar-backup.sqlite
          $ dosebar restore \\
              ~/.local/share/dosebar/dosebar.sqlite.replaced-20261122T083000Z
        """
    )

    @Argument(help: "The backup to restore.", completion: .file(extensions: ["sqlite"]))
    var file: String

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true
    static let followsZone = false

    func run(_ context: AppContext) throws {
        let restored = try BackupService.restore(context, from: file)
        let c = context.catalog
        Output.line(c.text("cli.restored", [
            "path": file, "medications": c.counted("cli.medicines", restored.contents.medications),
            "events": c.counted("cli.events", restored.contents.events), "kept": restored.keptAt,
        ]))
        if let other = restored.otherDevice {
            Output.line(c.text(other == nil ? "cli.restored.sync_device.none" : "cli.restored.sync_device",
                               ["device": (try? SyncService(context: context, store: restored.store).setup()?.device) ?? "",
                                "other": other ?? ""]))
        }
    }
}
