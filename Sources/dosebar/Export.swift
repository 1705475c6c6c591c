import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar export`: write every file of the shared directory once.
struct Export: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every file of the shared directory once.",
        usage: "dosebar export [--quiet] [<global options>]",
        discussion: """
        Writes timeline.json, snapshot.json, snapshot.txt and one file per bar (waybar.json, \
        polybar.txt, tmux.txt, conky.txt, i3blocks.txt). Files whose content did not change are \
        left alone, so bars watching the directory are not woken for nothing.

        Examples:
          $ dosebar export
          $ dosebar export --dir /tmp/demo && cat /tmp/demo/snapshot.txt
        """
    )

    @Flag(name: .shortAndLong, help: "Say nothing on success.") var quiet = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        if context.dirFallback && !quiet {
            Output.warning("XDG_RUNTIME_DIR is not set; writing to \(context.dirPath)")
        }
        let store = try context.openStore()
        let written = try Refresh.export(context, store, progress: WorkProgress.forStderr(context, quiet: quiet))
        if !quiet {
            let c = context.catalog, changed = written.changed
            let changes = changed.isEmpty ? c.text("cli.nothing_changed")
                : c.counted("cli.files_changed", changed.count, ["files": changed.joined(separator: ", ")])
            Output.line(c.text("cli.wrote", ["dir": context.dirPath, "entries": String(written.timeline.entries.count),
                                             "changes": changes]))
        }
        // The other files are current; what was left alone is named, and the exit says so (78).
        if !written.leftAlone.isEmpty { throw DosebarError.config(written.leftAlone.joined(separator: "; ")) }
    }
}
