import DoseCore
import DoseFiles
import DoseStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `backup` and `restore`: consistent copies of the database while the daemon and other
/// writers run, and putting one back without ever leaving a half-written file under a name
/// the user gave, nor losing the database it replaces.
public struct BackupService {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// What `backup` wrote.
    public struct Written: Sendable {
        public var path: String
        public var bytes: Int
        public var contents: StoreContents
    }

    /// What `restore` did.
    public struct Restored: Sendable {
        public var contents: StoreContents
        /// Where the database it replaced is kept.
        public var keptAt: String
        /// The live database, now holding the restored data.
        public var store: DoseStore
        /// When this machine syncs and the backup was made by another device (or before `sync
        /// init`): the device id the backup carried (nil when it had none) — replaced by this
        /// machine's, which is kept with its sync folder and clock.
        public var otherDevice: String?? = nil
    }

    // MARK: - Backup

    /// Writes a consistent copy of the database to `target`, or into it when it is a directory
    /// (`dosebar-YYYY-MM-DDTHHMMSS.sqlite`, local time). Refuses (usage, exit 64) the live
    /// database itself and any existing file that is not a dosebar database.
    public func backup(to target: String) throws -> Written {
        var path = target
        if FileKind.of(target) == .directory {
            path = (target.hasSuffix("/") ? target : target + "/") + "dosebar-" + BackupService.localStamp(context.now, context.zone) + ".sqlite"
        }
        try checkReplaceable(path)
        let directory = BackupService.directory(of: path)
        guard FileKind.of(directory) == .directory else {
            throw DosebarError.io("cannot write \(path): the directory \(directory) does not exist")
        }
        let temporary = directory + "/." + FileIO.split(path).name + ".\(getpid()).tmp"
        BackupService.removeDatabaseFiles(temporary) // a leftover of an earlier process with our pid
        Temporaries.removeStale(in: directory)
        let registered = Temporaries.register(temporary)
        defer { Temporaries.unregister(registered) }
        let contents = try store.backup(intoNewFile: temporary)
        guard rename(temporary, path) == 0 else {
            let message = FileIO.reason(errno)
            BackupService.removeDatabaseFiles(temporary)
            throw DosebarError.io("cannot write \(path): \(message)")
        }
        BackupService.syncDirectory(directory)
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
        return Written(path: path, bytes: size, contents: contents)
    }

    /// Throws unless a backup may be written at `path`: not the live database (nor its
    /// companions), and either free or an earlier dosebar backup that no one has open.
    private func checkReplaceable(_ path: String) throws {
        try OutputTarget.check(path, database: context.dbPath, what: "the backup", kind: "a dosebar database",
                               replaces: .database, isSameKind: DoseStore.isDatabase(atPath:))
        // A -wal or hot -journal beside it would be applied to the new file by SQLite: it is in use.
        for suffix in ["-wal", "-journal"] where FileKind.of(path + suffix) != .missing {
            throw DosebarError.usage("\(path) is in use by another program (\(path + suffix) exists); give another file for the backup")
        }
    }

    // MARK: - Restore

