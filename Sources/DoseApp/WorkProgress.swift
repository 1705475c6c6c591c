import DoseCore
import DoseFiles
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How far long work has got (DESIGN §8: work that can take longer than a second shows it).
///
/// The services count — `sync init`'s history, another device's operations, an import's doses,
/// the days the first export after an import summarises — with ``begin(_:total:)``,
/// ``step(_:)`` and ``end()``; the front end chooses where it shows: one self-rewriting line on
/// a terminal's stderr (the commands, ``forStderr(_:quiet:)``), one line at the start and one
/// at the end of the work in a log (the daemon), or nowhere (a pipe, `--quiet`, ``silent``).
/// Nothing shows for work done within the first second; the line is redrawn at most ten times a
/// second and cleared when the work ends, before the command prints its result.
public final class WorkProgress {
    /// What is counted; its words are the catalog's `progress.*`.
    public enum Work: String, Sendable {
        case history, ownFile = "own_file", reading, operations, doses, days
        /// A file given to `import`: its lines, then its rows or history entries.
        case file, rows, entries
    }

    /// Where progress shows.
    public enum Sink {
        /// Nowhere.
        case none
        /// One line on stderr, rewritten in place (`\r`, erase to the end of the line), no wider than `columns`.
        case terminal(columns: Int)
        /// One line when the work has gone on for longer than the threshold, one when it ends.
        case log((String) -> Void)
    }

    private let sink: Sink
    private let catalog: Catalog
    /// Seconds of work before anything shows.
    private let threshold: Double
    /// Seconds on a monotonic clock.
    private let clock: () -> Double
    private let created: Double
    private var work: Work?
    private var total = 0
    private var done = 0
    private var began = 0.0
    private var lastDraw = -Double.infinity
    /// The terminal line is on screen.
    private var drawn = false
    /// The log's start line was written for this work.
    private var logged = false

    /// Seconds between two redraws of the terminal line.
    static let redrawInterval = 0.1

    public init(_ sink: Sink, catalog: Catalog, threshold: Double = 1, clock: @escaping () -> Double = WorkProgress.monotonic) {
        self.sink = sink; self.catalog = catalog; self.threshold = threshold; self.clock = clock
        created = clock()
    }

    /// Progress that shows nowhere.
    public static var silent: WorkProgress { WorkProgress(.none, catalog: .english) }

    /// The commands' progress: a line on stderr when stderr is a terminal (not a dumb one) and
    /// the command was not asked to be quiet, else nothing. `DOSEBAR_PROGRESS_AFTER` (seconds,
    /// for tests only: it changes nothing but when the line appears) replaces the one second.
    public static func forStderr(_ context: AppContext, quiet: Bool = false) -> WorkProgress {
        guard !quiet, isatty(2) == 1, context.env["TERM"] != "dumb" else { return .silent }
        var size = winsize()
        let columns = ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        let threshold = context.env["DOSEBAR_PROGRESS_AFTER"].flatMap(Double.init).map { max(0, $0) } ?? 1
        return WorkProgress(.terminal(columns: columns), catalog: context.catalog, threshold: threshold)
    }

    /// The daemon's: a line in its log when long work starts showing and when it ends.
    public static func forLog(_ context: AppContext, _ log: @escaping (String) -> Void) -> WorkProgress {
        WorkProgress(.log(log), catalog: context.catalog)
    }

    /// Starts counting `total` items of `work` (ending the work counted before, if any).
    public func begin(_ work: Work, total: Int) {
        if case .none = sink { return }
        end()
        self.work = work
        self.total = max(0, total)
        done = 0
        began = clock()
        logged = false
    }

    /// `done` of `total` items of the current work are done (a total found out while working).
    public func step(_ done: Int, of total: Int) {
        if case .none = sink { return }
        self.total = max(0, total)
        step(done)
    }

    /// `done` items of the current work are done.
    public func step(_ done: Int) {
        if case .none = sink { return }
        guard work != nil else { return }
        self.done = done
        let now = clock()
        switch sink {
        case .none:
            break
        case .terminal(let columns):
            guard now - created >= threshold, now - lastDraw >= Self.redrawInterval else { return }
            lastDraw = now
            drawn = true
            write("\r" + Self.fit(line(now: now), columns: columns - 1) + "\u{1B}[K")
        case .log(let log):
            guard !logged, now - began >= threshold else { return }
            logged = true
            log(catalog.text("progress.log_start", ["work": words, "total": String(total), "done": String(done),
                                                      "seconds": Self.seconds(now - began)]))
        }
    }

    /// The current work is over: the terminal line is cleared, the log says how long it took.
    public func end() {
        guard let work else { return }
        if drawn {
            write("\r\u{1B}[K")
            drawn = false
            lastDraw = -Double.infinity
        }
        if logged, case .log(let log) = sink {
            log(catalog.text("progress.log_end", ["work": catalog.text("progress." + work.rawValue), "done": String(done),
                                                    "total": String(total), "seconds": Self.seconds(clock() - began)]))
        }
        logged = false
        self.work = nil
    }

    private var words: String { work.map { catalog.text("progress." + $0.rawValue) } ?? "" }

    /// `Applying other devices' operations: 120000/583088 · 45000/s · 10 s left`.
    func line(now: Double) -> String {
        let elapsed = now - began
        var args = ["work": words, "done": String(done), "total": String(total)]
        guard done > 0, elapsed > 0 else { return catalog.text("progress.line.starting", args) }
        let rate = Double(done) / elapsed
        args["rate"] = String(Int(rate.rounded()))
        args["left"] = catalog.text("progress.seconds", ["n": String(Int((Double(max(0, total - done)) / rate).rounded(.up)))])
        return catalog.text("progress.line", args)
    }

    private func write(_ text: String) {
        _ = FileIO.writeAll(2, text)
    }

    static func seconds(_ s: Double) -> String { String(format: "%.1f", s) }

    /// `text` cut to `columns` terminal cells (Hangul and other wide characters take two), so the
    /// line never wraps: a wrapped line could not be rewritten in place.
    static func fit(_ text: String, columns: Int) -> String {
        var out = "", used = 0
        for c in text {
            let width = c.unicodeScalars.first.map { wide($0) ? 2 : 1 } ?? 1
            if used + width > columns { break }
            out.append(c)
            used += width
        }
        return out
    }

    private static func wide(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
            true
        default:
            false
        }
    }

    /// Seconds on CLOCK_MONOTONIC (a clock set back meanwhile does not matter).
    public static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
