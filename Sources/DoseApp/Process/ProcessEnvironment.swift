import Glibc

/// The process's environment as a dictionary, read from `environ` as bytes: each `NAME=value` split
/// at its first `=`, entries without one left out, and the first of two entries with one name kept
/// (what `getenv` finds). Foundation's `ProcessInfo.environment` splits each entry by Character,
/// a cost every bar click would pay for a desktop session's variables (Benchmarks/README.md,
/// "Measured reasons in the code").
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                           count: strlen(pointer))
            if let equals = text.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: text[..<equals]), as: UTF8.self)
                if result[name] == nil {
                    result[name] = String(decoding: UnsafeBufferPointer(rebasing: text[(equals + 1)...]), as: UTF8.self)
                }
            }
            entry += 1
        }
        return result
    }
}
