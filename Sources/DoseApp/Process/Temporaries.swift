import CSignalCleanup
import DoseFiles
import DoseStore
import Foundation
import Glibc

/// The private copies of the user's data a command writes beside their files: a backup being
/// written (`.NAME.PID.tmp`) and a restore's staged copy (`.dosebar-restore.PID.sqlite`), each
/// with SQLite's `-journal`, `-wal` and `-shm`. None outlives the command (DESIGN §9): SIGINT,
/// SIGTERM and SIGHUP remove them before the process dies, and one a killed process (SIGKILL)
/// left is removed by the next backup, restore or purge that looks in its directory.
public enum Temporaries {
    static let suffixes = ["", "-journal", "-wal", "-shm"]

    /// `path` and its companions removed if a signal ends the process before ``unregister(_:)``.
    static func register(_ path: String) -> [Int32] {
        suffixes.map { dosebar_cleanup_register(path + $0) }
    }

    static func unregister(_ slots: [Int32]) {
        for slot in slots { dosebar_cleanup_unregister(slot) }
    }

    /// The process id in a temporary's name, when `name` is one of ours (its companions
    /// included): `.dosebar-restore.PID.sqlite` or `.NAME.PID.tmp`.
    static func owner(of name: String) -> (base: String, pid: Int32)? {
        var base = Substring(name)
        for suffix in suffixes.dropFirst() where base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        guard base.hasPrefix(".") else { return nil }
        let parts = base.split(separator: ".", omittingEmptySubsequences: false)
        if base.hasPrefix(".dosebar-restore."), parts.count == 4, parts[3] == "sqlite", let pid = Int32(parts[2]) {
            return (String(base), pid)
        }
        if parts.count >= 4, parts.last == "tmp", let pid = Int32(parts[parts.count - 2]) { return (String(base), pid) }
        return nil
    }

    /// Removes the temporaries in `directory` whose process is gone and whose main file is a
    /// dosebar database (or is gone, its companions left); returns the names it could not remove.
    @discardableResult
    public static func removeStale(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var left: [String] = []
        for name in names {
            guard let (base, pid) = owner(of: name), pid != getpid(), !alive(pid) else { continue }
            let main = directory + "/" + base
            var info = stat()
            let mainExists = lstat(main, &info) == 0
            guard !mainExists || (info.st_mode & S_IFMT == S_IFREG && DoseStore.isDosebarFile(main)) else { continue }
            if unlink(directory + "/" + name) != 0 && errno != ENOENT { left.append(directory + "/" + name) }
        }
        return left.sorted()
    }

    /// ``removeStale(in:)`` in the database's directory.
    @discardableResult
    public static func removeStale(besideDatabase path: String) -> [String] {
        removeStale(in: FileIO.split(path).directory)
    }

    static func alive(_ pid: Int32) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }
}
