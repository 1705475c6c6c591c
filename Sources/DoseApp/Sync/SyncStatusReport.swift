import DoseCore
import DoseExport
import DoseStore

/// What `dosebar sync status` shows: this device and its folder, a copied home when one was
/// noticed, how far each device was applied, the lines of other devices' files that were skipped
/// and the operations held or waiting. Read by ``SyncService/statusReport()``; ``lines(_:)`` and
/// ``json`` are the two ways it is printed.
public struct SyncStatusReport: Sendable, Equatable {
    public var setup: SyncService.Setup
    public var clone: SyncService.Clone?
    /// This device first, then the others, then files in the folder of devices not yet applied.
    public var devices: [DeviceProgress]
    public var skipped: [SkippedLine]
    public var waiting: [SyncService.Waiting]

    /// Skipped lines of one file listed one by one in ``lines(_:)``; the rest are counted.
    public static let listed = 20

    /// The report for a person. What another device wrote is shown with its control characters
    /// made visible, and a file of junk lists its first lines and how many more, not 200,000 lines.
    public func lines(_ c: Catalog) -> [String] {
        var out = [c.text("sync.status.header", ["device": setup.device, "dir": setup.dir])]
        if let clone {
            out.append(c.text("sync.status.cloned", ["at": clone.at, "old": clone.old, "new": clone.new]))
        }
        for d in devices {
            var line = c.counted("sync.status.device", d.applied, [
                "device": d.device, "mine": d.device == setup.device ? c.text("sync.status.mine") : "",
                "last": d.last ?? c.text("sync.status.none"),
            ])
            if d.pending > 0 { line += c.text("sync.status.pending", ["pending": String(d.pending)]) }
            out.append(line)
        }
        for (file, lines) in Dictionary(grouping: skipped, by: \.file).sorted(by: { $0.key < $1.key }) {
            let name = LineHash.printable(file, limit: 4096)
            for s in lines.prefix(Self.listed) {
                out.append(c.text("sync.status.skipped", ["file": name, "line": String(s.line), "reason": s.reason]))
            }
            if lines.count > Self.listed {
                out.append(c.text("sync.status.skipped.more", ["file": name, "count": String(lines.count - Self.listed)]))
            }
        }
        for w in waiting {
            out.append(c.text(w.held ? "sync.status.held" : "sync.status.waiting",
                              ["origin": LineHash.printable(w.origin, limit: 4096), "kind": LineHash.printable(w.kind), "reason": w.reason]))
        }
        return out
    }

    /// `sync status --json`: `{device, dir, clone: {at, old, new}|null, devices: [{device, applied,
    /// pending, last}], skipped: [{file, line, reason}], waiting: [{origin, kind, held, reason}]}`,
    /// every skipped line.
    public var json: String {
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

extension SyncService {
    /// What `sync status` shows (``SyncStatusReport``); throws when sync was never initialised.
    public func statusReport() throws -> SyncStatusReport {
        let (setup, devices, skipped, waiting) = try status()
        return SyncStatusReport(setup: setup, clone: try clone(), devices: devices, skipped: skipped, waiting: waiting)
    }
}
