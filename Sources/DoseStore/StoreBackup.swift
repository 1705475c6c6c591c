import DoseCore
import DoseFiles
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// What a dosebar database holds, in the numbers `backup` and `restore` report.
public struct StoreContents: Sendable, Equatable {
    /// Rows of `medication`, archived ones included.
    public var medications: Int
    /// Rows of `event` (takes, skips and undos).
    public var events: Int
}

/// Backups and restores through SQLite's online backup API: a copy is one consistent state of
/// the database even while other processes write, and a restore goes through SQLite's pager,
/// so every other connection (the daemon's) sees a new `data_version` and reads the new data.
extension DoseStore {
    /// Writes a consistent copy of the whole database into the new file `path` (which must not
    /// exist): mode 0600, one self-contained file (rollback journal, not WAL), checked with
    /// `PRAGMA integrity_check` and synced to disk. On failure the file is removed.
    public func backup(intoNewFile path: String) throws -> StoreContents {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DosebarError.io("cannot create \(path): \(FileIO.reason(errno)); check the directory's permissions")
        }
        _ = fchmod(fd, 0o600)
        close(fd)
        var done = false
        defer { if !done { StoreBackup.removeDatabaseFiles(path) } }
        do {
            let copy = try DatabaseQueue(path: path, configuration: StoreFile.configuration())
            // One step: the whole copy is read in one read transaction, so it is one committed
            // state; writers in WAL mode go on meanwhile.
            try dbQueue.backup(to: copy)
            let contents = try copy.writeWithoutTransaction { db in
                // The copied header says WAL (the live database's mode); a backup is one file.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                try StoreBackup.checkIntegrity(db) { StoreErrors.corrupt(self.path) }
                return try StoreBackup.contents(db)
            }
            try copy.close()
            try StoreBackup.sync(path)
            done = true
            return contents
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            // The copy is new and was written by SQLite: what it could not read is this database.
            throw StoreErrors.corrupt(self.path)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Replaces everything in this database by the content of `staged`, a private working copy
    /// that ``prepareRestore(staged:named:)`` accepted and migrated. One write transaction,
    /// through SQLite's pager: readers see the old state or the new one, never a mix.
    public func replaceContents(withStaged staged: String) throws -> StoreContents {
        do {
            let source = try DatabaseQueue(path: staged, configuration: StoreFile.configuration())
            // The online backup into a WAL database needs equal page sizes.
            let livePageSize = try dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA page_size") ?? 4096 }
            try source.writeWithoutTransaction { db in
                if try Int.fetchOne(db, sql: "PRAGMA page_size") != livePageSize {
                    try db.execute(sql: "PRAGMA page_size = \(livePageSize)")
                    try db.execute(sql: "VACUUM")
                }
            }
            try source.backup(to: dbQueue)
            try source.close()
            return try dbQueue.read(StoreBackup.contents)
        } catch {
            throw StoreErrors.map(error, path: path)
        }
    }

    /// Checks that `staged` (a private copy of the file the user named `name`) is a whole dosebar
    /// database this dosebar can read, and migrates it to the current schema. Throws
    /// `DosebarError.badData` naming `name` for a foreign, damaged or newer file.
    public static func prepareRestore(staged: String, named name: String) throws -> StoreContents {
        let damaged = DosebarError.badData("\(name) is damaged (not a whole SQLite database); it was not restored, try another backup")
        guard let size = (try? FileManager.default.attributesOfItem(atPath: staged))?[.size] as? Int else {
            throw DosebarError.io("cannot read the copy of \(name) at \(staged)")
        }
        if size == 0 { throw DosebarError.badData("\(name) is empty, not a dosebar backup; it was not restored") }
        guard StoreBackup.hasSQLiteHeader(staged) else {
            throw DosebarError.badData("\(name) is not a SQLite database (damaged, or another kind of file); it was not restored")
        }
        let foreign = DosebarError.badData("\(name) is not a dosebar backup (a database of another program); it was not restored")
        let newer = DosebarError.badData("\(name) was written by a newer dosebar; upgrade dosebar to restore it")
        do {
            let queue = try DatabaseQueue(path: staged, configuration: StoreFile.configuration())
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                if try Int32.fetchOne(db, sql: "PRAGMA application_id") != Schema.applicationID { throw foreign }
                // One self-contained file, whose page size may change below.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                try StoreBackup.checkIntegrity(db) { damaged }
                guard try db.tableExists("grdb_migrations") else { throw damaged }
            }
            let migrator = Schema.migrator
            if try queue.read(migrator.hasBeenSuperseded) { throw newer }
            try migrator.migrate(queue)
            return try queue.read(StoreBackup.contents)
        } catch let error as DosebarError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw damaged
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A migration met rows it cannot carry over.
            throw DosebarError.badData("\(name) holds data this dosebar cannot migrate (\(error.message ?? "constraint")); it was not restored")
        } catch let error as DatabaseError where !Self.isFileSystemError(error) {
            // The copy was just written whole by us: whatever else SQLite says of it ("unsupported file
            // format", a short read of a cut page, a malformed schema) is the backup's damage (65).
            throw DosebarError.badData("\(name) is damaged (\(error.message ?? "\(error.resultCode)")); it was not restored, try another backup")
        } catch {
            throw StoreErrors.map(error, path: name)
        }
    }

    /// Whether `error` is about the disk or the file's access rather than its contents: those keep
    /// their own messages and codes (a full disk 74, a busy file 75).
    static func isFileSystemError(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_NOMEM:
            true
        case .SQLITE_IOERR:
            error.extendedResultCode != .SQLITE_IOERR_SHORT_READ
        default:
            false
        }
    }

    /// Runs `body` in one write transaction on a copy staged by ``prepareRestore(staged:named:)``,
    /// before it replaces the live database (what must not come from the backup, such as this
    /// machine's sync device id).
    public static func editStaged<T>(_ staged: String, _ body: (StoreWriter) throws -> T) throws -> T {
        do {
            let queue = try DatabaseQueue(path: staged, configuration: StoreFile.configuration())
            defer { try? queue.close() }
            return try queue.write { db in try body(StoreWriter(db: db, path: staged, now: Date())) }
        } catch let error as DosebarError {
            throw error
        } catch {
            throw StoreErrors.map(error, path: staged)
        }
    }

    /// Whether `error` is the refusal to open the corrupt (or non-SQLite) database file at `path`.
    public static func isCorruptFileError(_ error: any Error, path: String) -> Bool {
        (error as? DosebarError) == StoreErrors.corrupt(path)
    }

    /// Whether `path` is a dosebar database, judged from its header alone (never opened).
    public static func isDatabase(atPath path: String) -> Bool {
        StoreFile.headerApplicationID(path) == Schema.applicationID
    }
}

/// The checks and file chores of backups.
enum StoreBackup {
    static func contents(_ db: Database) throws -> StoreContents {
        StoreContents(medications: try Int.fetchOne(db, sql: "SELECT count(*) FROM medication") ?? 0,
                      events: try Int.fetchOne(db, sql: "SELECT count(*) FROM event") ?? 0)
    }

    /// Throws `failure()` unless `PRAGMA integrity_check` says ok and no foreign key dangles.
    static func checkIntegrity(_ db: Database, _ failure: () -> DosebarError) throws {
        let verdict = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard verdict == ["ok"] else { throw failure() }
        guard try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty else { throw failure() }
    }

    /// Whether the file starts with SQLite's 16-byte magic string.
    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 16)) ?? Data()
        return magic == Data("SQLite format 3\0".utf8)
    }

    /// fsync of a file, so a rename that follows publishes whole content.
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let message = FileIO.reason(errno)
            if fd >= 0 { close(fd) }
            throw DosebarError.io("cannot sync \(path): \(message)")
        }
        close(fd)
    }

    /// Removes a database file and the companions SQLite may have left beside it.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
