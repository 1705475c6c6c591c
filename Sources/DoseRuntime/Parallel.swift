import CThreadShim
import Dispatch
import DoseCore
import Foundation

/// Work split into parts that run on every core at once, each part's result kept in its place
/// (``threads``: the one way dosebar runs a loop in parallel, judging years of history, parsing
/// another device's sync file); and one piece of work run on a thread of its own while this one
/// goes on (``Background``: the next batch of a long file parsed, a year summarised).
public enum Parallel {
    /// `body`, started on a thread of its own; ``result()`` waits for it.
    public final class Background<T: Sendable>: @unchecked Sendable {
        // @unchecked: `value` is written once on the other thread before `done` is signalled, and
        // read only after waiting on it (once).
        private let done = DispatchSemaphore(value: 0)
        private var value: T?
        private var waited = false

        /// `body` on a thread of its own; run here, before this returns, when no thread can be
        /// started.
        public convenience init(_ body: @escaping @Sendable () -> T) {
            self.init()
            if !start(body) { run(body) }
        }

        /// `body` on a thread of its own; nil when no thread can be started (`body` not run), for
        /// work that cannot run on the caller's thread (it waits for the caller).
        public static func started(_ body: @escaping @Sendable () -> T) -> Background? {
            let background = Background()
            return background.start(body) ? background : nil
        }

        private init() {}

        private func start(_ body: @escaping @Sendable () -> T) -> Bool {
            Parallel.detach { [self] _ in run(body) }
        }

        private func run(_ body: () -> T) {
            value = body()
            done.signal()
        }

        /// Waits for `body` (the first time) and gives what it returned.
        public func result() -> T {
            if !waited { done.wait(); waited = true }
            return value!
        }

        /// ``result()``, no longer kept here: the caller holds the only reference.
        public func take() -> T {
            let taken = result()
            value = nil
            return taken
        }
    }

    /// Lets `value` go on a thread of its own, which frees it when nothing else holds it (pass the
    /// only reference: `consume`): the thread that goes on does not pay for freeing a large value.
    public static func release<T>(_ value: consuming T) {
        let box = Box(value)
        if !detach({ _ in box.value = nil }) { box.value = nil }
    }

    /// Makes this program's zero-initialised data writable, every page, before a second thread
    /// runs (`shim_prefault_bss`): a page first read and then written costs a TLB flush on every
    /// other CPU running this process, an interrupt and a VM exit each way on a VM. Call it while
    /// this is the only thread, before work that starts others at once (a take's head start).
    /// False when the kernel cannot (before Linux 5.14): nothing is done then.
    @discardableResult
    public static func prefaultStaticData() -> Bool {
        shim_prefault_bss() == 0
    }

    /// `body`, run on a new thread that starts on another CPU than `avoid` (this thread's) when
    /// there is one (`shim_thread_start`: Linux put most new threads on their parent's CPU, and the
    /// two took turns there while the other core idled), given the CPU it started on. False when
    /// no thread could be started: `body` was not run.
    @discardableResult
    static func detach(avoiding avoid: Int32 = shim_current_cpu(),
                       _ body: @escaping @Sendable (_ startedOn: Int32) -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let failed = shim_thread_start({ context, cpu in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run(cpu)
        }, context, avoid)
        if failed != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return failed == 0
    }

    /// What a detached thread runs, kept alive until it has.
    private final class Body: Sendable {
        let run: @Sendable (Int32) -> Void
        init(_ run: @escaping @Sendable (Int32) -> Void) { self.run = run }
    }

    /// A value handed to another thread to be let go.
    private final class Box<T>: @unchecked Sendable {
        // @unchecked: written by the releasing thread only, once the handing thread let go of it.
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }

    /// The workers a command hands DoseCore: this thread and threads of their own, one per CPU
    /// this process may use.
    public static let threads: any Workers = Threads()

    /// Part 0 on the caller's thread, every other part on a thread of its own started off the
    /// caller's CPU (``detach(avoiding:_:)``).
    struct Threads: Workers {
        var width: Int { max(1, Int(shim_allowed_cpu_count())) }

        func map<T>(parts: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
            guard parts > 1 else { return parts == 1 ? [body(0)] : [] }
            let results = Results<T>(count: parts)
            let others = (1..<parts).map { k in Parallel.Background.started { results.set(k, body(k)) } }
            results.set(0, body(0))
            for (k, other) in zip(1..., others) {
                // No thread could be started: that part runs here.
                if let other { other.result() } else { results.set(k, body(k)) }
            }
            return results.all
        }
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

        /// Every part's result (all parts have run: ``Threads/map(parts:_:)`` waited for each).
        var all: [T] {
            lock.lock(); defer { lock.unlock() }
            return items.map { $0! }
        }
    }
}
