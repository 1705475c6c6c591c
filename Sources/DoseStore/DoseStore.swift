import CSQLiteShim
import DoseCore
import Foundation
import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of dosebar's SQLite database: opens it safely, migrates it, and runs
/// every read and write as one transaction.
///
/// The database is in WAL mode with a 10 s busy timeout, and every write transaction is
/// `IMMEDIATE`, so a read-decide-write done inside ``write(_:)`` is atomic even across
/// processes (the daemon, a bar click, a terminal).
public final class DoseStore: Sendable {
    /// Where the database lives (`:memory:` for ``inMemory()``).
    public let path: String
    /// How long a writer waits for another one before failing with `DosebarError.busy`.
    public static let busyTimeout: TimeInterval = 10

    /// Internal so tests can inspect the raw database.
    let dbQueue: DatabaseQueue
    /// What "now" is for the validation gate (``FieldRules/instant(_:now:field:)``): no instant
    /// written may be more than 24 h after it.
    let clock: @Sendable () -> Date

    private init(dbQueue: DatabaseQueue, path: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.dbQueue = dbQueue
        self.path = path
        self.clock = clock
        DoseStore.keptUntilExit.withLock { $0?.append(dbQueue) }
    }

    /// For a command that exits when its work is done: every connection it opens from now on stays
    /// open until the process ends, and the system closes it. Closing one disposes of GRDB's
    /// dispatch queue, which starts a libdispatch worker thread (and that its manager) just as the
    /// process exits, and the exit waits for them, in every bar click (Benchmarks/README.md,
    /// "Measured reasons in the code"). SQLite needs no close: every transaction is in the log once
    /// committed. Never for the daemon or `watch`, which open a connection per refresh.
    public static func keepConnectionsUntilExit() {
        keptUntilExit.withLock { if $0 == nil { $0 = [] } }
    }

    /// The connections ``keepConnectionsUntilExit()`` keeps; nil until it is called.
    private static let keptUntilExit = Mutex<[DatabaseQueue]?>(nil)

