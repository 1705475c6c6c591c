import DoseCore
import DoseRuntime
import DoseStore
import Foundation
import Synchronization

/// The context of a command that records doses (a bar click, `take NAME`), its database opened and
/// the day read ahead (``DayService/readAhead()``), on the other core while the command line is
/// still being parsed: ArgumentParser's parse of a `take` reflects the command's types on the main
/// thread for longer than all that takes (Benchmarks/README.md, "A take's head start"). Begun only where the
/// arguments cannot name another database, directory, config file or language than the defaults
/// (``mayBegin(_:)``), and used only when the parsed options are indeed the defaults and the
/// command asks for what was built; otherwise it is let go and the command builds its own.
/// Opening it changes nothing in the database: one that would need a migration (or a stamp) is
/// left for the command to open as usual.
public enum HeadStart {
    /// What was built ahead; nil until begun, and again once claimed.
    private static let started = Mutex<Parallel.Background<Built>?>(nil)

    /// A context with its database open, or why it could not be built here.
    private struct Built: Sendable {
        var result: Result<(AppContext, DoseStore), any Error>
        var configErrors: AppContext.ConfigErrors
    }

    /// Whether `arguments` (those after the command's name) leave every option of the context at
    /// its default: no option at all but `--next`, so neither a global option nor help is asked.
    public static func mayBegin(_ arguments: ArraySlice<String>) -> Bool {
        !arguments.contains { $0.hasPrefix("-") && $0 != "--next" }
    }

    /// Starts building the default context (``AppOptions()``) and opening its database for reading
    /// and writing existing data (``AppContext/openStore(_:)``'s `.read`) on a thread of its own.
    public static func begin(configErrors: AppContext.ConfigErrors) {
        AppContext.exitsWhenDone()
        Parallel.prefaultStaticData()
        let work = Parallel.Background {
            Built(result: Result {
                let context = try AppContext(AppOptions(), configErrors: configErrors)
                let store = try context.openStore(.read, changing: false)
                DayService(store: store, context: context).readAhead()
                return (context, store)
            }, configErrors: configErrors)
        }
        started.withLock { $0 = work }
    }

    /// Waits for a head start that no command claimed (help, a usage error), so that the process
    /// does not exit while that thread is still opening the database.
    public static func abandon() {
        if let work = started.withLock({ state in defer { state = nil }; return state }) { _ = work.take() }
    }

    /// The context built ahead when it is the one `options` and `configErrors` ask for (waiting for
    /// it to be done), with its database for ``AppContext/openStore(_:)``; nil when none was begun,
    /// it asks for another, or building it failed (the command then builds its own and meets the
    /// same error, in its own order).
    public static func claim(_ options: AppOptions, configErrors: AppContext.ConfigErrors) -> AppContext? {
        guard let work = started.withLock({ state in defer { state = nil }; return state }) else { return nil }
        let built = work.take()
        guard options == AppOptions(), built.configErrors == configErrors, case .success(let (context, store)) = built.result
        else { return nil }
        return context.with(opened: store)
    }
}
