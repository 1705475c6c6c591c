import ArgumentParser
import DoseApp
import DoseCore
import DoseDaemon
import Foundation

/// `dosebar doctor`: check the set-up and say what to fix.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the set-up and say what to fix.",
        usage: "dosebar doctor [<global options>]",
        discussion: """
        Checks the time zone, the config file, the database, the shared directory, the daemon, \
        Syncthing when sync is set up, and which bars are installed. Exits 0 when everything is fine, 1 when something needs fixing.

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
        do {
            let store = try context.openStore()
            let meds = try store.read { try $0.medications(includeArchived: false) }
            ok(c.counted("doctor.database", meds.count, ["path": context.dbPath]))
            if meds.isEmpty { note(c.text("doctor.no_medicines")) }
            do {
                try Refresh.export(context, store)
                ok(c.text("doctor.writable", ["path": context.dirPath]))
            } catch let e as DosebarError { fix(e.description) }
        } catch let e as DosebarError { fix(e.description) }
        if context.dirFallback { fix(c.text("doctor.no_runtime_dir", ["path": context.dirPath])) }
        // The lock, not the pid in it: a killed daemon leaves its pid behind, and pids get reused.
        if let pid = InstanceLock.holder(directory: context.dirPath) {
            ok(c.text("doctor.daemon", ["pid": String(pid)]))
        } else {
            fix(c.text("doctor.no_daemon"))
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
        for bar in ["waybar", "polybar", "conky", "tmux", "i3blocks", "gnome-shell"] {
            if path.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/" + bar) }) {
                note(c.text("doctor.bar", ["bar": bar]))
            }
        }
        if problems > 0 {
            Output.line(c.counted("doctor.problems", problems))
            throw ExitCode(1)
        }
        Output.line(c.text("doctor.fine"))
    }
}