    /// Opens the database at `path`, creating it (and missing parent directories, mode 0700)
    /// with mode 0600 when absent.
    ///
    /// Refuses, without modifying it, a file that is not a dosebar database, a corrupt or
    /// non-SQLite file, and a database written by a newer dosebar: all `DosebarError.badData`.
    ///
    /// `clock` is "now" for the validation gate (the system clock unless a command runs at another instant).
    public convenience init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        try self.init(path: path, busyTimeout: DoseStore.busyTimeout, clock: clock)
    }

    /// Whether opening may create the database file (DESIGN §9: only the default location's
    /// directories are created, and a command that only reads never creates a database).
    public enum Creation: Sendable {
        /// Creates the file and missing parent directories (mode 0700): the default location.
        case withDirectories
        /// Creates the file only when its directory exists, else `io` (exit 74) naming the directory.
        case inExistingDirectory
        /// Never creates: a missing file is `io` (exit 74).
        case never
    }

    /// Opens the database at `path`, creating it only as `creation` allows; otherwise as ``init(path:)``.
    /// `changing: false`: opens only a database that needs no change to be used (in WAL mode,
    /// stamped and migrated); anything else throws without writing.
    public convenience init(path: String, creation: Creation, changing: Bool = true,
                            clock: @escaping @Sendable () -> Date = { Date() }) throws {
        let queue = try StoreFile.openQueue(path: path, busyTimeout: DoseStore.busyTimeout, creation: creation, changing: changing)
        self.init(dbQueue: queue, path: path, clock: clock)
    }

    /// Opens with another busy timeout (tests).
    convenience init(path: String, busyTimeout: TimeInterval, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        let queue = try StoreFile.openQueue(path: path, busyTimeout: busyTimeout)
        self.init(dbQueue: queue, path: path, clock: clock)
    }

    /// Whether the file at `path` starts with a SQLite header carrying dosebar's application id
    /// (a copy dosebar made; read from the header alone, nothing opened).
    public static func isDosebarFile(_ path: String) -> Bool {
        StoreFile.headerApplicationID(path) == Schema.applicationID
    }

    /// A fresh private in-memory database, for tests.
    public static func inMemory(clock: @escaping @Sendable () -> Date = { Date() }) throws -> DoseStore {
        let path = ":memory:"
        do {
            let queue = try DatabaseQueue(configuration: StoreFile.configuration())
            try Schema.migrator.migrate(queue)
            return DoseStore(dbQueue: queue, path: path, clock: clock)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// SQLite's `PRAGMA data_version` on this store's connection: it changes when another
    /// connection (another process) commits, never for this store's own writes.
    public func dataVersion() throws -> Int {
        do {
            return try dbQueue.inDatabase { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Runs `body` on one consistent read-only snapshot of the database.
    ///
    /// The reader is valid only inside `body`; do not keep it.
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        let path = path
        do {
            return try dbQueue.snapshot { db in try body(StoreReader(db: db, path: path)) }
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Runs `body` in one `IMMEDIATE` write transaction: everything it writes is committed
    /// together, or nothing is when it throws.
    ///
    /// Waits up to ``busyTimeout`` for other writers, then throws `DosebarError.busy`.
    /// The writer is valid only inside `body`; do not keep it.
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        try write(cacheMegabytes: nil, body)
    }

    /// Gives the heap's free memory back to the system after long work (a raised cache, a long
    /// file's batches): malloc otherwise keeps it, and a daemon that applied another device's
    /// 20 years stayed at 133 MB resident (24 MB before it).
    public static func releaseFreeMemory() {
        dosebar_release_free_heap()
    }

    /// Runs `body` (several write transactions: another device's long file, a batch each) with
    /// SQLite's page cache raised to `cacheMegabytes` and the log emptied only past
    /// `logMegabytes` instead of past ``StoreFile/logPages``, both put back after (the cache's
    /// memory freed). A cache kept from one transaction to the next is not read again from the file
    /// at each, and fewer checkpoints copy and sync each page fewer times.
    ///
    /// `copyingAside`: the log is copied into the main file from a quarter of `logMegabytes` on by
    /// a thread of its own (``LogCopier``) while `body`'s commits go on; the commit past
    /// `logMegabytes` only copies what that thread has not yet and truncates the log. All of it is
    /// copied before this returns.
    @discardableResult
    public func bulk<T>(cacheMegabytes: Int, logMegabytes: Int, copyingAside: Bool = false, _ body: () throws -> T) throws -> T {
        let path = path
        let frames = Int32(max(StoreFile.logPages, logMegabytes * 1024 * 1024 / 4096))
        let copier = copyingAside ? LogCopier(path: path, frames: frames / 4, truncatingPast: frames,
                                              busyMilliseconds: StoreFile.busyMilliseconds(of: dbQueue)) : nil
        do {
            // The log's bound is the shim's hook (never `PRAGMA wal_autocheckpoint`: it would
            // replace the hook with SQLite's own, which copies the log without truncating it).
            let before = try dbQueue.writeWithoutTransaction { db -> Int? in
                let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size")
                try db.execute(sql: "PRAGMA cache_size = \(-cacheMegabytes * 1024)")
                if let connection = db.sqliteConnection {
                    if let copier {
                        copier.follow(connection)
                    } else {
                        dosebar_sqlite3_truncate_log_after(connection, frames, StoreFile.busyMilliseconds(of: dbQueue))
                    }
                }
                return cache
            }
            defer {
                // The hook first: the copier's signal is freed below.
                try? dbQueue.writeWithoutTransaction { db in
                    if let connection = db.sqliteConnection {
                        dosebar_sqlite3_truncate_log_after(connection, Int32(StoreFile.logPages),
                                                           StoreFile.busyMilliseconds(of: dbQueue))
                    }
                    if let before { try db.execute(sql: "PRAGMA cache_size = \(before)") }
                    try db.execute(sql: "PRAGMA shrink_memory")
                }
                copier?.finish()
                DoseStore.releaseFreeMemory()
            }
            return try body()
        } catch let error as DosebarError {
            throw error
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// ``write(_:)`` with SQLite's page cache raised to `cacheMegabytes` for this transaction (then
    /// put back, and its memory freed): a transaction that writes far more pages than the default
    /// cache holds (2 MB) would otherwise spill them to the log and read them back, again and again.
    public func write<T>(cacheMegabytes: Int?, _ body: (StoreWriter) throws -> T) throws -> T {
        do {
            return try transaction(cacheMegabytes: cacheMegabytes, body)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// `write(body)` for what is only a cache (the day summaries a reading command brings up to
    /// date): nil, with nothing written, when the database cannot be written now — a read-only
    /// file, directory or mount, or another writer holding it past the busy timeout. The command
    /// then computes without keeping (DESIGN §9: reading commands never fail for their caches).
    public func writeIfWritable<T>(_ body: (StoreWriter) throws -> T) throws -> T? {
        do {
            return try transaction(cacheMegabytes: nil, body)
        } catch let error as DatabaseError
                    where [.SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_PERM].contains(error.resultCode) {
            return nil
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    private func transaction<T>(cacheMegabytes: Int?, _ body: (StoreWriter) throws -> T) throws -> T {
        let path = path, now = clock()
        return try dbQueue.writeWithoutTransaction { db in
            let before = cacheMegabytes == nil ? nil : try Int.fetchOne(db, sql: "PRAGMA cache_size")
            if let cacheMegabytes { try db.execute(sql: "PRAGMA cache_size = \(-cacheMegabytes * 1024)") }
            defer { if let before { try? db.execute(sql: "PRAGMA cache_size = \(before)") } }
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(StoreWriter(db: db, path: path, now: now))
                return .commit
            }
            guard let result else { throw DosebarError.internal("write transaction produced no result") }
            return result
        }
    }
}

extension DatabaseQueue {
    /// GRDB's `read` (one deferred transaction: a consistent snapshot) without the
    /// `PRAGMA query_only` it sets around it. Setting that pragma expires every prepared statement
    /// of the connection (as every SQLite flag pragma does), so each read prepared its queries
    /// again, and so did the write after it (Benchmarks/README.md). ``StoreReader`` offers queries
    /// only.
    func snapshot<T>(_ body: (Database) throws -> T) throws -> T {
        try inDatabase { db in
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                return .commit
            }
            guard let result else { throw DosebarError.internal("read transaction produced no result") }
            return result
        }
    }
}
