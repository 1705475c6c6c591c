import DoseCore
import DoseStore
import Foundation

/// One change to the data: the only way a service writes what a person changed (a dose, a
/// medicine, stock, an import, a sync set-up). ``AppContext/change(_:progress:cacheMegabytes:_:)``
/// runs it in one write transaction and, in this order:
///
/// 1. the change itself, with this device's sync journal (``journal``, opened when first asked
///    for; nil when sync was never initialised);
/// 2. the journal finished (clock kept, stock derived), when it was opened;
/// 3. history marked changed from the earliest day the change named (``historyChanged(on:)``);
/// 4. the commit;
/// 5. the refresh owed: this device's sync file and the shared directory are rewritten once,
///    when the command ends (``AppContext/finishing(_:)``), after it printed its result.
///
/// A change that throws commits nothing: no journal line, no mark, no refresh owed.
public final class WriteScope {
    /// The transaction's writer.
    public let writer: StoreWriter
    private let context: AppContext
    private var opened = false
    private var finished = false
    private var openedJournal: SyncJournal?
    /// The earliest day whose history the change touched.
    private var changedFrom: LocalDate?

    init(_ writer: StoreWriter, _ context: AppContext) {
        self.writer = writer; self.context = context
    }

    /// This device's sync journal for the change, nil when sync was never initialised (asked
    /// once, when first needed: `sync init` sets the device up inside its change).
    public func journal() throws -> SyncJournal? {
        if !opened {
            openedJournal = try SyncJournal.open(writer, context)
            opened = true
        }
        return openedJournal
    }

    /// Finishes the journal now (once; the scope does not again): for a change that reads back
    /// what the journal derives when it finishes (`refill`'s stock with sync on).
    public func finishJournal() throws {
        guard !finished else { return }
        finished = true
        try openedJournal?.finish()
    }

    /// The change touched the history of `day` (and so, for summaries, of every day after it).
    public func historyChanged(on day: LocalDate) {
        changedFrom = min(changedFrom ?? day, day)
    }

    /// A medicine's schedule changed from `day` on: the day before is judged again too
    /// (``StoreWriter/scheduleChanged(on:today:)``).
    public func scheduleChanged(on day: LocalDate) {
        historyChanged(on: day.adding(days: -1))
    }

    /// Runs `body` as one change inside the transaction of `w`, then finishes the journal and
    /// marks history changed (steps 1-3 above).
    static func run<T>(_ w: StoreWriter, _ context: AppContext, _ body: (WriteScope) throws -> T) throws -> T {
        let scope = WriteScope(w, context)
        let result = try body(scope)
        try scope.finishJournal()
        if let day = scope.changedFrom { try w.historyChanged(on: day, today: context.today) }
        return result
    }
}

/// What the changes a command committed owe once it has printed its result: one refresh of this
/// device's sync file and of the shared directory. Kept by the context; paid by
/// ``AppContext/finishing(_:)`` (or ``AppContext/settle()`` when the command must go on after it).
/// The daemon never pays it: its loop refreshes after every answer it records.
public final class OwedRefresh: @unchecked Sendable {
    private let lock = NSLock()
    private var store: DoseStore?
    private var progress: WorkProgress = .silent
    private var syncFlushed = true

    init() {}

    /// A change to `store` committed; `syncFlushed`: it wrote this device's sync file itself.
    func owe(_ store: DoseStore, progress: WorkProgress, syncFlushed: Bool) {
        lock.lock(); defer { lock.unlock() }
        if self.store == nil { self.syncFlushed = syncFlushed } else { self.syncFlushed = self.syncFlushed && syncFlushed }
        self.store = store
        self.progress = progress
    }

    /// What is owed, once: nil when nothing is.
    func take() -> (store: DoseStore, progress: WorkProgress, syncFlushed: Bool)? {
        lock.lock(); defer { lock.unlock() }
        guard let store else { return nil }
        defer { self.store = nil; progress = .silent; syncFlushed = true }
        return (store, progress, syncFlushed)
    }
}

extension AppContext {
    /// Runs `body` as one change to `store` (``WriteScope``): in one transaction, then owes the
    /// refresh. `progress` shows the refresh's work (the days an import makes it summarise);
    /// `cacheMegabytes` raises SQLite's page cache for a change that writes a whole history.
    @discardableResult
    public func change<T>(_ store: DoseStore, progress: WorkProgress = .silent, cacheMegabytes: Int? = nil,
                          _ body: (WriteScope) throws -> T) throws -> T {
        let result = try store.write(cacheMegabytes: cacheMegabytes) { w in try WriteScope.run(w, self, body) }
        owedRefresh.owe(store, progress: progress, syncFlushed: false)
        return result
    }

    /// `store` changed through work of several transactions of its own (`sync now`'s batches, a
    /// restore): the refresh is owed as after ``change(_:progress:cacheMegabytes:_:)``.
    /// `syncFlushed`: the work has just written this device's sync file itself.
    func changed(_ store: DoseStore, progress: WorkProgress = .silent, syncFlushed: Bool = false) {
        owedRefresh.owe(store, progress: progress, syncFlushed: syncFlushed)
    }

    /// Runs one command's work, then pays what its committed changes owe (once, even when it
    /// threw after committing): the front end's one way to run a command.
    public func finishing<T>(_ body: () throws -> T) rethrows -> T {
        defer { settle() }
        return try body()
    }

    /// Pays the refresh owed now, if any (a command that goes on afterwards: `purge` compacts
    /// the database only once the change is flushed and shown). `refresh` is
    /// ``Refresh/afterChange(_:_:progress:syncFlushed:)``; tests count it.
    public func settle(refresh: (AppContext, DoseStore, WorkProgress, Bool) -> Void = {
        Refresh.afterChange($0, $1, progress: $2, syncFlushed: $3)
    }) {
        guard let owed = owedRefresh.take() else { return }
        refresh(self, owed.store, owed.progress, owed.syncFlushed)
    }
}
