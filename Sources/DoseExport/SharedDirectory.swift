#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DoseCore
import DoseFiles

/// The directory the bars read from (DESIGN §4, §9): dosebar's own, written only by atomic
/// renames, and a file is not touched when its content would not change, so bars watching
/// the directory are only woken by real changes.
///
/// A directory is dosebar's when it holds the marker file `.dosebar-shared`. dosebar creates
/// a missing directory (0700, with the marker) and adopts an existing one only when it is a
/// real directory of the effective user that nobody else may write to, and it is empty or
/// already dosebar's — or was made by a dosebar from before the marker (mode 0700, nothing
/// in it but dosebar's own files). It never changes an existing directory's mode, never
/// replaces anything but a regular file of the user's in a directory of its own, and
/// removes only its own temporaries (`.dosebar-tmp.NAME.PID.HEX`, of a dead PID).
public struct SharedDirectory: Hashable, Sendable {
    /// Absolute or relative path of the directory.
    public let path: String

    /// A directory at `path` (nothing is created until `prepare()`).
    public init(path: String) {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        self.path = p
    }

    /// The file that makes a directory dosebar's own.
    public static let markerName = ".dosebar-shared"
    /// What the marker says to a person who finds it.
    static let markerText = "This is dosebar's shared directory: the bars read what dosebar writes here, "
        + "and dosebar replaces and removes its files at will. Keep nothing of yours in it.\n"
    /// The lock `export` and every command refreshing the bar hold (DoseApp's `ExportLock`).
    public static let exportLockName = ".lock"
    /// The lock of the one daemon per directory (DoseDaemon's `InstanceLock`).
    public static let daemonLockName = "daemon.lock"
    /// Every temporary file of the writer starts so: `.dosebar-tmp.NAME.PID.HEX`.
    static let temporaryPrefix = ".dosebar-tmp."
    /// The names an older dosebar (before the marker) wrote here, temporaries aside.
    static let olderNames: Set<String> = Set(Exporter.fileNames + [exportLockName, daemonLockName])

    /// Files whose comparison ignores one volatile key: `timeline.json`'s `generated_at`
    /// changes on every export and must not, alone, cause a rewrite.
    static let volatileKeys: [String: String] = ["timeline.json": "generated_at"]

    /// The path of `name` inside the directory.
    public func path(of name: String) -> String { path + "/" + name }

    /// What `examine()` found.
    public enum State: Equatable, Sendable {
        /// Nothing at the path: `prepare()` creates it.
        case missing
        /// A directory with dosebar's marker.
        case dosebars
        /// An empty directory: `prepare()` adopts it and writes the marker.
        case empty
        /// A directory an older dosebar made (mode 0700, only dosebar's files; these temporaries
        /// of its writers among them): `prepare()` adopts it, writes the marker, removes them.
        case olderDosebars(temporaries: [String])
    }

    /// What `prepare()` did.
    public enum Preparation: Equatable, Sendable {
        /// Created the directory (and the marker).
        case created
        /// The directory was already dosebar's.
        case alreadyDosebars
        /// Adopted an empty directory (the marker written, its mode left as it was).
        case adoptedEmpty
        /// Adopted a directory of an older dosebar (the marker written, its dead writers' temporaries removed).
        case adoptedFromOlderDosebar
    }

    /// Creates the directory (missing parents too) with mode 0700 and the marker, or adopts an
    /// existing one as `examine()` allows, without changing its mode. Throws
    /// `DosebarError.config` naming the directory, the reason and the fix for one it refuses,
    /// `.io` when it cannot be inspected or created.
    @discardableResult
    public func prepare() throws -> Preparation {
        var state = try examine()
        if state == .missing {
            if try makeDirectories() {
                try writeMarker()
                return .created
            }
            // Another dosebar created it between the look and the mkdir: look again.
            state = try examine()
        }
        switch state {
        case .missing:
            throw ioError("cannot create", path, ENOENT)
        case .dosebars:
            return .alreadyDosebars
        case .empty:
            try writeMarker()
            return .adoptedEmpty
        case .olderDosebars(let temporaries):
            try writeMarker()
            for name in temporaries where Self.writerIsGone(name) { _ = unlink(path(of: name)) }
            return .adoptedFromOlderDosebar
        }
    }

