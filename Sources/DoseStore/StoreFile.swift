import CSQLiteShim
import DoseCore
import DoseFiles
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening the database file safely: private permissions, identity check before any write,
/// WAL mode, migrations.
enum StoreFile {
    /// The pages (4 KiB each) the log may hold before the commit that passes them empties it.
    /// Every process's first read goes through the whole log (see the shim): 128 pages cost it at
    /// most 128 reads, and a `take` writes about six, so the log is emptied every twenty or so.
    static let logPages = 128

    /// The connection settings every dosebar connection uses.
    static func configuration(busyTimeout: TimeInterval = DoseStore.busyTimeout) -> Configuration {
        _ = noMemoryCount
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        config.label = "dosebar"
        // The log stays when the connection closes: no checkpoint and four disk syncs at the end of
        // every command; it is emptied by the commit that takes it past `logPages` (see the shim).
        // Set before anything is read, on every connection.
        config.prepareDatabase { db in
            guard let connection = db.sqliteConnection else { return }
            _ = dosebar_sqlite3_no_checkpoint_on_close(connection)
            dosebar_sqlite3_truncate_log_after(connection, Int32(logPages), busyMilliseconds(busyTimeout))
        }
        return config
    }

    /// SQLite's memory count off, once, before the first connection (see the shim).
    private static let noMemoryCount: Int32 = dosebar_sqlite3_no_memory_count()

    /// A busy timeout as the shim's log hook takes it (see `dosebar_sqlite3_truncate_log_after`).
    static func busyMilliseconds(_ timeout: TimeInterval) -> Int32 {
        Int32(clamping: Int((timeout * 1000).rounded()))
    }

    /// The busy timeout `queue`'s connection runs with, in milliseconds (0 when it has none).
    static func busyMilliseconds(of queue: DatabaseQueue) -> Int32 {
        if case .timeout(let t) = queue.configuration.busyMode { return busyMilliseconds(t) }
        return 0
    }

    /// Thrown instead of the first change an open that may not change the database would make
    /// (its journal mode, our stamp on an empty file, a migration).
    struct WouldChange: Error {}

