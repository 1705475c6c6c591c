import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar sync status`: the devices this one knows and how far it applied each.
struct SyncStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the devices, how many of their operations were applied, and the lines skipped, held or waiting.",
        usage: "dosebar sync status [<global options>]",
        discussion: """
        A stamp is MILLISECONDS-COUNTER-DEVICE (a hybrid logical clock). Then the lines of other \
        devices' files that were skipped (file, line, why), the operations held (stamped more than \
        24 h ahead of this clock) and those waiting for what they name.

        Example:
          $ dosebar sync status
        """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    /// Skipped lines of one file listed one by one; the rest are counted.
    static let listed = 20

    func run() throws {
        let context = try AppContext(global.options)
        let store = try context.openStore()
        let service = SyncService(context: context, store: store)
        let (setup, devices, skipped, waiting) = try service.status()
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
        // What another device wrote is shown with its control characters made visible.
        // A file of junk lists its first lines and how many more, not 200,000 lines.
        for (file, lines) in Dictionary(grouping: skipped, by: \.file).sorted(by: { $0.key < $1.key }) {
            let name = LineHash.printable(file, limit: 4096)
            for s in lines.prefix(Self.listed) {
                Output.line(c.text("sync.status.skipped", ["file": name, "line": String(s.line), "reason": s.reason]))
            }
            if lines.count > Self.listed {
                Output.line(c.text("sync.status.skipped.more", ["file": name, "count": String(lines.count - Self.listed)]))
            }
        }
        for w in waiting {
            Output.line(c.text(w.held ? "sync.status.held" : "sync.status.waiting",
                               ["origin": LineHash.printable(w.origin, limit: 4096), "kind": LineHash.printable(w.kind), "reason": w.reason]))
        }
    }
}
