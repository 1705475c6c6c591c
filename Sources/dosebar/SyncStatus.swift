import ArgumentParser
import DoseApp
import DoseCore
import DoseStore
import DoseExport

/// `dosebar sync status`: the devices this one knows and how far it applied each.
struct SyncStatus: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the devices, how many of their operations were applied, and the lines skipped, held or waiting.",
        usage: "dosebar sync status [--json] [<global options>]",
        discussion: """
        A stamp is MILLISECONDS-COUNTER-DEVICE (a hybrid logical clock). Then the lines of other \
        devices' files that were skipped (file, line, why), the operations held (stamped more than \
        24 h ahead of this clock) and those waiting for what they name.

        Example:
          $ dosebar sync status
        """
    )

    @Flag(name: .long, help: "Print JSON: {device, dir, clone, devices, skipped, waiting}.") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    /// Skipped lines of one file listed one by one; the rest are counted.
    static let listed = 20

    func run(_ context: AppContext) throws {
        let store = try context.openStore()
        let service = SyncService(context: context, store: store)
        let (setup, devices, skipped, waiting) = try service.status()
        if json {
            Output.line(Self.json(setup: setup, clone: try service.clone(), devices: devices, skipped: skipped, waiting: waiting))
            return
        }
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

    /// `{device, dir, clone: {at, old, new}|null, devices: [{device, applied, pending, last}],
    /// skipped: [{file, line, reason}], waiting: [{origin, kind, held, reason}]}`: every skipped line.
    static func json(setup: SyncService.Setup, clone: SyncService.Clone?, devices: [DeviceProgress],
                     skipped: [SkippedLine], waiting: [SyncService.Waiting]) -> String {
        JSONValue.object { o in
            o.set("device", setup.device)
            o.set("dir", setup.dir)
            if let clone {
                o.setObject("clone") { c in c.set("at", clone.at); c.set("old", clone.old); c.set("new", clone.new) }
            } else {
                o.setNull("clone")
            }
            o.setArray("devices") { a in
                for d in devices {
                    a.appendObject { o in
                        o.set("device", d.device); o.set("applied", d.applied); o.set("pending", d.pending); o.set("last", d.last)
                    }
                }
            }
            o.setArray("skipped") { a in
                for s in skipped { a.appendObject { o in o.set("file", s.file); o.set("line", s.line); o.set("reason", s.reason) } }
            }
            o.setArray("waiting") { a in
                for w in waiting {
                    a.appendObject { o in o.set("origin", w.origin); o.set("kind", w.kind); o.set("held", w.held); o.set("reason", w.reason) }
                }
            }
        }.text
    }
}
