import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar sync status`: the devices this one knows and how far it applied each.
struct SyncStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the devices, how many of their operations were applied and the stamp of the last one.",
        usage: "dosebar sync status [<global options>]",
        discussion: """
        A stamp is MILLISECONDS-COUNTER-DEVICE (a hybrid logical clock).

        Example:
          $ dosebar sync status
        """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let service = SyncService(context: context, store: store)
        let (setup, devices) = try service.status()
        let c = context.catalog
        Output.line(c.text("sync.status.header", ["device": setup.device, "dir": setup.dir]))
        if let clone = try service.clone() {
            Output.line(c.text("sync.status.cloned", ["at": clone.at, "old": clone.old, "new": clone.new]))
        }
        for d in devices {
            var line = c.counted("sync.status.device", d.applied, [
                "device": d.device, "mine": d.device == setup.device ? c.text("sync.status.mine") : "",
                "last": d.last ?? c.text("sync.status.none"),
            ])
            if d.pending > 0 { line += c.text("sync.status.pending", ["pending": String(d.pending)]) }
            Output.line(line)
        }
    }
}
