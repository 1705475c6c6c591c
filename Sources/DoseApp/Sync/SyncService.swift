import DoseCore
import DoseFiles
import DoseStore
import Foundation

/// Sync through a folder that Syncthing shares (DESIGN §10): `sync init`, `sync now`, `sync
/// status`, and what the daemon and every change call.
public struct SyncService {
    public let context: AppContext
    public let store: DoseStore
    /// Where a warning about another device's file goes (a line skipped or refused): stderr for
    /// the commands, the daemon's log for the daemon.
    public let warn: (String) -> Void
    /// Counts the long work (a history written, another device's operations applied): a line on a
    /// terminal, the daemon's log, or nowhere.
    public let progress: WorkProgress
    /// Who applies another device's long file, and so how.
    public let bulk: BulkWork

    public init(context: AppContext, store: DoseStore, warn: @escaping (String) -> Void = Output.warning,
                progress: WorkProgress = .silent, bulk: BulkWork = .command) {
        self.context = context; self.store = store; self.warn = warn; self.progress = progress
        self.bulk = bulk
    }

    /// This device and its folder, when sync was initialised.
    public struct Setup: Sendable, Equatable {
        public var device: String
        public var dir: String
        public var folder: SyncFolder { SyncFolder(shared: dir) }
    }

    public func setup() throws -> Setup? {
        try store.read { r in
            guard let device = try r.meta(SyncMeta.device), let dir = try r.meta(SyncMeta.dir) else { return nil }
            return Setup(device: device, dir: dir)
        }
    }

    /// What `sync init` did.
    public struct Initialised: Sendable {
        public var setup: Setup
        /// Operations written for the history that was here (0 when sync was already set up).
        public var written: Int
        public var already: Bool
        public var applied: Int
    }

