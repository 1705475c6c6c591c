import ArgumentParser
import DoseApp
import DoseCore
import DoseDaemon
import DoseExport
import Foundation

/// `dosebar doctor`: check the set-up and say what to fix.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the set-up and say what to fix.",
        usage: "dosebar doctor [<global options>]",
        discussion: """
        Checks the time zone, the config file, the database, the shared directory, the daemon, \
        Syncthing when sync is set up, and which bars are installed; for each bar found, names \
        where its set-up is installed (<prefix>/share/dosebar/integrations/<bar>; the prefix is /usr \
        for the .deb, ~/.local for make install).

        Exit codes: 0 everything is fine (ok and note lines only), 1 something to fix (each \
        FIX line says what). Doctor itself never exits 64-78 for a problem it finds.

        Example:
          $ dosebar doctor
        """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func run() throws {
        var problems = 0
        func ok(_ s: String) { Output.line("ok    " + s) }
        func fix(_ s: String) { Output.line("FIX   " + s); problems += 1 }
        func note(_ s: String) { Output.line("note  " + s) }

        let context: AppContext
        do { context = try AppContext(global.options) } catch let e as DosebarError {
            fix(e.description)
            throw ExitCode(1)
        }
        let c = context.catalog
        if let p = context.zoneProblem { fix(p) }
        else { ok(c.text("doctor.zone", ["zone": context.zone.identifier, "now": context.zone.local(context.now).iso8601])) }
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
        if context.dirFallback { fix(c.text("doctor.no_runtime_dir", ["path": context.dirPath])) }
        // The lock, not the pid in it: a killed daemon leaves its pid behind, and pids get reused.
        if let pid = InstanceLock.holder(directory: context.dirPath) {
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
                if let readme = Doctor.installedReadme(bar) { note(c.text("doctor.bar", ["bar": bar, "path": readme])) }
                else { note(c.text("doctor.bar.source", ["bar": bar])) }
            }
        }
        if problems > 0 {
            Output.line(c.counted("doctor.problems", problems))
            throw ExitCode(1)
        }
        Output.line(c.text("doctor.fine"))
    }

    /// `<prefix>/share/dosebar/integrations/<bar>/README.md` next to this binary's `<prefix>/bin`,
    /// where scripts/install (`make install`) and the .deb (scripts/package, prefix /usr) put it;
    /// nil when it is not there (a build tree).
    static func installedReadme(_ bar: String) -> String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let prefix = URL(fileURLWithPath: exe).deletingLastPathComponent().deletingLastPathComponent()
        let readme = prefix.appendingPathComponent("share/dosebar/integrations/\(bar)/README.md").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: readme) ? readme : nil
    }
}
