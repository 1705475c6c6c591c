import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one home of dosebar's POSIX file writing: every byte written with `EINTR` retried, a file
/// replaced whole (private temporary, fsync, rename, directory fsync), private directories made,
/// and errno said in words. The shared directory, reports, backups and sync files all write through
/// it; what a failure *means* for the person (which fix to suggest) stays with the caller.
public enum FileIO {
    /// What failed, with its errno.
    public struct Failure: Error, Sendable, Equatable {
        /// The step, as a person would say it: "cannot write", "cannot replace", …
        public var what: String
        public var code: Int32
        /// The path it failed on, when it is not the one the caller named (a parent directory).
        public var path: String?
        /// `strerror` of `code`.
        public var reason: String { FileIO.reason(code) }

        public init(_ what: String, _ code: Int32, path: String? = nil) { self.what = what; self.code = code; self.path = path }

        /// `DosebarError.io` with one line: `<what> <path>: <reason>`, then `hint` when given.
        public func error(_ path: String, hint: String? = nil) -> DosebarError {
            .io("\(what) \(path): \(reason)" + (hint.map { "; " + $0 } ?? ""))
        }
    }

    /// The text of an errno (`strerror`).
    public static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Writes every byte of `bytes` to `fd`, retrying `EINTR` and `EAGAIN`; nil, or the errno of
    /// the write that failed.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    /// `writeAll` of a string's UTF-8.
    public static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Replaces `name` in the directory open as `dirfd` with `bytes`, whole or not at all: a new
    /// temporary file named by `temporary()` (mode 0600 whatever the umask, `O_EXCL`, never through
    /// a link; a name taken is tried again, 16 times), every byte written, fsynced, closed, renamed
    /// over `name` (rename replaces the name itself: it never writes through a link or into a
    /// FIFO), then the directory fsynced (a file system that refuses only weakens durability
    /// across a crash; `syncDirectory: false` leaves that to a caller replacing several files).
    /// On failure the temporary is removed and the old file is whole.
    public static func replace(in dirfd: Int32, name: String, bytes: UnsafeRawBufferPointer, syncDirectory: Bool = true,
                               temporary: () -> String) throws(Failure) {
        var tmpName = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            tmpName = temporary()
            fd = openat(dirfd, tmpName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw Failure("cannot write", errno) }
        func fail(_ what: String, _ code: Int32) -> Failure {
            close(fd)
            unlinkat(dirfd, tmpName, 0)
            return Failure(what, code)
        }
        if fchmod(fd, 0o600) != 0 { throw fail("cannot set mode 0600 on", errno) }
        if let code = writeAll(fd, bytes) { throw fail("cannot write", code) }
        if fsync(fd) != 0 { throw fail("cannot write", errno) }
        if close(fd) != 0 {
            let code = errno
            unlinkat(dirfd, tmpName, 0)
            throw Failure("cannot write", code)
        }
        if renameat(dirfd, tmpName, dirfd, name) != 0 {
            let code = errno
            unlinkat(dirfd, tmpName, 0)
            throw Failure("cannot replace", code)
        }
        if syncDirectory { _ = fsync(dirfd) }
    }

    /// A path's directory and last name, split at its last `/` as a shell reads it: `a/b` is `a`
    /// and `b`, `b` is `.` and `b`, `/b` is `/` and `b`, `a/b/` is `a` and `b`. Foundation's
    /// `NSString.deletingLastPathComponent` traps on `.` and on a blank path (`--db .`, `--db ' '`
    /// crashed with a backtrace), so no path the user typed goes through it.
    public static func split(_ path: String) -> (directory: String, name: String) {
        var rest = Substring(path)
        while rest.count > 1, rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let slash = rest.lastIndex(of: "/") else { return (".", String(rest)) }
        var directory = rest[..<slash]
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return (directory.isEmpty ? "/" : String(directory), String(rest[rest.index(after: slash)...]))
    }

    /// An exclusive `flock` on `fd` (the file at `path`), waited for at most `limit` (DESIGN §9:
    /// nothing waits without end). A holder that never lets go (a dosebar stopped with Ctrl-Z, a
    /// hung process) makes this a busy error (75); a command whose change is already committed
    /// reports it as a warning.
    public static func lockExclusive(_ fd: Int32, _ path: String, waiting limit: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(limit)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK:
                guard Date() < deadline else {
                    throw DosebarError.busy("\(path) has been locked by another process for "
                        + "\(Int(limit)) s (a stopped or hung dosebar?); try again")
                }
                // Short, so that a bar click behind another writer goes on within a millisecond.
                usleep(1_000)
            default:
                throw DosebarError.io("cannot lock \(path): \(reason(errno))")
            }
        }
    }

    /// `replace(in:name:bytes:temporary:)` for a path: its directory must exist.
    public static func replace(_ path: String, bytes: UnsafeRawBufferPointer, temporary: (String) -> String) throws(Failure) {
        let (dir, name) = split(path)
        let dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw Failure("cannot open the directory of", errno) }
        defer { close(dirfd) }
        try replace(in: dirfd, name: name, bytes: bytes) { temporary(name) }
    }

    /// The size of the file at `path` (symlinks followed); nil when it cannot be read. `stat`, not
    /// `FileManager.attributesOfItem`, which also looks the owner's user and group names up (the
    /// system's user database: four failed connections to nscd and three files, in every `sync now`).
    public static func size(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(max(0, info.st_size)) : nil
    }

    /// fsync of a directory, so a rename or a new name in it survives a power cut (best effort).
    public static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `mkdir -p` of `path`, each directory it makes private (0700, whatever the umask); an
    /// existing one is left as it is. Returns the directories it made, outermost first. A failure
    /// names the directory it could not make (`Failure.path`).
    @discardableResult
    public static func makePrivateDirectories(_ path: String) throws(Failure) -> [String] {
        var made: [String] = []
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) == 0 {
                _ = chmod(current, 0o700)
                made.append(current)
            } else if errno != EEXIST {
                throw Failure("cannot create", errno, path: current)
            }
        }
        return made
    }
}
