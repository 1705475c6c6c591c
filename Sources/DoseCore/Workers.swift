/// Who runs the parts of DoseCore's work that are independent (the days of a long history, the
/// entries of a timeline). DoseCore starts no thread and reads no process state: the front end
/// passes the workers it has (DoseRuntime's threads for a command that a person waits for,
/// ``SameThread`` for the daemon, which keeps to one thread for its memory, and for tests).
public protocol Workers: Sendable {
    /// How many parts may usefully run at once (1: one after the other).
    var width: Int { get }

    /// `body(0) … body(parts - 1)`, the results in part order. `body` must only read what it shares
    /// with the other parts.
    func map<T>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T]
}

/// Every part on the caller's thread, in order.
public struct SameThread: Workers {
    public init() {}

    public var width: Int { 1 }

    public func map<T>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        (0..<max(0, parts)).map { body($0) }
    }
}
