@testable import DoseCore
import Foundation
import Testing

/// ``Parallel/Background`` hands its result over whole (``Parallel/Background/take()``), and
/// ``Parallel/release(_:)`` frees a value on a thread other than the one that hands it over.
@Suite struct ParallelTests {
    /// Tells, when freed, on which thread it was.
    final class Tracked: @unchecked Sendable {
        let freed: @Sendable (pthread_t) -> Void
        init(freed: @escaping @Sendable (pthread_t) -> Void) { self.freed = freed }
        deinit { freed(pthread_self()) }
    }

    /// Where a ``Tracked`` was freed, waited for.
    final class Freed: @unchecked Sendable {
        private let lock = NSLock()
        private var thread: pthread_t?
        private let signal = DispatchSemaphore(value: 0)

        func record(_ t: pthread_t) {
            lock.lock(); thread = t; lock.unlock()
            signal.signal()
        }

        func wait() -> pthread_t? {
            guard signal.wait(timeout: .now() + 10) == .success else { return nil }
            lock.lock(); defer { lock.unlock() }
            return thread
        }

        var now: pthread_t? {
            lock.lock(); defer { lock.unlock() }
            return thread
        }
    }

    @Test("take() keeps nothing of the result: the caller's is the only reference")
    func takeHandsOver() {
        let freed = Freed()
        let background = Parallel.Background { Tracked(freed: { freed.record($0) }) }
        var taken: Tracked? = background.take()
        #expect(taken != nil && freed.now == nil)
        taken = nil
        #expect(freed.now == pthread_self(), "freed here, when the taken reference went")
        withExtendedLifetime(background) {}
    }

    @Test("release frees the value on another thread, once")
    func releaseElsewhere() throws {
        let freed = Freed()
        Parallel.release(Tracked(freed: { freed.record($0) }))
        let thread = try #require(freed.wait(), "never freed")
        #expect(pthread_equal(thread, pthread_self()) == 0, "freed on the thread that handed it over")
    }
}
