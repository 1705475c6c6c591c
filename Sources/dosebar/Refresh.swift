import DoseCore
import DoseExport
import DoseStore
import Foundation

/// Rewrites the shared directory from the store: after every change, and for `export`/the daemon.
enum Refresh {
    /// Computes today's timeline and writes the files that changed. Returns the timeline and the changed names.
    @discardableResult
    static func export(_ context: AppContext, _ store: DoseStore) throws -> (Timeline, [String]) {
        try ExportLock.run(dir: context.dirPath) {
            let timeline = try DayService(store: store, context: context).timeline()
            let exporter = Exporter(options: context.config.renderOptions(context.catalog))
            let changed = try exporter.export(timeline, now: context.now, to: SharedDirectory(path: context.dirPath))
            return (timeline, changed)
        }
    }

    /// After a command changed data: the bar shows it at once. A failure here does not undo the
    /// change the user asked for; it is reported as a warning.
    static func afterChange(_ context: AppContext, _ store: DoseStore) {
        do {
            try export(context, store)
        } catch let e as DosebarError {
            Output.warning("saved, but the shared directory was not updated: \(e.description)")
        } catch {
            Output.warning("saved, but the shared directory was not updated: \(error)")
        }
    }
}
