import DoseCore
import DoseExport
import DoseStore
import Foundation

/// Rewrites the shared directory from the store: after every change, for `export` and for the daemon.
public enum Refresh {
    /// What one refresh computed and wrote.
    public struct Written: Sendable {
        /// Today's timeline as written.
        public var timeline: Timeline
        /// Yesterday's slots that may still be open, then today's (the daemon decides notifications from them).
        public var slots: [PlannedSlot]
        /// The names of the files whose content changed.
        public var changed: [String]
        /// One line for each file left alone because something dosebar did not write is in its
        /// place (the other files were written).
        public var leftAlone: [String] = []
        /// The medicines whose next dose a recent change of zone moved (``SnapshotBuilder/travelNotices``).
        public var travelGaps: [(gap: TravelGap, text: String, resolvedAt: Date?)] = []
    }

    /// Computes today's timeline at `context.now` and writes the files that changed, holding the export lock.
    /// `progress` counts the days summarised first, when there are many (after an import or a sync).
    @discardableResult
    public static func export(_ context: AppContext, _ store: DoseStore, progress: WorkProgress = .silent) throws -> Written {
        try export(context, store, progress: progress, bulk: .command) { $0 }
    }

    /// `export`, then `body` on what was written, still holding the lock (no other writer in between).
    public static func export<T>(_ context: AppContext, _ store: DoseStore, progress: WorkProgress = .silent,
                                 bulk: BulkWork = .command, then body: (Written) throws -> T) throws -> T {
        try ExportLock.run(dir: context.dirPath) {
            let service = DayService(store: store, context: context, progress: progress, bulk: bulk)
            let day = try service.load()
            let builder = service.builder(day)
            let timeline = TimelineProvider(builder: builder).timeline(generatedAt: context.now, workers: bulk.workers)
            let exporter = Exporter(options: context.config.renderOptions(context.catalog))
            // ExportLock.run has prepared the directory.
            let outcome = try exporter.write(timeline, now: context.now, to: SharedDirectory(path: context.dirPath), prepared: true,
                                             concurrent: bulk.concurrent)
            return try body(Written(timeline: timeline, slots: day.plan.carried + day.plan.slots, changed: outcome.changed,
                                    leftAlone: outcome.leftAlone, travelGaps: builder.travelNotices))
        }
    }

    /// After a command changed data: the bar shows it at once. A failure here does not undo the
    /// change the user asked for; it is reported as a warning.
    /// `syncFlushed`: the command has just written this device's sync file itself (`sync now`).
    public static func afterChange(_ context: AppContext, _ store: DoseStore, progress: WorkProgress = .silent,
                                   syncFlushed: Bool = false) {
        do {
            if !syncFlushed { try SyncService(context: context, store: store).flush() }
        } catch let e as DosebarError {
            Output.warning("saved, but not yet written to the sync folder ('dosebar sync now' retries): \(e.description)")
        } catch {
            Output.warning("saved, but not yet written to the sync folder ('dosebar sync now' retries): \(error)")
        }
        do {
            let written = try export(context, store, progress: progress)
            if !written.leftAlone.isEmpty { Output.warning("saved, but " + written.leftAlone.joined(separator: "; ")) }
        } catch let e as DosebarError {
            Output.warning("saved, but the shared directory was not updated: \(e.description)")
        } catch {
            Output.warning("saved, but the shared directory was not updated: \(error)")
        }
    }
}
