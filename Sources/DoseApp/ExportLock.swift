import DoseCore
import DoseFiles
import DoseExport
import DoseStore
import Foundation

/// Serialises "read the database, render, write the shared directory" across processes.
///
/// Without it two writers race: one commits and reads, the other commits, reads and writes,
/// then the first writes its older view last and the bar shows a stale day. Under the lock
/// every exporter reads the database after the previous one finished writing, so the last
/// writer has seen every commit before it.
enum ExportLock {
    /// Runs `body` holding an exclusive `flock` on `<dir>/.lock` (created 0600 after the
    /// directory passes SharedDirectory's checks).
    static func run<T>(dir: String, _ body: () throws -> T) throws -> T {
        try SharedDirectory(path: dir).prepare()
        let lock = SharedDirectory(path: dir).path(of: SharedDirectory.exportLockName)
        let fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            // A link in its place is not dosebar's to follow, like every other file there (78).
            if errno == ELOOP {
                throw DosebarError.config("\(lock) is a symbolic link; dosebar uses only files of its own in the shared directory: remove it")
            }
            throw DosebarError.io("cannot open \(lock): \(FileIO.reason(errno))")
        }
        defer { close(fd) }
        try FileIO.lockExclusive(fd, lock, waiting: DoseStore.busyTimeout)
        defer { flock(fd, LOCK_UN) }
        SharedDirectory(path: dir).removeStaleTemporaries()
        return try body()
    }
}
