import ArgumentParser
import DoseApp
import DoseCore
import Foundation

/// `dosebar backup`: a consistent copy of the database, safe while the daemon runs.
struct Backup: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the database to a file, safe while the daemon runs.",
        usage: "dosebar backup <file> [<global options>]",
        discussion: """
        Uses SQLite's online backup, so the copy is one state of the database even while the \
        daemon, a bar click or another terminal writes. The copy is one self-contained file with \
        mode 0600; it appears under its name only once it is whole. When FILE is a directory, the \
        backup goes into it as dosebar-YYYY-MM-DDTHHMMSS.sqlite (local time).

        An existing FILE is replaced only when it is itself a dosebar database (an older backup); \
        any other existing file, and the live database itself, is refused with exit 64.

        Examples:
          $ dosebar backup ~/dosebar-backup.sqlite
          $ dosebar backup ~/Backups/
          $ dosebar restore ~/dosebar-backup.sqlite
        """
    )

    @Argument(help: "The file to write, or a directory to write it into.", completion: .file(extensions: ["sqlite"]))
    var file: String

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true
    static let followsZone = false

    func run(_ context: AppContext) throws {
        let store = try context.openStore(.existing)
        let written = try BackupService(context: context, store: store).backup(to: file)
        let c = context.catalog
        Output.line(c.text("cli.backup_written", [
            "path": written.path, "size": Backup.size(written.bytes),
            "medications": c.counted("cli.medicines", written.contents.medications),
            "events": c.counted("cli.events", written.contents.events),
        ]))
    }

    /// `512 bytes`, `56 KB`, `3.2 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return "\((bytes + 512) / 1024) KB" }
        return String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
