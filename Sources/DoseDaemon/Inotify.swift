import CLinuxShim
import Glibc

/// An inotify instance reading whole batches of events.
public final class Inotify {
    public let fd: Int32

    /// One event: the watch, its mask, and the name inside a watched directory (empty for the directory itself).
    struct Event: Hashable {
        var watch: Int32
        var mask: UInt32
        var name: String

        func has(_ flag: UInt32) -> Bool { mask & flag != 0 }
    }

    // The IN_* macros import with mixed integer types; these are the ones dosebar uses, as UInt32.
    static let closeWrite = UInt32(truncatingIfNeeded: IN_CLOSE_WRITE)
    static let movedTo = UInt32(truncatingIfNeeded: IN_MOVED_TO)
    static let movedFrom = UInt32(truncatingIfNeeded: IN_MOVED_FROM)
    static let modify = UInt32(truncatingIfNeeded: IN_MODIFY)
    static let create = UInt32(truncatingIfNeeded: IN_CREATE)
    static let delete = UInt32(truncatingIfNeeded: IN_DELETE)
    static let deleteSelf = UInt32(truncatingIfNeeded: IN_DELETE_SELF)
    static let moveSelf = UInt32(truncatingIfNeeded: IN_MOVE_SELF)
    static let ignored = UInt32(truncatingIfNeeded: IN_IGNORED)
    static let overflow = UInt32(truncatingIfNeeded: IN_Q_OVERFLOW)
    static let onlyDirectory = UInt32(truncatingIfNeeded: IN_ONLYDIR)

    init() throws {
        fd = try SystemCall.check(inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)), "inotify_init1")
    }

    deinit { close(fd) }

    /// Adds (or updates) a watch; returns its descriptor, or nil with `errno` set.
    func add(_ path: String, mask: UInt32) -> Int32? {
        let wd = inotify_add_watch(fd, path, mask)
        return wd < 0 ? nil : wd
    }

    func remove(_ watch: Int32) { inotify_rm_watch(fd, watch) }

    /// Every event queued now (nothing when none).
    func read() -> [Event] {
        var out: [Event] = []
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer, capacity)
            if n <= 0 { return out }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of NUL-padded name.
            while offset + 16 <= n {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let len = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                var name = ""
                if len > 0 {
                    let start = buffer.advanced(by: offset + 16).assumingMemoryBound(to: UInt8.self)
                    let bytes = UnsafeBufferPointer(start: start, count: min(len, n - offset - 16))
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                out.append(Event(watch: wd, mask: mask, name: name))
                offset += 16 + len
            }
        }
    }
}
