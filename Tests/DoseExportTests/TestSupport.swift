import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp, removed (with everything in it) when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/dosebar-export-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `lstat` of a path, or nil.
func fileStatus(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
}

/// Permission bits of a path.
func mode(_ path: String) -> mode_t? { fileStatus(path).map { $0.st_mode & 0o7777 } }

/// Runs a command; returns its exit status and combined output.
@discardableResult
func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Whether this process may mount a tmpfs (root in a container that allows it).
enum TmpfsProbe {
    static let available: Bool = {
        guard let dir = try? TemporaryDirectory() else { return false }
        guard (try? run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.path]))?.status == 0 else {
            print("⚠️  SKIPPING the full-disk test: `mount -t tmpfs` is not permitted here (needs root and CAP_SYS_ADMIN)")
            return false
        }
        _ = try? run(["umount", dir.path])
        return true
    }()
}
