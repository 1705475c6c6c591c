import DoseCore
import DoseFiles
import Glibc

/// Turns a failed system call into a `DosebarError` naming what failed.
enum SystemCall {
    /// `what: strerror(errno)`.
    static func error(_ what: String, _ code: Int32 = errno) -> DosebarError {
        .internal("\(what): \(FileIO.reason(code))")
    }

    /// Returns `result`, or throws when it is negative.
    @discardableResult
    static func check(_ result: Int32, _ what: @autoclosure () -> String) throws -> Int32 {
        if result < 0 { throw error(what()) }
        return result
    }
}