    /// `changing: false`: the database is opened only as it is (``WouldChange`` otherwise): in WAL
    /// mode, ours and migrated (``HeadStart`` in DoseApp opens it before the command is known).
    static func openQueue(path: String, busyTimeout: TimeInterval, creation: DoseStore.Creation = .withDirectories,
                          changing: Bool = true) throws -> DatabaseQueue {
        let created = try createIfMissing(path, changing ? creation : .never)
        // Nothing below writes to the file until its identity is known.
        if !created { try checkIdentity(path, busyTimeout: busyTimeout) }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration(busyTimeout: busyTimeout))
            try queue.writeWithoutTransaction { db in
                let mode = try String.fetchOne(db, sql: changing ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode")
                guard mode == "wal" else {
                    if !changing { throw WouldChange() }
                    throw DosebarError.io("cannot put \(path) in WAL mode (journal mode stays '\(mode ?? "?")'); "
                        + "keep the database on a local file system")
                }
                // Safe against crashes in WAL mode; only a power cut may lose the last commit.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            let claimed = try claim(queue, path: path, changing: changing)
            let migrated = try migrate(queue, path: path, changing: changing)
            if claimed || migrated {
                // Put the new header and schema in the main file now, so the next opener
                // recognises the file from its header alone.
                try queue.writeWithoutTransaction { _ = try Row.fetchAll($0, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            }
            return queue
        } catch let error as WouldChange {
            throw error
        } catch let error as DatabaseError
                    where !created && [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM].contains(error.resultCode) {
            // A database on a read-only mount or in a directory not ours to write: read as it is
            // (reading commands work; a write fails then, 74, saying the database is read-only).
            if let queue = openReadOnly(path: path, busyTimeout: busyTimeout) { return queue }
            throw StoreErrors.map(error, path: path)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// The database opened read-only when it is ours and needs no migration; nil otherwise (the
    /// read-write error is the one to tell). Where not even its `-shm` can be made (a read-only
    /// mount, the log emptied by the last writer), as `immutable`: nothing can change it there.
    static func openReadOnly(path: String, busyTimeout: TimeInterval) -> DatabaseQueue? {
        var config = configuration(busyTimeout: busyTimeout)
        config.readonly = true
        for location in [path, immutableURI(path)] {
            guard let queue = try? DatabaseQueue(path: location, configuration: config),
                  (try? queue.snapshot({ try identity($0) })) == .ours else { continue }
            guard (try? queue.snapshot({ try Schema.migrator.hasCompletedMigrations($0) && !Schema.migrator.hasBeenSuperseded($0) })) == true
            else { return nil }
            return queue
        }
        return nil
    }

    /// Stamps an empty database with our application id and creates the migrator's bookkeeping
    /// table, in one transaction, before anything else touches it.
    ///
    /// Several processes may open a new database at the same moment: none of them may see a
    /// table without our id (it would look foreign), nor our id without the migrator's table
    /// (GRDB's migrator fails when that table appears while it checks for it).
    /// Returns whether it stamped the file.
    @discardableResult
    static func claim(_ queue: DatabaseQueue, path: String, changing: Bool = true) throws -> Bool {
        if try queue.snapshot({ try identity($0) }) == .ours { return false }
        if !changing { throw WouldChange() }
        try queue.inTransaction(.immediate) { db in
            switch try identity(db) {
            case .ours: break
            case .empty:
                try db.execute(sql: """
                    PRAGMA application_id = \(Schema.applicationID);
                    CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    """)
            case .foreign: throw StoreErrors.foreign(path)
            }
            return .commit
        }
        return true
    }

    /// Runs pending migrations, refusing a database migrated by a newer dosebar.
    /// Returns whether there were any.
    @discardableResult
    static func migrate(_ queue: DatabaseQueue, path: String, changing: Bool = true) throws -> Bool {
        let migrator = Schema.migrator
        let (superseded, complete) = try queue.snapshot { db in
            (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
        }
        if superseded { throw StoreErrors.newer(path) }
        if complete { return false }
        if !changing { throw WouldChange() }
        // Processes opening a new database at once may try the same migration: the loser's
        // transaction fails and rolls back while the winner's is done. Each failure means another
        // process got further, so try again until every migration is in (bounded: one per migration
        // and a few more).
        var attempt = 0
        while true {
            do {
                // The log copied into the file and emptied after each migration's commit: a new
                // database's eleven migrations would otherwise leave a 354 KB log beside a 135 KB
                // file (more than a nearly full disk may hold), truncated only past ``logPages``.
                try truncatingLogAtEveryCommit(queue) { try migrator.migrate(queue) }
                return true
            } catch {
                if try queue.read(migrator.hasCompletedMigrations) { return true }
                attempt += 1
                if attempt > 16 { throw error }
                usleep(UInt32(1_000 * attempt))
            }
        }
    }

    /// Runs `body` with the log copied into the database and emptied after every commit (when no
    /// reader needs it), then gives the connection back its bound of ``logPages``.
    static func truncatingLogAtEveryCommit(_ queue: DatabaseQueue, _ body: () throws -> Void) throws {
        func bound(_ pages: Int32) {
            queue.writeWithoutTransaction { db in
                if let connection = db.sqliteConnection {
                    dosebar_sqlite3_truncate_log_after(connection, pages, busyMilliseconds(of: queue))
                }
            }
        }
        bound(1)
        defer { bound(Int32(logPages)) }
        try body()
    }

    // MARK: - Identity

    private enum Identity { case ours, empty, foreign }

    /// Ours when it carries our application id; empty when it has no id, no schema and no
    /// user version; anything else belongs to another program.
    private static func identity(_ db: Database) throws -> Identity {
        let app = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if app == Schema.applicationID { return .ours }
        let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        return app == 0 && objects == 0 && userVersion == 0 ? .empty : .foreign
    }

    /// Throws unless `path` is a dosebar database or an empty one. Never writes to it.
    static func checkIdentity(_ path: String, busyTimeout: TimeInterval) throws {
        if headerApplicationID(path) == Schema.applicationID { return }
        // First a peek that can neither change nor create anything (`immutable`: no locks, no
        // -wal/-shm left beside another program's database). It does not see pages still in a
        // WAL and may race a writer, so only "foreign" is final; on anything else (including
        // SQLite built without URI support, which cannot open the URI) the read-only probe decides.
        switch try? probe(immutableURI(path), busyTimeout: busyTimeout) {
        case .foreign: throw StoreErrors.foreign(path)
        case .ours: return
        case .empty, nil: break
        }
        let identity: Identity
        do {
            identity = try probe(path, busyTimeout: busyTimeout)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw StoreErrors.corrupt(path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            // A process killed while it created the database left a WAL index to recover, which a
            // read-only connection cannot do (SQLITE_READONLY_RECOVERY/CANTINIT): every later run
            // would fail the same way. The read-write connection recovers it, and claim() still
            // refuses a foreign database inside its transaction before anything is written.
            return
        } catch {
            throw StoreErrors.map(error, path: path)
        }
        if identity == .foreign { throw StoreErrors.foreign(path) }
    }

    /// What a read-only connection to `path` (a file name or a `file:` URI) sees.
    private static func probe(_ path: String, busyTimeout: TimeInterval) throws -> Identity {
        var config = configuration(busyTimeout: busyTimeout)
        config.readonly = true
        let probe = try DatabaseQueue(path: path, configuration: config)
        let identity = try probe.read { try Self.identity($0) }
        try probe.close()
        return identity
    }

    /// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for c in path.unicodeScalars {
            switch c {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(c)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// The application id in the 100-byte SQLite header of the main file, if it has one.
    static func headerApplicationID(_ path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 100) }
        guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        return Int32(bitPattern: header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    // MARK: - Files and directories

    /// Creates an empty file with mode 0600 as `creation` allows (`.withDirectories`: missing
    /// parent directories too, with mode 0700). Returns false when the file already exists.
    static func createIfMissing(_ path: String, _ creation: DoseStore.Creation = .withDirectories) throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return false }
        guard errno == ENOENT else { throw ioError("cannot access", path) }
        let directory = FileIO.split(path).directory
        switch creation {
        case .never:
            throw DosebarError.io("no database at \(path) (check --db/DOSEBAR_DB; `dosebar add` creates one)")
        case .inExistingDirectory:
            let parent = directory
            guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw DosebarError.io("cannot create the database \(path): the directory \(parent) does not exist "
                    + "(check --db/DOSEBAR_DB, or create the directory first)")
            }
        case .withDirectories:
            try makeDirectories(directory)
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw ioError("cannot create", path)
        }
        defer { close(fd) }
        _ = fchmod(fd, 0o600) // in case the umask took bits away
        return true
    }

    /// `mkdir -p` with mode 0700 for every directory it creates.
    static func makeDirectories(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw DosebarError.io("\(directory) is not a directory; pass another --db")
            }
            return
        }
        guard errno == ENOENT else { throw ioError("cannot access", directory) }
        let parent = FileIO.split(directory).directory
        if parent != directory { try makeDirectories(parent) }
        if mkdir(directory, 0o700) != 0 {
            if errno == EEXIST { return }
            throw ioError("cannot create directory", directory)
        }
        _ = chmod(directory, 0o700)
    }

    private static func ioError(_ what: String, _ path: String) -> DosebarError {
        .io("\(what) \(path): \(FileIO.reason(errno)); check the path and its permissions")
    }
}
