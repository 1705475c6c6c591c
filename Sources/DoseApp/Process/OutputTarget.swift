import DoseCore
import DoseFiles
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a file the user named for an output (`backup FILE`, `report --output FILE`) may be
/// written, decided before anything is written (DESIGN §9 "Nothing of the user's is touched
/// unasked"). One check for every output, so they cannot disagree.
///
/// Never: the live database or one of its companions (`-wal`, `-shm`, `-journal`), whether named
/// as it is, through another path or a hard link (same device and inode) or by name while the
/// companion does not exist yet; a directory, a symbolic link, a FIFO, a socket or a device
/// (looked at with `lstat`, never opened, so a FIFO cannot hang the command). An existing regular
/// file only when `isSameKind` recognises it as the output dosebar would write there (an earlier
/// report of that format, an earlier backup), or with `force` when the caller allows it.
public enum OutputTarget {
    /// What is at a path, without following a symbolic link.
    public enum Kind: Equatable, Sendable {
        case missing, file, directory, symlink, fifo, other

        public static func of(_ path: String) -> Kind {
            var info = stat()
            guard lstat(path, &info) == 0 else { return .missing }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .directory
            case S_IFLNK: return .symlink
            case S_IFIFO: return .fifo
            default: return .other
            }
        }
    }

    /// What may be written over, besides a missing name.
    public enum Replaces: Sendable {
        /// A dosebar database (`backup`): any other SQLite or ordinary file is refused.
        case database
        /// A file of dosebar's text output that `isSameKind` recognises; with `force` any ordinary
        /// regular file too, but never an SQLite database (a report never goes over one).
        case output(force: Bool)
    }

    /// Throws `DosebarError.usage` (exit 64), one line naming `path`, unless `path` may be
    /// written. `what` names the output in the message ("the report", "the backup"), `kind` what
    /// an existing file must be to be replaced ("a dosebar database", "a CSV report by dosebar").
    public static func check(_ path: String, database: String, what: String, kind: String, replaces: Replaces,
                             isSameKind: (String) -> Bool) throws {
        if let companion = liveDatabaseFile(path, database: database) {
            throw DosebarError.usage("\(path) is \(companion); dosebar will not overwrite it, give another file for \(what)")
        }
        switch Kind.of(path) {
        case .missing: return
        case .file: break
        case .directory: throw DosebarError.usage("\(path) is a directory; give a file name for \(what)")
        case .symlink:
            throw DosebarError.usage("\(path) is a symbolic link; dosebar does not write through links, give the real file name for \(what)")
        case .fifo: throw DosebarError.usage("\(path) is a FIFO (named pipe); give a regular file for \(what)")
        case .other: throw DosebarError.usage("\(path) exists and is not a regular file; give another file for \(what)")
        }
        if case .output = replaces, isSQLite(path) {
            throw DosebarError.usage("\(path) is an SQLite database; dosebar will not overwrite it, give another file for \(what)")
        }
        if isSameKind(path) { return }
        if case .output(force: true) = replaces { return }
        if case .output = replaces {
            throw DosebarError.usage("\(path) exists and is not \(kind); dosebar will not overwrite it, give another file or --force to replace it")
        }
        throw DosebarError.usage("\(path) exists and is not \(kind); dosebar will not overwrite it, give another file")
    }

    /// "the live database" or "the live database's -wal file" when `path` is one of them, else nil.
    static func liveDatabaseFile(_ path: String, database: String) -> String? {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let live = database + suffix
            if sameFile(path, live) || sameName(path, live) {
                return suffix.isEmpty ? "the live database" : "the live database's \(suffix) file"
            }
        }
        return nil
    }

    /// Whether both paths name the same existing file (same device and inode; links followed).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Whether both paths name the same directory entry, existing or not: the same file name in
    /// the same directory (directories compared by device and inode).
    static func sameName(_ a: String, _ b: String) -> Bool {
        let (da, na) = FileIO.split(a), (db, nb) = FileIO.split(b)
        return na == nb && sameFile(da, db)
    }

    /// The first `count` bytes of the regular file at `path`, read without following a link and
    /// without blocking (nil when it cannot be read or is not a regular file).
    public static func prefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// Whether the file starts with SQLite's header (any SQLite database, dosebar's or not).
    public static func isSQLite(_ path: String) -> Bool {
        prefix(path, count: 16).map { $0 == Array("SQLite format 3\0".utf8) } ?? false
    }
}
