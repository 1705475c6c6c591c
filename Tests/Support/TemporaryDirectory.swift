import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh private directory under the temporary directory (`mkdtemp`, mode 0700), removed with
/// everything in it when released: the one the test targets share.
public final class TemporaryDirectory {
    public let path: String

    /// A directory named `<prefix>-XXXXXX`. A machine where `mkdtemp` fails cannot run tests at all.
    public init(prefix: String = "dosebar-test") {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent(prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { preconditionFailure("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }
}
