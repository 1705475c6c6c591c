import DoseCore
import Foundation

/// Writes a file the user asked for (a report) privately and whole: a temporary file (0600) in
/// the same directory, fsynced, renamed over the target (and the directory fsynced). On failure
/// nothing is left behind. Whether the target may be replaced is ``OutputTarget``'s to say, first.
public enum PrivateFile {
    public static func write(_ contents: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw DosebarError.io("cannot write \(path): the directory \(dir) does not exist")
        }
        let tmp = dir + "/." + url.lastPathComponent + ".\(getpid()).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DosebarError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        let bytes = Array(contents.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                let e = errno
                close(fd)
                throw DosebarError.io("cannot write \(path): \(String(cString: strerror(e)))")
            }
            written += n
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            throw DosebarError.io("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        // rename() replaces the name itself: it never writes through a link or into a FIFO.
        guard rename(tmp, path) == 0 else { throw DosebarError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
        ok = true
        BackupService.syncDirectory(dir)
    }
}
