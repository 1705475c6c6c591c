import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar sync init DIR`: make this machine a device that syncs through DIR.
struct SyncInit: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start syncing through DIR (a folder Syncthing shares), writing this machine's history there.",
        usage: "dosebar sync init <dir> [<global options>]",
        discussion: """
        Gives this machine a random device id, writes its whole history as DIR/dosebar/DEVICE.jsonl \
        and applies what other machines already wrote there. A medicine another machine has under \
        the same name, and a dose it already logged, are not duplicated.

        Example:
          $ dosebar sync init ~/Sync
        """
    )

    @Argument(help: "The folder Syncthing shares.", completion: .directory) var dir: String

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        let store = try context.openStore(.create)
        let progress = WorkProgress.forStderr(context)
        let done = try SyncService(context: context, store: store, progress: progress).initialise(dir: dir)
        let c = context.catalog
        if done.already {
            Output.line(c.text("sync.already", ["device": done.setup.device, "dir": done.setup.dir]))
        } else {
            Output.line(c.counted("sync.initialised", done.written,
                                  ["device": done.setup.device, "file": done.setup.folder.file(of: done.setup.device)]))
        }
        if done.applied > 0 { Output.line(c.counted("sync.applied", done.applied)) }
    }
}
