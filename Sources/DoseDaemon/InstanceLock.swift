import DoseCore
import DoseFiles
import DoseExport
import Foundation
import Glibc

/// One daemon per shared directory: an exclusive `flock` on `<shared dir>/daemon.lock`, which
/// holds the owner's pid as text. The kernel drops the lock when its process dies, so a lock
/// file left by a killed daemon does not block the next one.
public final class InstanceLock {
    let path: String
    private var fd: Int32

    /// The lock file of the shared directory `directory`.
    static func path(in directory: String) -> String { SharedDirectory(path: directory).path(of: SharedDirectory.daemonLockName) }

    private init(path: String, fd: Int32) { self.path = path; self.fd = fd }

    /// Takes the lock and writes this process's pid into it, or throws `DosebarError.alreadyRunning`
    /// naming the daemon that holds it.
    static func acquire(directory: String) throws -> InstanceLock {
        let path = path(in: directory)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw DosebarError.io("cannot open \(path): \(FileIO.reason(errno)); check the shared directory with 'dosebar doctor'")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let holder = readPID(fd)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw DosebarError.io("cannot lock \(path): \(FileIO.reason(code))")
            }
            // In the catalog's English; the entry point shows it in the user's language.
            throw DosebarError.alreadyRunning(holder.map {
                Catalog.english.text("daemon.already_running.pid", ["dir": directory, "pid": String($0)])
            } ?? Catalog.english.text("daemon.already_running", ["dir": directory]))
        }
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(fd, 0) == 0, pwrite(fd, text, text.count, 0) == text.count else {
            let code = errno
            close(fd)
            throw DosebarError.io("cannot write \(path): \(FileIO.reason(code))")
        }
        return InstanceLock(path: path, fd: fd)
    }

    /// Empties the file (no pid: nobody runs) and drops the lock. The file stays: removing it
    /// would let a daemon lock the removed file while a third one creates a new one.
    func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    deinit { release() }

    /// The pid of the daemon holding the lock in `directory`, or nil when none does.
    public static func holder(directory: String) -> pid_t? {
        let fd = open(path(in: directory), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        return readPID(fd) ?? 0
    }

    private static func readPID(_ fd: Int32) -> pid_t? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return pid_t(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
