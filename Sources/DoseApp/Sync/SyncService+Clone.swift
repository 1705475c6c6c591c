import DoseCore
import DoseStore
import Foundation

/// A home copied to a second machine (a common way to move to a new laptop) makes two machines
/// append to one device file under one device id; each ignores "its own" file, so their changes
/// never meet (DESIGN §10). A machine notices it when its own file, or a Syncthing conflict copy of
/// it, holds a line of its device that it never wrote: it then takes a new device id and file, and
/// reads the old file (and its conflict copies) as another device's, so nothing either machine
/// wrote is lost.
extension SyncService {
    /// What ``checkOwnFiles(_:)`` found.
    public struct Clone: Sendable, Equatable {
        /// The device id both machines had.
        public var old: String
        /// The id this machine continues under.
        public var new: String
        /// When it was noticed.
        public var at: String

        /// As kept in meta `sync.cloned`.
        init?(_ text: String) {
            let parts = text.split(separator: " ").map(String.init)
            guard parts.count == 3 else { return nil }
            old = parts[0]; new = parts[1]; at = parts[2]
        }

        init(old: String, new: String, at: String) { self.old = old; self.new = new; self.at = at }

        var text: String { "\(old) \(new) \(at)" }
    }

    /// When this machine found that its home was copied, what it did.
    public func clone() throws -> Clone? {
        try store.read { try $0.meta(SyncMeta.cloned).flatMap(Clone.init) }
    }

    /// Checks that every line of this device's own file (from where the last check stopped) and of
    /// Syncthing's conflict copies of it is one this machine wrote; when one is not, the home was
    /// copied: this machine continues under a new device id (returned), says so, and from then on
    /// reads the old id's files as another device's. Costs a read of what was appended since the
    /// last check (nothing, mostly) and of conflict copies.
    func checkOwnFiles(_ setup: Setup) throws -> Setup {
        let folder = setup.folder
        let ownPath = folder.file(of: setup.device)
        var foreign: (path: String, line: Int)?
        for path in folder.ownFiles(device: setup.device) {
            let isCopy = SyncFolder.isConflictCopy(path)
            let key = isCopy ? SyncMeta.read + path : SyncMeta.own, markKey = SyncMeta.readMark + path
            let (known, mark) = try store.read { r in (try r.meta(key).flatMap(SyncFolder.Position.init), try r.meta(markKey)) }
            // Syncthing may have replaced the file by the other machine's version, which can be as
            // long as this machine's: unless the bytes before the position are the ones this machine
            // checked, the whole file is checked again.
            let start = SyncReadMark.start(path, known: known, mark: mark)
            let lines: [SyncFolder.Line], next: SyncFolder.Position
            do {
                // This device's whole file after `sync init`: as long to parse as another device's.
                progress.begin(.ownFile, total: 0)
                defer { progress.end() }
                (lines, next) = try SyncFolder.read(path, device: setup.device, from: start, warn: warn) { progress.step($0, of: $1) }
            } catch DosebarError.io(let message) {
                warn(message)
                continue
            }
            // A purged medicine's lines are gone from the database (and from the file, but not from
            // conflict copies made before the purge): they are this machine's, not another's.
            let unknown = try store.read { r in
                let purged = try r.purgedGids()
                return try lines.firstIndex { line in
                    if line.op.knownKind == .purge || (line.op.medicine.map(purged.contains) ?? false) { return false }
                    return try r.operationHash(id: line.op.id) == nil
                }
            }
            if let unknown {
                foreign = (path, next.line - lines.count + unknown + 1)
                break
            }
            if next != known ?? SyncFolder.Position() {
                let nextMark = SyncReadMark.at(path, offset: next.offset)
                try store.write { w in
                    try w.setMeta(key, next.text)
                    try w.setMeta(markKey, nextMark)
                }
            }
        }
        guard let foreign else { return setup }
        // Whatever this machine still owes its file goes to the old one first: the other machine and
        // every other device read it as the old id's from now on.
        try flush(setup)
        let new = SyncService.newDeviceID()
        let at = context.zone.local(context.now).iso8601
        let taken = try store.write { w -> Setup in
            // Another process (the daemon, a second command) may have switched first.
            guard let current = try w.reader.meta(SyncMeta.device), current == setup.device else {
                return Setup(device: try w.reader.meta(SyncMeta.device) ?? setup.device, dir: setup.dir)
            }
            try w.setMeta(SyncMeta.device, new)
            try w.setMeta(SyncMeta.written, String(try w.reader.lastOperationSeq()))
            try w.setMeta(SyncMeta.own, nil)
            try w.setMeta(SyncMeta.readMark + ownPath, nil)
            try w.setMeta(SyncMeta.cloned, Clone(old: setup.device, new: new, at: at).text)
            // The old file and its copies are read from their start as the old id's: by id, nothing
            // this machine wrote is applied twice, and every line of the other machine is.
            for path in folder.ownFiles(device: setup.device) where SyncFolder.isConflictCopy(path) || path == ownPath {
                try w.setMeta(SyncMeta.read + path, nil)
                try w.setMeta(SyncMeta.readMark + path, nil)
            }
            return Setup(device: new, dir: setup.dir)
        }
        if taken.device == new {
            warn(context.catalog.text("sync.cloned", ["file": foreign.path, "line": String(foreign.line),
                                                      "old": setup.device, "new": new]))
        }
        return taken
    }

    /// After a restore: the lines of this device's own file that the restored database does not
    /// have were written here after the backup; they are applied as this device's own history (and
    /// not taken for another machine's). Returns how many were applied.
    @discardableResult
    public func adoptOwnFile() throws -> Int {
        guard let setup = try setup() else { return 0 }
        let path = setup.folder.file(of: setup.device)
        let read = try SyncFolder.read(path, device: setup.device, from: SyncFolder.Position())
        return try store.write(cacheMegabytes: read.lines.count > 10_000 ? 256 : nil) { w in
            var applier = SyncApplier(w: w, today: context.today, now: context.now)
            let n = try applier.apply(read.lines, file: path)
            try applier.finish()
            try w.setMeta(SyncMeta.own, read.next.text)
            try w.setMeta(SyncMeta.readMark + path, SyncReadMark.at(path, offset: read.next.offset))
            return n
        }
    }

    /// A new random device id (16 hex digits).
    static func newDeviceID() -> String {
        String(UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(16))
    }
}
