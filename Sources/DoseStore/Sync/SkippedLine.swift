import Foundation

/// A line of another device's file that sync skipped, for `sync status`.
public struct SkippedLine: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var hash: Int64
    public var op: String?
    public var reason: String

    public init(file: String, line: Int, hash: Int64, op: String?, reason: String) {
        self.file = file; self.line = line; self.hash = hash; self.op = op; self.reason = reason
    }
}
