#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DoseCore

/// The directory the bars read from (DESIGN §4): private to the user, written only by
/// atomic renames, and a file is not touched when its content would not change, so
/// bars watching the directory are only woken by real changes.
public struct SharedDirectory: Hashable, Sendable {
    /// Absolute or relative path of the directory.
    public let path: String

    /// A directory at `path` (nothing is created until `prepare()`).
    public init(path: String) {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        self.path = p
    }

    /// Files whose comparison ignores one volatile key: `timeline.json`'s `generated_at`
    /// changes on every export and must not, alone, cause a rewrite.
    static let volatileKeys: [String: String] = ["timeline.json": "generated_at"]

    /// The path of `name` inside the directory.
    public func path(of name: String) -> String { path + "/" + name }

    /// Creates the directory (and missing parents) with mode 0700, or checks an existing
    /// one: it must be a real directory (not a symlink) owned by the current user; its mode
    /// is set to 0700. Throws `DosebarError.config` naming the path and the fix.
    public func prepare() throws {
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw ioError("cannot inspect", path, errno) }
            try makeDirectories()
            guard lstat(path, &st) == 0 else { throw ioError("cannot inspect", path, errno) }
        }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw DosebarError.config(
                "shared directory \(path) is a symlink; remove it or point --dir/DOSEBAR_DIR at a real directory")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw DosebarError.config(
                "shared directory \(path) exists but is not a directory; remove it or point --dir/DOSEBAR_DIR elsewhere")
        }
        let me = geteuid()
        guard st.st_uid == me else {
            throw DosebarError.config(
                "shared directory \(path) is owned by uid \(st.st_uid), not by you (uid \(me)); remove it or point --dir/DOSEBAR_DIR at a directory of your own")
        }
        if st.st_mode & 0o7777 != 0o700 {
            // Through a descriptor opened without following links, so a swap for a symlink
            // between the check and the chmod cannot redirect it.
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw ioError("cannot open", path, errno) }
            defer { close(fd) }
            guard fchmod(fd, 0o700) == 0 else { throw ioError("cannot set mode 0700 on", path, errno) }
        }
    }

    /// Removes temporary files (`.NAME.PID.HEX`) left by writers that were killed mid-write
    /// (their PID is gone). Returns how many were removed.
    @discardableResult
    public func removeStaleTemporaries() -> Int {
        guard let dir = opendir(path) else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard name.hasPrefix("."), parts.count >= 4, let pid = Int32(parts[parts.count - 2]), pid > 0,
                  UInt32(parts[parts.count - 1], radix: 16) != nil else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH, unlink(path + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }

    /// `mkdir -p` with every created component at mode 0700 whatever the umask.
    private func makeDirectories() throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                _ = chmod(prefix, 0o700)
            } else if errno != EEXIST {
                throw ioError("cannot create", prefix, errno)
            }
        }
    }

    /// Writes `contents` to `name` atomically: a temporary file (mode 0600, `O_EXCL`) in
    /// the directory, fully written and fsynced, renamed over `name`, then the directory
    /// fsynced. Returns false — and leaves the file untouched — when it already holds
    /// exactly these bytes (for `timeline.json`: apart from `generated_at`). On failure
    /// the temporary file is removed, the old file stays whole, and `DosebarError.io`
    /// is thrown with one line saying what to do.
    @discardableResult
    public func write(name: String, contents: String) throws -> Bool {
        var contents = contents
        return try contents.withUTF8 { try write(name: name, bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `write(name:contents:)` for bytes already in memory (a large JSON document).
    @discardableResult
    public func write(name: String, bytes: UnsafeRawBufferPointer) throws -> Bool {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw DosebarError.internal("invalid shared file name \(name)")
        }
        let dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirfd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                throw DosebarError.config("shared directory \(path) is not a real directory; run `dosebar doctor`")
            }
            throw ioError("cannot open", path, errno)
        }
        defer { close(dirfd) }

        if unchanged(dirfd: dirfd, name: name, bytes: bytes) { return false }

        var tmpName = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            tmpName = ".\(name).\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16))"
            fd = openat(dirfd, tmpName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw ioError("cannot write", path(of: name), errno) }

        func fail(_ what: String, _ code: Int32) -> DosebarError {
            close(fd)
            unlinkat(dirfd, tmpName, 0)
            return ioError(what, path(of: name), code)
        }

        // The umask may have removed bits from 0600; 0600 is what the contract says.
        if fchmod(fd, 0o600) != 0 { throw fail("cannot set mode 0600 on", errno) }
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("cannot write", errno)
            }
            offset += n
        }
        if fsync(fd) != 0 { throw fail("cannot write", errno) }
        if close(fd) != 0 {
            let code = errno
            unlinkat(dirfd, tmpName, 0)
            throw ioError("cannot write", path(of: name), code)
        }
        if renameat(dirfd, tmpName, dirfd, name) != 0 {
            let code = errno
            unlinkat(dirfd, tmpName, 0)
            throw ioError("cannot replace", path(of: name), code)
        }
        // The rename is done and readers see the whole new file; a directory that cannot
        // be fsynced (some file systems refuse) only weakens durability across a crash.
        _ = fsync(dirfd)
        return true
    }

    /// Whether `name` already holds `bytes` (modulo the file's volatile key).
    private func unchanged(dirfd: Int32, name: String, bytes: UnsafeRawBufferPointer) -> Bool {
        let fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == bytes.count else { return false }
        // A file we did not write with mode 0600 (an older version, a user's copy) is rewritten.
        guard st.st_mode & 0o7777 == 0o600 else { return false }
        var old = [UInt8](repeating: 0, count: bytes.count)
        var offset = 0
        let ok = old.withUnsafeMutableBytes { buffer -> Bool in
            while offset < buffer.count {
                let n = read(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard ok else { return false }
        if bytes.isEmpty || old.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0 {
            return true
        }
        guard let key = SharedDirectory.volatileKeys[name] else { return false }
        return SharedDirectory.equalIgnoring(key: key, old: old, new: bytes)
    }

    /// Whether `old` and `new` are equal once `new`'s first `"key":"…"` string value is
    /// replaced by `old`'s. The key must come before any user-controlled text (it does:
    /// `generated_at` is the second key of the timeline, after `schema`).
    static func equalIgnoring<Old: Collection<UInt8>, New: Collection<UInt8>>(key: String, old: Old, new: New) -> Bool
    where Old.Index == Int, New.Index == Int {
        let needle = Array("\"\(key)\":\"".utf8)
        guard let (oldStart, oldEnd) = stringValueRange(of: needle, in: old),
              let (newStart, newEnd) = stringValueRange(of: needle, in: new),
              oldStart == newStart else { return false }
        return old[old.startIndex..<oldStart].elementsEqual(new[new.startIndex..<newStart])
            && old[oldEnd...].elementsEqual(new[newEnd...])
    }

    /// The range of the string value following the first occurrence of `needle`.
    private static func stringValueRange<C: Collection<UInt8>>(of needle: [UInt8], in text: C) -> (Int, Int)?
    where C.Index == Int {
        let limit = text.endIndex - needle.count
        guard limit >= text.startIndex else { return nil }
        var i = text.startIndex
        while i <= limit {
            if text[i] == needle[0] && text[i..<(i + needle.count)].elementsEqual(needle) {
                let start = i + needle.count
                var end = start
                while end < text.endIndex && text[end] != UInt8(ascii: "\"") {
                    if text[end] == UInt8(ascii: "\\") { return nil }
                    end += 1
                }
                return end < text.endIndex ? (start, end) : nil
            }
            i += 1
        }
        return nil
    }
}

/// `write(2)`, named apart from `SharedDirectory.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// One line for a person: what failed, on which path, why, and what to do.
private func ioError(_ what: String, _ path: String, _ code: Int32) -> DosebarError {
    let reason = String(cString: strerror(code))
    let fix: String
    switch code {
    case ENOSPC, EDQUOT: fix = "free some space on that file system"
    case EACCES, EPERM: fix = "check that you own it and can write to it, or point --dir/DOSEBAR_DIR elsewhere"
    case EROFS: fix = "point --dir/DOSEBAR_DIR at a writable directory"
    default: fix = "run `dosebar doctor`"
    }
    return DosebarError.io("\(what) \(path): \(reason); \(fix)")
}
