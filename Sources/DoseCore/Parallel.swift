import Dispatch
import Foundation

/// Work split into parts that run on every core at once (`DispatchQueue.concurrentPerform`), each
/// part's result kept in its place: the one way dosebar runs a loop in parallel (judging years of
/// history, parsing another device's sync file).
public enum Parallel {
    /// `body(0) … body(parts - 1)`, run concurrently; the results in part order. `body` must only
    /// read what it shares with the other parts.
    public static func map<T>(parts: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard parts > 1 else { return parts == 1 ? [body(0)] : [] }
        let results = Results<T>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { k in results.set(k, body(k)) }
        return results.all
    }

    /// One slot per part, written from the parts' threads.
    private final class Results<T>: @unchecked Sendable {
        // @unchecked: every access holds `lock`; each part writes only its own slot.
        private let lock = NSLock()
        private var items: [T?]

        init(count: Int) { items = Array(repeating: nil, count: count) }

        func set(_ k: Int, _ value: T) {
            lock.lock(); defer { lock.unlock() }
            items[k] = value
        }

        /// Every part's result (all parts have run: concurrentPerform returns after the last).
        var all: [T] {
            lock.lock(); defer { lock.unlock() }
            return items.map { $0! }
        }
    }
}
