import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Everything under a directory that a command could change — each entry's relative path, type and
/// permission bits, inode (a rename-over is a change even with equal bytes) and bytes (a symlink: its
/// target) — plus the directory's own mode and owner, to show a command left it exactly as it was.
struct DirectorySnapshot: Equatable {
    struct Entry: Equatable {
        var mode: UInt32
        var inode: UInt64
        var bytes: Data
    }

    var path: String
    /// `st_mode` and owner of the directory itself; nil when it does not exist.
    var mode: UInt32?
    var owner: UInt32?
    var entries: [String: Entry] = [:]

    /// `S_IFMT` and the file types, as `st_mode` bits.
    static let typeMask: mode_t = 0o170000, directory: mode_t = 0o040000, regular: mode_t = 0o100000, symlink: mode_t = 0o120000

    init(_ path: String) {
        self.path = path
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        mode = UInt32(st.st_mode)
        owner = UInt32(st.st_uid)
        guard st.st_mode & Self.typeMask == Self.directory else { return }
        for relative in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
            let full = path + "/" + relative
            var s = stat()
            guard lstat(full, &s) == 0 else { continue }
            let bytes: Data
            switch s.st_mode & Self.typeMask {
            case Self.regular: bytes = FileManager.default.contents(atPath: full) ?? Data("<unreadable>".utf8)
            case Self.symlink: bytes = Data(((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "").utf8)
            default: bytes = Data()
            }
            entries[relative] = Entry(mode: UInt32(s.st_mode), inode: UInt64(s.st_ino), bytes: bytes)
        }
    }

    /// What differs from `before`, one line per path, for a failure message (empty when equal).
    func changes(since before: DirectorySnapshot) -> String {
        var lines: [String] = []
        if mode != before.mode || owner != before.owner {
            lines.append("\(path): mode/owner \(before.mode.map { String($0, radix: 8) } ?? "absent")/\(before.owner.map(String.init) ?? "-")"
                         + " → \(mode.map { String($0, radix: 8) } ?? "absent")/\(owner.map(String.init) ?? "-")")
        }
        for name in Set(entries.keys).union(before.entries.keys).sorted() {
            switch (before.entries[name], entries[name]) {
            case (nil, let now?): lines.append("+ \(name) (\(now.bytes.count) bytes, mode \(String(now.mode, radix: 8)))")
            case (let was?, nil): lines.append("- \(name) (\(was.bytes.count) bytes)")
            case (let was?, let now?) where was != now:
                var what: [String] = []
                if was.mode != now.mode { what.append("mode \(String(was.mode, radix: 8)) → \(String(now.mode, radix: 8))") }
                if was.inode != now.inode { what.append("replaced (inode \(was.inode) → \(now.inode))") }
                if was.bytes != now.bytes {
                    what.append("bytes changed (\(was.bytes.count) → \(now.bytes.count)): "
                                + String(decoding: now.bytes.prefix(160), as: UTF8.self).debugDescription)
                }
                lines.append("~ \(name): " + what.joined(separator: ", "))
            default: break
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The state of a harness's world that bad input must not change: the database (its SQL dump, and
/// every file of its directory byte for byte) and every file of the shared directory.
struct WorldSnapshot: Equatable {
    var dump: String
    var data: DirectorySnapshot
    var shared: DirectorySnapshot

    init(_ h: Harness, shared: String? = nil) {
        dump = h.dump()
        data = DirectorySnapshot((h.db as NSString).deletingLastPathComponent)
        self.shared = DirectorySnapshot(shared ?? h.dir)
    }

    /// What differs from `before`, for a failure message (empty when nothing did).
    func changes(since before: WorldSnapshot) -> String {
        var parts: [String] = []
        if dump != before.dump { parts.append("database dump changed") }
        let d = data.changes(since: before.data), s = shared.changes(since: before.shared)
        if !d.isEmpty { parts.append("database directory:\n" + d) }
        if !s.isEmpty { parts.append("shared directory:\n" + s) }
        return parts.joined(separator: "\n")
    }
}
