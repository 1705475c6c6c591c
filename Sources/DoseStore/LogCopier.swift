import CSQLiteShim
import DoseCore
import DoseRuntime

/// Copies the log into the main file on a thread of its own, with a connection of its own, while
/// one long write (another device's first file, a batch per transaction) goes on appending to it.
///
/// Each copy the writer's own commit ran held that writer for the copy's length (Benchmarks/README.md,
/// `BulkWork`). A copy that waits for no one (`SQLITE_CHECKPOINT_PASSIVE`) runs beside the
/// writer. SQLite starts the log over only when a transaction begins with all of it copied, which
/// the writer's next batch seldom waits for: the commit past a higher bound copies the little
/// left and truncates the log, so it stays under that bound as without the copier.
final class LogCopier: @unchecked Sendable {
    // @unchecked: `connection` is used by the copying thread only, and closed after it ended;
    // `signal` is shared through its atomics and semaphore.
    private let connection: OpaquePointer
    private let signal: UnsafeMutablePointer<dosebar_log_signal>
    private var copying: Parallel.Background<Int>?

    /// Copies started past `frames` pages of log, on a connection to `path`; the writer's commit
    /// past `truncatingPast` pages copies what is left and truncates the log (its busy timeout
    /// `busyMilliseconds` put back after). Nil when a second connection, the signal or a thread
    /// cannot be had (the writer then copies as before).
    init?(path: String, frames: Int32, truncatingPast: Int32, busyMilliseconds: Int32) {
        guard let signal = dosebar_log_signal_new(frames, truncatingPast, busyMilliseconds) else { return nil }
        guard let connection = dosebar_sqlite3_open_copier(path) else {
            dosebar_log_signal_free(signal)
            return nil
        }
        let handles = Handles(connection: connection, signal: signal)
        // Not run here when no thread can be had: it waits for signals only the writer sends.
        guard let copying = Parallel.Background.started({
            var copies = 0
            while true {
                let stop = dosebar_log_signal_wait(handles.signal) != 0
                _ = dosebar_sqlite3_copy_log(handles.connection)
                copies += 1
                if stop { return copies }
            }
        }) else {
            sqlite3_close_v2(connection)
            dosebar_log_signal_free(signal)
            return nil
        }
        self.connection = connection
        self.signal = signal
        self.copying = copying
    }

    /// The connection and the signal, as the copying thread holds them.
    private struct Handles: @unchecked Sendable {
        // @unchecked: the thread is the connection's only user until ``finish()`` closes it after
        // the thread ended; the signal is made to be shared.
        let connection: OpaquePointer
        let signal: UnsafeMutablePointer<dosebar_log_signal>
    }

    /// Makes `writer`'s commits wake this copier instead of copying the log themselves.
    func follow(_ writer: OpaquePointer) {
        dosebar_sqlite3_signal_log_after(writer, signal)
    }

    /// Copies what the log still holds, then ends the thread and closes its connection: how many
    /// copies ran, the last one included. The writer's hook must be put back before.
    @discardableResult
    func finish() -> Int {
        guard let copying else { return 0 }
        self.copying = nil
        dosebar_log_signal_stop(signal)
        let copies = copying.result()
        sqlite3_close_v2(connection)
        dosebar_log_signal_free(signal)
        return copies
    }

    deinit { finish() }
}