    /// Replaces the database by the backup at `source`: validates and migrates a private copy of
    /// it, keeps a consistent copy of the current database as `<db>.replaced-<UTC time>`, then
    /// copies the backup into the live database through SQLite (safe while the daemon runs).
    /// A foreign, damaged or newer file is refused (exit 65) and an unreadable one (exit 74)
    /// before anything changes.
    public static func restore(_ context: AppContext, from source: String) throws -> Restored {
        switch FileKind.of(source) {
        case .missing: throw DosebarError.io("cannot read \(source): no such file; give the path of a backup")
        case .directory: throw DosebarError.io("\(source) is a directory; give the path of a backup file")
        case .other: throw DosebarError.io("\(source) is not a regular file; give the path of a backup file")
        case .file: break
        }
        if OutputTarget.sameFile(source, context.dbPath) {
            throw DosebarError.usage("\(source) is the live database; give a backup file to restore")
        }
        let dbDirectory = BackupService.directory(of: context.dbPath)
        // Only the default location's directories are created (DESIGN §9).
        if context.dbIsDefault {
            try BackupService.makePrivateDirectory(dbDirectory)
        } else if FileKind.of(dbDirectory) != .directory {
            throw DosebarError.io("cannot restore into \(context.dbPath): the directory \(dbDirectory) does not exist "
                + "(check --db/DOSEBAR_DB, or create the directory first)")
        }
        let staged = dbDirectory + "/.dosebar-restore.\(getpid()).sqlite"
        BackupService.removeDatabaseFiles(staged)
        Temporaries.removeStale(in: dbDirectory)
        let registered = Temporaries.register(staged)
        defer {
            BackupService.removeDatabaseFiles(staged)
            Temporaries.unregister(registered)
        }
        try BackupService.copyDatabaseFiles(from: source, to: staged)
        _ = try DoseStore.prepareRestore(staged: staged, named: source)

        // Only now is the live database touched.
        let store: DoseStore, keptAt: String, undo: () -> Void
        if let kept = try BackupService.keepUnlessCorrupt(context) {
            (store, keptAt) = kept
            undo = { BackupService.removeDatabaseFiles(keptAt) }
        } else {
            // A corrupt database cannot be copied through SQLite: it is moved aside whole, and the
            // backup goes into a new one (the very case its error message suggests a restore for).
            let moved = try BackupService.moveAside(context.dbPath, at: context.now)
            keptAt = moved.path
            undo = moved.undo
            do {
                store = try context.openStore(.create)
            } catch {
                undo()
                throw error
            }
        }
        do {
            let otherDevice = try keepSyncDevice(of: store, in: staged)
            let contents = try store.replaceContents(withStaged: staged)
            // What this machine wrote to its sync file after the backup was made is its own, not
            // another machine's (a copied home): it is applied again, so nothing is lost.
            do { try SyncService(context: context, store: store).adoptOwnFile() } catch { Output.warning("\(error)") }
            context.changed(store)
            return Restored(contents: contents, keptAt: keptAt, store: store, otherDevice: otherDevice)
        } catch {
            undo()
            throw error
        }
    }

    /// A backup carries the sync device id of the machine that made it. When this machine syncs
    /// and the backup's id differs, the staged copy gets this machine's id, folder and clock (the
    /// later of the two), so two machines never append to one file (DESIGN §10); its own
    /// operations the backup holds count as written (they are in this machine's file already).
    /// Returns the backup's id (`.some(nil)`: it had none) when it was replaced, nil otherwise.
    static func keepSyncDevice(of live: DoseStore, in staged: String) throws -> String?? {
        let mine = try live.read { r -> (device: String, dir: String?, clock: String?)? in
            guard let device = try r.meta(SyncMeta.device) else { return nil }
            return (device, try r.meta(SyncMeta.dir), try r.meta(SyncMeta.clock))
        }
        guard let mine else { return nil }
        return try DoseStore.editStaged(staged) { w -> String?? in
            let theirs = try w.reader.meta(SyncMeta.device)
            guard theirs != mine.device else { return nil }
            try w.setMeta(SyncMeta.device, mine.device)
            try w.setMeta(SyncMeta.dir, mine.dir)
            var clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
            if let current = mine.clock.flatMap(SyncClock.init) { clock.receive(current) }
            try w.setMeta(SyncMeta.clock, clock.state)
            let written = try w.reader.operations(device: mine.device, after: 0).last?.seq ?? 0
            try w.setMeta(SyncMeta.written, String(written))
            return .some(theirs)
        }
    }

    /// The live database and the consistent copy of it kept beside it, or nil when the live
    /// file is corrupt (any other failure is thrown).
    static func keepUnlessCorrupt(_ context: AppContext) throws -> (DoseStore, String)? {
        do {
            let store = try context.openStore(.create)
            return (store, try keepReplaced(store, at: context.now))
        } catch where DoseStore.isCorruptFileError(error, path: context.dbPath) {
            return nil
        }
    }

    /// Renames a database that SQLite cannot read (and its companions) to the first free
    /// `.replaced-` name; returns that name and how to put it back.
    static func moveAside(_ path: String, at now: Date) throws -> (path: String, undo: () -> Void) {
        let base = path + ".replaced-" + utcStamp(now)
        for n in 1...100 {
            let name = n == 1 ? base : base + "-\(n)"
            guard FileKind.of(name, followLinks: false) == .missing else { continue }
            // link() never replaces an existing name, unlike rename().
            guard link(path, name) == 0 else {
                if errno == EEXIST { continue }
                throw DosebarError.io("cannot move the damaged database \(path) aside: \(FileIO.reason(errno))")
            }
            unlink(path)
            for suffix in ["-wal", "-shm", "-journal"] where FileKind.of(path + suffix) != .missing {
                rename(path + suffix, name + suffix)
            }
            syncDirectory(directory(of: path))
            let undo = {
                removeDatabaseFiles(path)
                for suffix in ["", "-wal", "-shm", "-journal"] where FileKind.of(name + suffix) != .missing {
                    rename(name + suffix, path + suffix)
                }
            }
            return (name, undo)
        }
        throw DosebarError.io("cannot move the damaged database aside: \(base) and 99 more names are taken; move old .replaced files away")
    }

