import DoseCore
import DoseFiles
import DoseExport
import Foundation

/// `dosebar doctor`'s checks: the time zone, the config file, the database, the shared directory,
/// the daemon, Syncthing when sync is set up, medicines stored out of range and the bars
/// installed. It returns what it found, in order; the command prints it.
public struct DoctorService {
    /// One line of the report.
    public struct Finding: Sendable, Equatable {
        public enum Level: Sendable, Equatable {
            /// Fine.
            case ok
            /// Worth knowing, nothing to fix.
            case note
            /// Something to fix (doctor exits 1).
            case fix
        }
        public var level: Level
        public var text: String

        public init(_ level: Level, _ text: String) { self.level = level; self.text = text }
    }

    public let context: AppContext
    /// The pid of the daemon holding the shared directory's lock, nil when none runs (the
    /// daemon's `InstanceLock`, which DoseApp does not see).
    public let daemonPID: (String) -> Int32?
    /// Where a bar's set-up is installed next to this binary, nil when it is not (a build tree).
    public let installedReadme: (String) -> String?

    public init(context: AppContext, daemonPID: @escaping (String) -> Int32?, installedReadme: @escaping (String) -> String?) {
        self.context = context; self.daemonPID = daemonPID; self.installedReadme = installedReadme
    }

    /// Every check, in the order the report lists them. Throws only what is not a finding (an
    /// error that is not a ``DosebarError``).
    public func check() throws -> [Finding] {
        var found: [Finding] = []
        func ok(_ s: String) { found.append(Finding(.ok, s)) }
        func fix(_ s: String) { found.append(Finding(.fix, s)) }
        func note(_ s: String) { found.append(Finding(.note, s)) }
        let c = context.catalog
        if let p = context.zoneProblem { fix(p) }
        else { ok(c.text("doctor.zone", ["zone": context.zone.identifier, "now": context.zone.local(context.now).iso8601])) }
        // The person travelled: the latest change of the log, and this clock when it is not theirs.
        if let last = context.zone.changes.last {
            let was = context.zone.entry(at: last.at.addingTimeInterval(-1)).name
            note(c.counted("doctor.zone_log", context.zone.changes.count, [
                "time": LocalInstant(date: last.at, offset: last.timeZone.secondsFromGMT(for: last.at)).localDate.description + " "
                    + LocalInstant(date: last.at, offset: last.timeZone.secondsFromGMT(for: last.at)).clock,
                "was": was, "zone": last.name]))
        }
        if let other = ZoneReport.otherClock(context) { note(other) }
        if FileManager.default.fileExists(atPath: context.configPath) { ok(c.text("doctor.config", ["path": context.configPath])) }
        else { note(c.text("doctor.no_config", ["path": context.configPath])) }
        if context.dbIsDefault && !context.databaseExists { note(c.text("doctor.no_database", ["path": context.dbPath])) }
        // A directory dosebar would refuse is named with the reason, whatever the database says.
        var directoryRefused = false
        do { try SharedDirectory(path: context.dirPath).examine() } catch let e as DosebarError {
            fix(e.description)
            directoryRefused = true
        }
        do {
            let store = try context.openStore()
            let meds = try store.read { try $0.medications(includeArchived: false) }
            ok(c.counted("doctor.database", meds.count, ["path": context.dbPath]))
            if meds.isEmpty { note(c.text("doctor.no_medicines")) }
            if !directoryRefused {
                do {
                    let written = try Refresh.export(context, store)
                    if written.leftAlone.isEmpty { ok(c.text("doctor.writable", ["path": context.dirPath])) }
                    written.leftAlone.forEach(fix)
                } catch let e as DosebarError { fix(e.description) }
            }
        } catch let e as DosebarError { fix(e.description) }
        // A private copy a killed backup or restore left beside the database: removed here, named when it cannot be.
        for left in Temporaries.removeStale(besideDatabase: context.dbPath) {
            fix(c.text("doctor.temporary_left", ["path": left]))
        }
        if context.dirFallback { fix(c.text("doctor.no_runtime_dir", ["path": context.dirPath])) }
        // The lock, not the pid in it: a killed daemon leaves its pid behind, and pids get reused.
        if let pid = daemonPID(context.dirPath) {
            ok(c.text("doctor.daemon", ["pid": String(pid)]))
        } else {
            fix(c.text("doctor.no_daemon"))
        }
        if let service = try? SyncService(context: context, store: try context.openStore()),
           let clone = try? service.clone() {
            note(c.text("doctor.sync_cloned", ["at": clone.at, "old": clone.old, "new": clone.new]))
        }
        if let setup = try? SyncService(context: context, store: try context.openStore()).setup() {
            if SyncthingProbe.runningPID() == nil {
                fix(c.text("doctor.no_syncthing", ["dir": setup.dir]))
            } else if let address = SyncthingProbe.guiAddress(env: context.env), !SyncthingProbe.answers(address) {
                fix(c.text("doctor.syncthing_silent", ["dir": setup.dir, "address": address]))
            } else {
                ok(c.text("doctor.sync", ["dir": setup.dir]))
            }
        }
        // A medicine an older or broken dosebar stored out of range (DESIGN §9): named, with the rule.
        for m in (try? context.openStore().read({ try $0.medications(includeArchived: false) })) ?? [] {
            if let problem = FieldRules.storedProblem(m) {
                fix(c.text("doctor.out_of_range", ["name": FieldRules.printable(m.name), "problem": problem.description]))
            }
        }
        let path = (context.env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for bar in OutputFormat.clients {
            if path.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/" + bar) }) {
                if let readme = installedReadme(bar) { note(c.text("doctor.bar", ["bar": bar, "path": readme])) }
                else { note(c.text("doctor.bar.source", ["bar": bar])) }
            }
        }
        return found
    }
}
