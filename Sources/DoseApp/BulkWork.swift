import DoseCore
import DoseRuntime

/// Who does long work (another device's first file, the first summaries of years of history), and
/// so how: a command exits after it; the daemon lives on under DESIGN §8's 30 MB (measured after
/// applying another device's 50 medicines × 20 years, `scripts/bench`).
public enum BulkWork: Sendable {
    /// Helper threads allowed (a long file parsed a batch ahead, a year summarised while the next
    /// one's events are read); the log copied into the main file from 32 MB on by a thread of its own
    /// while the batches go on, and emptied past 128 MB
    /// (``DoseStore/bulk(cacheMegabytes:logMegabytes:copyingAside:_:)``).
    case command
    /// On its own thread: memory other threads allocate stays in their malloc arenas, which
    /// `malloc_trim` does not shrink (45 MB after that sync with the parse threads, 29 MB without).
    /// The log emptied past 64 MB: with 128 MB the daemon stayed at 30.0–30.2 MB, at 64 MB 28.6–29.0 MB.
    case daemon

    var concurrent: Bool { self == .command }
    /// Who computes a timeline's entries: threads for a command, the daemon's own thread for it.
    var workers: any Workers { self == .command ? Parallel.threads : SameThread() }
    var logMegabytes: Int { self == .command ? 128 : 64 }
}
