import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What tells that another device's file was rewritten (a purge there drops lines) since a read
/// stopped at an offset: a hash of the bytes just before that offset, kept beside the position.
///
/// A device's file otherwise only grows, so the lines before a position need no second look. After
/// a rewrite, lines not read yet may have moved before it: when the bytes there are not the ones
/// read, the file is read again from its start (by id, nothing is applied twice).
enum SyncReadMark {
    /// How many bytes before the offset are hashed: the end of the last line read, its stamp
    /// (unique to the device) among them.
    static let span: UInt64 = 256

    /// The hash (FNV-1a, 64 bits, hex) of the up to ``span`` bytes before `offset`; nil when the
    /// file is shorter or cannot be read.
    static func at(_ file: String, offset: UInt64) -> String? {
        // Like every read of a device file: never through a link, never blocking on a FIFO.
        guard offset > 0 else { return nil }
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        let h = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? h.close() }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let from = offset > span ? offset - span : 0
        guard (try? h.seek(toOffset: from)) != nil, let data = try? h.read(upToCount: Int(offset - from)),
              data.count == Int(offset - from) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The file's identity and size, to tell it changed while it was read.
    static func identity(_ file: String) -> [UInt64]? {
        var s = stat()
        guard stat(file, &s) == 0 else { return nil }
        return [UInt64(s.st_dev), UInt64(s.st_ino), UInt64(s.st_size), UInt64(s.st_mtim.tv_sec), UInt64(s.st_mtim.tv_nsec)]
    }

    /// Where to read `file` from: `known` when the bytes before it are still those its `mark`
    /// hashed (or no mark was kept: a position from before marks), else the start.
    static func start(_ file: String, known: SyncFolder.Position?, mark: String?) -> SyncFolder.Position {
        guard let known, known.offset > 0 else { return SyncFolder.Position() }
        guard let mark else { return known }
        return at(file, offset: known.offset) == mark ? known : SyncFolder.Position()
    }
}