    /// A consistent copy of `store` as `<db>.replaced-YYYYMMDDTHHMMSSZ` (`-2`, `-3`… when that
    /// name is taken), never replacing a file; returns its path.
    static func keepReplaced(_ store: DoseStore, at now: Date) throws -> String {
        let base = store.path + ".replaced-" + utcStamp(now)
        let temporary = BackupService.directory(of: store.path) + "/.dosebar-replaced.\(getpid()).tmp"
        removeDatabaseFiles(temporary)
        let registered = Temporaries.register(temporary)
        defer {
            removeDatabaseFiles(temporary)
            Temporaries.unregister(registered)
        }
        _ = try store.backup(intoNewFile: temporary)
        for n in 1...100 {
            let name = n == 1 ? base : base + "-\(n)"
            // link() never replaces an existing name, unlike rename().
            if link(temporary, name) == 0 {
                syncDirectory(directory(of: name))
                return name
            }
            guard errno == EEXIST else {
                throw DosebarError.io("cannot keep the current database as \(name): \(FileIO.reason(errno))")
            }
        }
        throw DosebarError.io("cannot keep the current database: \(base) and 99 more names are taken; move old .replaced files away")
    }

    // MARK: - Files

    enum FileKind: Equatable {
        case missing, file, directory, other

        static func of(_ path: String, followLinks: Bool = true) -> FileKind {
            var info = stat()
            let status = followLinks ? stat(path, &info) : lstat(path, &info)
            guard status == 0 else { return .missing }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .directory
            default: return .other
            }
        }
    }

    static func directory(of path: String) -> String {
        FileIO.split(path).directory
    }

    static func makePrivateDirectory(_ directory: String) throws {
        if FileKind.of(directory) == .directory { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw DosebarError.io("cannot create the database directory \(directory); check its parent's permissions")
        }
    }

    /// Copies a database file byte for byte, with its `-wal` or `-journal` when present (SQLite
    /// applies them when it opens the copy), into new files with mode 0600.
    static func copyDatabaseFiles(from source: String, to destination: String) throws {
        try copyFile(source, destination, name: source)
        for suffix in ["-wal", "-journal"] where FileKind.of(source + suffix) == .file {
            try copyFile(source + suffix, destination + suffix, name: source + suffix)
        }
    }

    private static func copyFile(_ from: String, _ to: String, name: String) throws {
        let input = open(from, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DosebarError.io("cannot read \(name): \(FileIO.reason(errno))") }
        defer { close(input) }
        let output = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw DosebarError.io("cannot create \(to): \(FileIO.reason(errno))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw DosebarError.io("cannot read \(name): \(FileIO.reason(errno))")
            }
            if n == 0 { return }
            if let code = buffer.withUnsafeBytes({ FileIO.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<n])) }) {
                throw DosebarError.io("cannot write \(to): \(FileIO.reason(code))")
            }
        }
    }

    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// fsync of a directory, so a rename in it survives a power cut.
    static func syncDirectory(_ directory: String) { FileIO.syncDirectory(directory) }

    // MARK: - Names

    /// `YYYYMMDDTHHMMSSZ`.
    static func utcStamp(_ instant: Date) -> String {
        let f = fields(instant, offset: 0)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", f.0, f.1, f.2, f.3, f.4, f.5)
    }

    /// `YYYY-MM-DDTHHMMSS` in `zone`.
    static func localStamp(_ instant: Date, _ zone: Zone) -> String {
        let f = fields(instant, offset: zone.offset(at: instant))
        return String(format: "%04d-%02d-%02dT%02d%02d%02d", f.0, f.1, f.2, f.3, f.4, f.5)
    }

    private static func fields(_ instant: Date, offset: Int) -> (Int, Int, Int, Int, Int, Int) {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down)) + time_t(offset)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