    /// Looks at the path without changing anything (for `prepare()` and `doctor`). Throws
    /// `DosebarError.config` with one line naming the directory, why dosebar will not use it
    /// and what to do; `.io` when it cannot be read.
    @discardableResult
    public func examine() throws -> State {
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw ioError("cannot inspect", path, errno) }
            return .missing
        }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw DosebarError.config(
                "shared directory \(path) is a symlink; remove it or point --dir/DOSEBAR_DIR at a real directory")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw DosebarError.config(
                "shared directory \(path) exists but is not a directory; remove it or point --dir/DOSEBAR_DIR elsewhere")
        }
        // From here on through a descriptor, so a swap for a symlink after the look changes nothing.
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                throw DosebarError.config("shared directory \(path) is not a real directory; point --dir/DOSEBAR_DIR at one")
            }
            throw ioError("cannot open", path, errno)
        }
        var fdOwned = true
        defer { if fdOwned { close(fd) } }
        guard fstat(fd, &st) == 0 else { throw ioError("cannot inspect", path, errno) }
        let me = geteuid()
        guard st.st_uid == me else {
            throw DosebarError.config(
                "shared directory \(path) is owned by uid \(st.st_uid), not by you (uid \(me)); remove it or point --dir/DOSEBAR_DIR at a directory of your own")
        }
        let mode = st.st_mode & 0o7777
        guard mode & (S_IWGRP | S_IWOTH) == 0 else {
            let who = mode & S_IWOTH != 0 ? "everyone" : "its group"
            throw DosebarError.config(
                "shared directory \(path) can be written by \(who) (mode \(String(mode, radix: 8))), so its files are not safe there; dosebar does not change a directory's mode: point --dir/DOSEBAR_DIR at a new directory (dosebar creates it 0700)")
        }
        if Self.isOwnRegularFile(fd, Self.markerName) { return .dosebars }

        guard let dir = fdopendir(fd) else { throw ioError("cannot read", path, errno) }
        fdOwned = false
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if names.isEmpty { return .empty }
        // A directory an older dosebar made: it set the mode to 0700 and wrote only these, 0600 or tighter.
        let dfd = dirfd(dir)
        let foreign = names.filter { name in
            !(Self.olderNames.contains(name) || Self.olderTemporary(name)) || !Self.isOwnRegularFile(dfd, name, private: true)
        }
        if mode == 0o700 && foreign.isEmpty { return .olderDosebars(temporaries: names.filter(Self.olderTemporary).sorted()) }
        if names.contains(Self.markerName) {
            // The marker's name, but not a marker: a link, a directory, someone else's file.
            throw DosebarError.config(
                "shared directory \(path) has a \(Self.markerName) that is not dosebar's marker (a symbolic link, or not a private file of yours); remove it, or point --dir/DOSEBAR_DIR at a new directory")
        }
        let shown = (foreign.isEmpty ? names : foreign).sorted()
        let listed = shown.prefix(3).map(Self.printable).joined(separator: ", ")
            + (shown.count > 3 ? " and \(shown.count - 3) more" : "")
        throw DosebarError.config(
            "shared directory \(path) is not empty and not dosebar's (no \(Self.markerName) in it; it holds \(listed)); dosebar writes only into a new or empty directory: point --dir/DOSEBAR_DIR at one")
    }

    /// Removes dosebar's temporary files (`.dosebar-tmp.NAME.PID.HEX`) left by writers that
    /// were killed mid-write (their PID is gone), in a directory that is dosebar's; nothing
    /// else, whatever its name. Returns how many were removed.
    @discardableResult
    public func removeStaleTemporaries() -> Int {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_uid == geteuid(), Self.isOwnRegularFile(fd, Self.markerName),
              let dir = fdopendir(fd) else {
            close(fd)
            return 0
        }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Self.temporaryPID(name) != nil, Self.writerIsGone(name),
                  Self.isOwnRegularFile(dirfd(dir), name) else { continue }
            if unlinkat(dirfd(dir), name, 0) == 0 { removed += 1 }
        }
        return removed
    }

    /// The PID in a temporary's name `.dosebar-tmp.NAME.PID.HEX`, or nil when `name` is not one.
    static func temporaryPID(_ name: String) -> Int32? {
        guard name.hasPrefix(temporaryPrefix) else { return nil }
        let parts = name.dropFirst(temporaryPrefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, !parts[0].isEmpty else { return nil }
        return pid(parts[parts.count - 2], hex: parts[parts.count - 1])
    }

    /// Whether `name` is a temporary of an older dosebar's writer: `.FILE.PID.HEX` for one of its files.
    static func olderTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(".") else { return false }
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return false }
        let file = parts.dropLast(2).joined(separator: ".")
        return Exporter.fileNames.contains(file) && pid(parts[parts.count - 2], hex: parts[parts.count - 1]) != nil
    }

    /// The PID of `pidText` when it is decimal digits and `hex` 1 to 8 lowercase hex digits.
    private static func pid(_ pidText: Substring, hex: Substring) -> Int32? {
        guard !pidText.isEmpty, pidText.utf8.allSatisfy({ (48...57).contains($0) }),
              (1...8).contains(hex.utf8.count),
              hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let pid = Int32(pidText), pid > 0 else { return nil }
        return pid
    }

    /// Whether the writer whose PID a temporary's name holds has exited.
    private static func writerIsGone(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, let pid = Int32(parts[parts.count - 2]) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Whether `name` in the directory `dirfd` is a regular file of the effective user (not a
    /// symlink); with `private`, also unreadable by anyone else.
    private static func isOwnRegularFile(_ dirfd: Int32, _ name: String, private: Bool = false) -> Bool {
        var st = stat()
        guard fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFREG && st.st_uid == geteuid() && (!`private` || st.st_mode & 0o077 == 0)
    }

    /// A file name as it may appear in a one-line message: control characters shown as `?`.
    private static func printable(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { FieldRules.isControl($0) ? "?" : $0 }))
    }

    /// Writes the marker (0600) unless one is there; the directory is dosebar's from then on.
    private func writeMarker() throws {
        let marker = path(of: Self.markerName)
        let fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            // Another dosebar wrote it at the same moment.
            if code == EEXIST {
                let dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if dfd >= 0 {
                    defer { close(dfd) }
                    if Self.isOwnRegularFile(dfd, Self.markerName) { return }
                }
            }
            throw ioError("cannot write", marker, code)
        }
        let failure: Int32? = fchmod(fd, 0o600) != 0 ? errno : FileIO.writeAll(fd, Self.markerText)
        close(fd)
        if let code = failure {
            unlink(marker)
            throw ioError("cannot write", marker, code)
        }
    }

    /// `mkdir -p` with every created component at mode 0700 whatever the umask. Returns whether
    /// the directory itself was created here (false: it appeared meanwhile).
    private func makeDirectories() throws -> Bool {
        do {
            let made = try FileIO.makePrivateDirectories(path)
            // The directory itself is the last component FileIO made, spelled as it spells it.
            let whole = (path.hasPrefix("/") ? "" : ".") + "/" + path.split(separator: "/").joined(separator: "/")
            return made.last == whole
        } catch {
            throw ioError(error.what, error.path ?? path, error.code)
        }
    }

    /// What `update(name:bytes:)` did with one file.
    public enum Update: Equatable, Sendable {
        /// The file was replaced by the new content.
        case written
        /// The file already held this content and was not touched.
        case unchanged
        /// Something dosebar did not write is in the file's place (a symlink, a FIFO, a
        /// directory, another user's file): it was left as it is. The message says so in one line.
        case leftAlone(String)
    }

    /// Writes `contents` to `name` atomically: a temporary file (mode 0600, `O_EXCL`) in
    /// the directory, fully written and fsynced, renamed over `name`, then the directory
    /// fsynced. Returns false — and leaves the file untouched — when it already holds
    /// exactly these bytes (for `timeline.json`: apart from `generated_at`). On failure
    /// the temporary file is removed, the old file stays whole, and `DosebarError.io`
    /// is thrown with one line saying what to do; `DosebarError.config` when something
    /// dosebar did not write is in the file's place (it is left as it is).
    @discardableResult
    public func write(name: String, contents: String) throws -> Bool {
        var contents = contents
        return try contents.withUTF8 { try write(name: name, bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `write(name:contents:)` for bytes already in memory (a large JSON document).
    @discardableResult
    public func write(name: String, bytes: UnsafeRawBufferPointer) throws -> Bool {
        switch try update(name: name, bytes: bytes) {
        case .written: return true
        case .unchanged: return false
        case .leftAlone(let message): throw DosebarError.config(message)
        }
    }

    /// `write(name:bytes:)`, telling a file left alone apart from a failure: only a regular
    /// file of the user's (or nothing) is ever replaced; anything else in its place is
    /// reported as `.leftAlone`, so the caller can keep the other files current.
    public func update(name: String, bytes: UnsafeRawBufferPointer) throws -> Update {
        try updating { try $0.update(name: name, bytes: bytes) }
    }

    /// Runs `body` with the directory open once (one descriptor for every file, so every file goes
    /// to the directory that was checked), and fsyncs the directory once at the end when a file was
    /// replaced: an export's eight files cost one directory check and one directory sync, not eight.
    public func updating<T>(_ body: (Batch) throws -> T) throws -> T {
        let dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirfd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                throw DosebarError.config("shared directory \(path) is not a real directory; run `dosebar doctor`")
            }
            throw ioError("cannot open", path, errno)
        }
        defer { close(dirfd) }
        // `prepare()` made or adopted it; a directory that is not dosebar's (any more) gets nothing.
        guard Self.isOwnRegularFile(dirfd, Self.markerName) else {
            throw DosebarError.config("shared directory \(path) is not dosebar's (no \(Self.markerName) in it); run `dosebar doctor`")
        }
        let batch = Batch(directory: self, dirfd: dirfd)
        // The renames done survive a power cut once the directory is synced (best effort: a file
        // system that refuses only weakens durability), even when a later file failed.
        defer { if batch.replaced { _ = fsync(dirfd) } }
        return try body(batch)
    }

    /// The files of one ``updating(_:)``, written into its open directory.
    public final class Batch {
        private let directory: SharedDirectory
        private let dirfd: Int32
        fileprivate private(set) var replaced = false

        fileprivate init(directory: SharedDirectory, dirfd: Int32) {
            self.directory = directory
            self.dirfd = dirfd
        }

        /// See ``SharedDirectory/update(name:bytes:)``.
        public func update(name: String, bytes: UnsafeRawBufferPointer) throws -> Update {
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw DosebarError.internal("invalid shared file name \(name)")
            }
            if let what = directory.foreignEntry(dirfd: dirfd, name: name) {
                return .leftAlone("\(directory.path(of: name)) \(what), not a file dosebar wrote: left as it is (the other files are current); remove it so dosebar can write it")
            }
            if directory.unchanged(dirfd: dirfd, name: name, bytes: bytes) { return .unchanged }
            do {
                try FileIO.replace(in: dirfd, name: name, bytes: bytes, syncDirectory: false) {
                    SharedDirectory.temporaryPrefix + "\(name).\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16))"
                }
            } catch {
                throw ioError(error.what, directory.path(of: name), error.code)
            }
            replaced = true
            return .written
        }
    }

    /// What is in `name`'s place when it is not something dosebar may replace ("is a symlink",
    /// …), or nil: nothing, or a regular file of the user's (in a directory that is dosebar's,
    /// that is a file dosebar wrote, or one the user put there knowing it is dosebar's).
    fileprivate func foreignEntry(dirfd: Int32, name: String) -> String? {
        var st = stat()
        // Not there, or not to be looked at (the write then says why).
        guard fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return st.st_uid == geteuid() ? nil : "is owned by uid \(st.st_uid), not by you"
        case S_IFLNK: return "is a symlink"
        case S_IFDIR: return "is a directory"
        case S_IFIFO: return "is a FIFO"
        case S_IFSOCK: return "is a socket"
        default: return "is a device file"
        }
    }

    /// Whether `name` already holds `bytes` (modulo the file's volatile key).
    fileprivate func unchanged(dirfd: Int32, name: String, bytes: UnsafeRawBufferPointer) -> Bool {
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

/// One line for a person: what failed, on which path, why, and what to do.
private func ioError(_ what: String, _ path: String, _ code: Int32) -> DosebarError {
    let reason = FileIO.reason(code)
    let fix: String
    switch code {
    case ENOSPC, EDQUOT: fix = "free some space on that file system"
    case EACCES, EPERM: fix = "check that you own it and can write to it, or point --dir/DOSEBAR_DIR elsewhere"
    case EROFS: fix = "point --dir/DOSEBAR_DIR at a writable directory"
    default: fix = "run `dosebar doctor`"
    }
    return DosebarError.io("\(what) \(path): \(reason); \(fix)")
}