    /// Makes this database a device syncing through `dir`: a random device id, and its existing
    /// history as operations (medicines, schedule versions, stock, archive days, every take and
    /// skip not undone), written as its first file; then applies what other devices wrote there.
    /// Again with another folder: the device's whole file is written there.
    public func initialise(dir: String) throws -> Initialised {
        let absolute = URL(fileURLWithPath: dir, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
        try SyncFolder(shared: absolute).create()
        // The whole history at once: as many pages as applying another device's (``applyOthers()``).
        // All or nothing (DESIGN §9): a new device's first file is written inside the transaction
        // that sets it up, so a full sync folder leaves neither the set-up nor a file behind.
        var newFile: String?
        let (setup, written, already): (Setup, Int, Bool)
        do {
            (setup, written, already) = try store.write(cacheMegabytes: 256) { w in
                let result = try WriteScope.run(w, context) { scope in try self.setUp(scope, absolute) }
                if !result.2 {
                    newFile = result.0.folder.file(of: result.0.device)
                    try Self.writeFirstFile(w, result.0)
                }
                return result
            }
        } catch {
            if let newFile { unlink(newFile) }
            throw error
        }
        context.changed(store, progress: progress)
        try flush(setup)
        let applied = try applyOthers(setup)
        return Initialised(setup: setup, written: written, already: already, applied: applied)
    }

    /// A new device's whole history, appended as its first file from inside the transaction that
    /// made it (its operations are not committed yet: no other connection sees them).
    private static func writeFirstFile(_ w: StoreWriter, _ setup: Setup) throws {
        let ops = try w.reader.operations(device: setup.device, after: 0)
        try setup.folder.append(device: setup.device, { ops.map(\.body) }, appended: {
            if let last = ops.last?.seq { try w.setMeta(SyncMeta.written, String(last)) }
        })
    }

    /// `sync init`'s change: the set-up (a new device id, or the folder of the one there) and,
    /// for a new device, its history as operations.
    private func setUp(_ scope: WriteScope, _ absolute: String) throws -> (Setup, Int, Bool) {
        let w = scope.writer
        if let device = try w.reader.meta(SyncMeta.device) {
            if try w.reader.meta(SyncMeta.dir) != absolute {
                try w.setMeta(SyncMeta.dir, absolute)
                try w.setMeta(SyncMeta.written, "0")
            }
            return (Setup(device: device, dir: absolute), 0, true)
        }
        let device = SyncService.newDeviceID()
        try w.setMeta(SyncMeta.device, device)
        try w.setMeta(SyncMeta.dir, absolute)
        try w.setMeta(SyncMeta.written, "0")
        guard let journal = try scope.journal() else { throw DosebarError.internal("sync init: no journal") }
        // The zone log first: every device judges the days of this history in the zones they were lived in.
        for z in try w.reader.unsyncedZones() { try journal.zoneChanged(z) }
        let medications = try w.reader.medications(includeArchived: true)
        for m in medications { try journal.added(m, stock: false) }
        let byID = Dictionary(uniqueKeysWithValues: medications.map { ($0.id, $0) })
        let events = try w.reader.allDoseEventsNotUndone()
        progress.begin(.history, total: events.count)
        defer { progress.end() }
        for (i, e) in events.enumerated() {
            progress.step(i)
            guard let m = byID[e.medicationID] else { continue }
            try journal.dose(e, eventID: e.id, day: e.slot?.date ?? context.zone.date(of: e.at), medication: m, resolve: false)
        }
        // Last, so the takes above do not count against it: the stock on hand now.
        for m in medications where m.stock != nil { try journal.stockSet(m, to: m.stock) }
        return (Setup(device: device, dir: absolute), try w.reader.operationCount(device: device, after: 0), false)
    }

    /// Appends this device's operations not yet in its file (after any change). Nothing when sync
    /// was never initialised.
    public func flush() throws {
        guard let setup = try setup() else { return }
        try flush(setup)
    }

    /// ``flush()`` with the set-up already read.
    public func flush(_ setup: Setup) throws {
        let (pending, rewrite) = try store.read { r in
            (try r.operationCount(device: setup.device, after: Int64(try r.meta(SyncMeta.written) ?? "0") ?? 0) > 0,
             try r.meta(SyncMeta.rewrite) != nil)
        }
        if pending { try append(setup) }
        if rewrite { try rewriteOwnFile(setup) }
    }

    /// After a purge (here or applied from another device): this device's own file without the
    /// purged medicines' lines (their purges kept). Other devices' files are theirs to rewrite.
    private func rewriteOwnFile(_ setup: Setup) throws {
        let purged = try store.read { try $0.purgedGids() }
        try setup.folder.rewrite(device: setup.device, dropping: purged)
        try store.write { try $0.setMeta(SyncMeta.rewrite, nil) }
    }

    /// Appends this device's operations not yet in its file.
    private func append(_ setup: Setup) throws {
        let folder = setup.folder
        try folder.create()
        var last: Int64?
        // Recorded after the fsync: a crash in between appends some lines twice, which readers skip by id.
        try folder.append(device: setup.device, {
            let written = try store.read { Int64(try $0.meta(SyncMeta.written) ?? "0") ?? 0 }
            let ops = try store.read { try $0.operations(device: setup.device, after: written) }
            last = ops.last?.seq
            return ops.map(\.body)
        }, appended: {
            if let last { try store.write { try $0.setMeta(SyncMeta.written, String(last)) } }
        })
    }

    /// Reads every other device's file from where the last read stopped and applies what is new,
    /// committing every ``batch`` lines with the file's position (a killed or failing run keeps
    /// what it applied), then what waited and can apply now. Lines skipped for the first time are
    /// warned about: each, or the first few and how many more. Returns how many operations were applied.
    @discardableResult
    public func applyOthers() throws -> Int {
        guard let setup = try setup() else { return 0 }
        return try applyOthers(setup)
    }

    /// Lines applied in one transaction. Each commit writes every page the batch touched, so fewer
    /// lines mean more commits; more lines mean a longer first batch parsed before any is applied.
    /// 20,000 was the best measured (Benchmarks/README.md, "Measured reasons in the code").
    static let batch = 20_000

    /// Bytes of other devices' lines still to read from which the work is long (about 4,000 lines):
    /// applied with SQLite's cache raised (``applyOthers(_:)``), and by the daemon in a child process.
    public static let longRead: UInt64 = 1 << 20

    /// How many bytes of other devices' files are still to be read (a file rewritten since the last
    /// read counts whole, as ``applyOthers(_:)`` reads it again from its start).
    public func pendingBytes(_ setup: Setup) throws -> UInt64 {
        var pending: UInt64 = 0
        for (_, path) in setup.folder.otherFiles(device: setup.device) {
            let start = try readStart(path).start
            let size = FileIO.size(path) ?? 0
            pending += size > start.offset ? size - start.offset : 0
        }
        return pending
    }

    /// Where the last read of another device's file stopped (`known`), and where the next one
    /// starts: there, or at the file's start when its device rewrote it (a purge) since.
    private func readStart(_ path: String) throws -> (known: SyncFolder.Position?, start: SyncFolder.Position) {
        let (known, mark) = try store.read { r in
            (try r.meta(SyncMeta.read + path).flatMap(SyncFolder.Position.init), try r.meta(SyncMeta.readMark + path))
        }
        return (known, SyncReadMark.start(path, known: known, mark: mark))
    }

    /// Skipped lines of one file named one by one in a warning; the rest are counted.
    static let named = 5

    /// ``applyOthers()`` with the set-up already read.
    @discardableResult
    public func applyOthers(_ setup: Setup) throws -> Int {
        let setup = try checkOwnFiles(setup)
        var applied = 0
        defer { progress.end() }
        for (device, path) in setup.folder.otherFiles(device: setup.device) {
            let key = SyncMeta.read + path, markKey = SyncMeta.readMark + path
            let identity = SyncReadMark.identity(path)
            let (known, start) = try readStart(path)
            // A batch at a time (``SyncFolder/read(_:device:from:batch:total:_:)``): another
            // device's first file is never held whole, nor its operations parsed all at once.
            var skipped: [SkippedLine] = []
            // A long history (another device's first file) writes a hundred megabytes of pages: the
            // cache is kept from one batch to the next (``DoseStore/bulk(cacheMegabytes:logMegabytes:copyingAside:_:)``),
            // and the log emptied only past ``BulkWork/logMegabytes``. The daemon's commit empties it
            // (a page written by several batches is then copied once); a command's is copied by a
            // thread of its own meanwhile.
            // From 1 MB on (about 4,000 lines): a batch of more lines than SQLite's usual cache
            // (2 MB) holds pages for spills them to the log and reads them back.
            let long = (FileIO.size(path) ?? 0) > start.offset + Self.longRead
            func readAll() throws {
                try SyncFolder.read(path, device: device, from: start, batch: Self.batch, concurrent: bulk.concurrent, counting: { progress.step($0, of: $1) }, total: { lines in
                    progress.end()
                    progress.begin(.operations, total: lines)
                    progress.step(0)
                }) { read in
                    let end = read.next
                    if read.lines.isEmpty && read.problems.isEmpty && end == start && (known ?? SyncFolder.Position()) == start { return }
                    let endMark = SyncReadMark.at(path, offset: end.offset)
                    let (n, newly) = try store.write { w in
                        var applier = SyncApplier(w: w, today: context.today, now: context.now)
                        let n = try applier.apply(read.lines, file: path, problems: read.problems)
                        // Stock is derived once, after the last batch (every batch re-reading every
                        // stock operation made a 20-year first sync quadratic).
                        try applier.finish(deferStock: true)
                        try w.setMeta(key, end.text)
                        try w.setMeta(markKey, endMark)
                        try announcePurges(applier, w)
                        return (n, applier.newlySkipped)
                    }
                    applied += n
                    skipped += newly
                    progress.step(end.line - start.line)
                }
            }
            do {
                progress.begin(.reading, total: 0)
                if long { try store.bulk(cacheMegabytes: 64, logMegabytes: bulk.logMegabytes, copyingAside: bulk.concurrent, readAll) } else { try readAll() }
                progress.end()
            } catch DosebarError.io(let message) {
                progress.end()
                // One unreadable file (a link, a FIFO, no permission) stops only itself.
                warn(message)
                continue
            }
            // Replaced while it was read (the marks may be of another version): all again next time.
            if SyncReadMark.identity(path) != identity {
                try store.write { w in
                    try w.setMeta(key, SyncFolder.Position().text)
                    try w.setMeta(markKey, nil)
                }
            }
            report(skipped, in: path)
        }
        // The stock of the medicines the batches touched (and of a run cut short before).
        if try store.read({ try !SyncStock.pending($0).isEmpty }) {
            try store.write { try SyncStock.derivePending(in: $0) }
        }
        if try store.read({ try $0.hasPendingOperations() }) {
            let (n, newly) = try store.write { w in
                var applier = SyncApplier(w: w, today: context.today, now: context.now)
                let n = try applier.retryWaiting()
                try applier.finish()
                try announcePurges(applier, w)
                return (n, applier.newlySkipped)
            }
            applied += n
            for (file, lines) in Dictionary(grouping: newly, by: \.file).sorted(by: { $0.key < $1.key }) { report(lines, in: file) }
        }
        // A purge applied: this device's file loses the medicine's lines, the database its bytes.
        if try store.read({ try $0.meta(SyncMeta.rewrite) }) != nil {
            try flush(setup)
            try store.compact()
        }
        return applied
    }

    /// Global ids a purge applied here deleted besides the one it named (names the same medicine got
    /// on other devices) are announced with purges of this device's own.
    private func announcePurges(_ applier: SyncApplier, _ w: StoreWriter) throws {
        guard !applier.purgedAlso.isEmpty else { return }
        try WriteScope.run(w, context) { try $0.journal()?.purged(gids: applier.purgedAlso) }
    }

    /// A line claiming another device, or reusing an id, is refused; any other is skipped.
    static func verb(_ reason: String) -> String {
        reason.contains(" in the file of device ") || reason.contains("already received") ? "refused" : "skipped"
    }

    /// One warning per line skipped for the first time, the first few of a file named and the rest counted.
    private func report(_ skipped: [SkippedLine], in file: String) {
        for s in skipped.prefix(Self.named) { warn("\(s.file):\(s.line): \(s.reason); " + Self.verb(s.reason)) }
        if skipped.count > Self.named {
            warn("\(file): and \(skipped.count - Self.named) more lines skipped ('dosebar sync status' lists them)")
        }
    }

    /// `sync now`: appends what is pending, then applies the other devices' files once.
    public func now() throws -> Int {
        guard let setup = try setup() else { throw notInitialised }
        try flush(setup)
        let applied = try applyOthers(setup)
        // This device's file is written: the refresh owed only rewrites the shared directory.
        context.changed(store, progress: progress, syncFlushed: true)
        return applied
    }

    /// An operation of another device that waits or is held, for `sync status`.
    public struct Waiting: Sendable, Equatable {
        /// `FILE:LINE` where it was read.
        public var origin: String
        public var id: String
        public var kind: String
        /// Stamped more than a day ahead of this machine's clock.
        public var held: Bool
        public var reason: String
    }

    /// `sync status`: every device this one knows, with this device first; the lines skipped and
    /// the operations that wait or are held, with why.
    public func status() throws -> (setup: Setup, devices: [DeviceProgress], skipped: [SkippedLine], waiting: [Waiting]) {
        guard let setup = try setup() else { throw notInitialised }
        let (devices, skipped, waiting) = try store.read { r in
            (try r.deviceProgress(), try r.skippedLines(), try r.pendingOperations().map { try describe($0, r) })
        }
        let mine = devices.filter { $0.device == setup.device }
        let others = devices.filter { $0.device != setup.device }
        let known = Set(devices.map(\.device))
        let unseen = setup.folder.otherFiles(device: setup.device).map(\.device).filter { !known.contains($0) }
        return (setup, (mine.isEmpty ? [DeviceProgress(device: setup.device, applied: 0, pending: 0, last: nil)] : mine)
                + others + Set(unseen).sorted().map { DeviceProgress(device: $0, applied: 0, pending: 0, last: nil) },
                skipped, waiting)
    }

    /// Why a stored operation waits.
    private func describe(_ stored: StoredOperation, _ r: StoreReader) throws -> Waiting {
        let origin = stored.origin ?? stored.device
        var w = Waiting(origin: origin, id: stored.id, kind: stored.kind, held: false, reason: "")
        guard let op = SyncOperation.parse(Substring(stored.body)) else {
            w.reason = "its line cannot be read"
            return w
        }
        let millis = op.millis ?? 0
        let now = context.now.timeIntervalSince1970 * 1000
        if Double(millis) > now + Double(SyncApplier.holdMillis) {
            w.held = true
            let at = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
            w.reason = "stamped \(at), more than 24 h ahead of this machine's clock: held until then"
            return w
        }
        if let reason = op.refusal() { w.reason = reason; return w }
        let medicine = op.medicine ?? ""
        let here = try r.medicationID(gid: medicine) != nil
        switch op.knownKind {
        case .add where !here:
            w.reason = (op.distinctFrom ?? []).isEmpty ? "waits for a schedule of medicine \(medicine)"
                : "waits for a schedule of medicine \(medicine), or for the medicines it is distinct from"
        case .undo:
            let target = op.target ?? ""
            w.reason = try r.eventID(operation: target) == nil ? "waits for the operation it undoes (\(target))"
                : "waits until the dose it undoes can be undone"
        default:
            w.reason = here ? "cannot apply here yet (a name in use?)" : "waits for medicine \(medicine)"
        }
        return w
    }

    private var notInitialised: DosebarError {
        .usage("sync is not set up: run 'dosebar sync init DIR' with a folder that Syncthing shares")
    }
}
