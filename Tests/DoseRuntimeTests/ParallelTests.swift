import CThreadShim
import DoseCore
@testable import DoseRuntime
import Foundation
import Synchronization
import Testing

/// ``Parallel/Background`` hands its result over whole (``Parallel/Background/take()``) and starts
/// on another CPU than its caller's, free to use them all once started; ``Parallel/release(_:)``
/// frees a value on a thread other than the one that hands it over.
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

    @Test("a new thread starts on another CPU than the one it avoids (its caller's, CPU 0, CPU 1), then may use every CPU its caller may",
          arguments: [-1, 0, 1] as [Int32])
    func startsElsewhere(avoid: Int32) throws {
        let allowed = shim_allowed_cpu_count()
        try #require(allowed >= 1)
        for _ in 0..<20 {
            let avoiding = avoid < 0 ? shim_current_cpu() : avoid
            let seen = Mutex<(cpu: Int32, allowed: Int32)?>(nil)
            let done = DispatchSemaphore(value: 0)
            #expect(Parallel.detach(avoiding: avoiding) { startedOn in
                seen.withLock { $0 = (startedOn, shim_allowed_cpu_count()) }
                done.signal()
            })
            try #require(done.wait(timeout: .now() + 10) == .success, "never ran")
            let (cpu, widened) = try #require(seen.withLock { $0 })
            if allowed > 1 {
                #expect(cpu != avoiding, "started on the CPU it was to avoid")
            }
            #expect(widened == allowed, "kept from \(allowed - widened) of its caller's CPUs")
        }
    }

    @Test("prefaultStaticData leaves every page of the program's .bss resident")
    func staticDataResident() throws {
        #expect(Parallel.prefaultStaticData())
        let first = shim_bss_start()
        try #require(first != 0)
        // /proc/self/smaps: the mapping that holds .bss's first whole page (the page before may be
        // the end of the file's data).
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = (first + page - 1) & ~(page - 1)
        let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        var inside = false
        var size: Int?, rss: Int?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt(String($0), radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= UInt(start) && UInt(start) < bounds[1]
                continue
            }
            guard inside, fields.count >= 2 else { continue }
            if fields[0] == "Size:" { size = Int(fields[1]) }
            if fields[0] == "Rss:" { rss = Int(fields[1]) }
        }
        let (total, resident) = (try #require(size), try #require(rss))
        #expect(resident == total, "\(total - resident) kB of \(total) kB not resident")
    }
}
