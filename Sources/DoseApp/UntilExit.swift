import Synchronization

/// What a command that exits when its work is done (``AppContext/exitsWhenDone()``) keeps until
/// then instead of freeing it piece by piece: the process's end gives the memory back at once.
/// Freeing a 50-medicine timeline's snapshots cost a bar click a million instructions
/// (Benchmarks/README.md). Nothing is kept in a process that goes on (the daemon, `watch`).
enum UntilExit {
    /// nil until ``begin()``: then every value kept.
    private static let kept = Mutex<[any Sendable]?>(nil)

    /// From now on, ``keep(_:)`` keeps.
    static func begin() {
        kept.withLock { if $0 == nil { $0 = [] } }
    }

    /// Keeps `value` until the process ends, once ``begin()`` was called; otherwise lets it go.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0?.append(value) }
    }
}
