import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar sync now`: write what is pending and apply the other machines' files once.
struct SyncNow: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Apply the other machines' changes now (the daemon does it whenever they arrive).",
        usage: "dosebar sync now [<global options>]",
        discussion: """
        Example:
          $ dosebar sync now
        """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let progress = WorkProgress.forStderr(context)
        let applied = try SyncService(context: context, store: store, progress: progress).now()
        Output.line(context.catalog.counted("sync.applied", applied))
    }
}
