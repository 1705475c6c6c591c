import DoseCore
import DoseFiles
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// Turns SQLite and GRDB failures into `DosebarError`s a person can act on.
enum StoreErrors {
    static func map(_ error: any Error, path: String) -> any Error {
        switch error {
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return DosebarError.busy("the database \(path) is busy (another process, a dosebar or a program such as sqlite3, is writing to it); try again")
            case .SQLITE_FULL:
                return full(path)
            case .SQLITE_IOERR where diskIsFull(path):
                // A full disk surfaces as an I/O error when SQLite cannot grow the -shm or -wal file.
                return full(path)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return corrupt(path)
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_AUTH:
                return DosebarError.io("cannot use the database \(path) (\(error.message ?? "\(error.resultCode)")); "
                    + "check that it and its directory are writable by you")
            default:
                return DosebarError.internal("database error on \(path): \(error)")
            }
        case let error as RowDecodingError:
            return DosebarError.badData("\(path) holds a value dosebar cannot read (\(error)); restore a backup")
        default:
            return error
        }
    }

    static func full(_ path: String) -> DosebarError {
        .io("the disk holding \(path) is full; free some space and try again")
    }

    /// Whether the file system holding `path` has no block left for us.
    static func diskIsFull(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(FileIO.split(path).directory, &info) == 0 else { return false }
        return info.f_bavail == 0
    }

    static func corrupt(_ path: String) -> DosebarError {
        .badData("\(path) is corrupt or not SQLite; move it away (dosebar then starts a new database) "
            + "or restore a backup, or pass another --db")
    }

    static func foreign(_ path: String) -> DosebarError {
        .badData("\(path) is not a dosebar database (it belongs to another program); "
            + "pass another --db or set DOSEBAR_DB to a new file")
    }

    static func newer(_ path: String) -> DosebarError {
        .badData("\(path) was written by a newer dosebar than this one; upgrade dosebar")
    }

    /// Whether `error` is the unique index on active medicine names.
    static func isDuplicateName(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            && (error.message ?? "").contains("medication.name_key")
    }
}
