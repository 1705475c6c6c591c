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
        Checks the time zone, the config file, the database, the shared directory, the daemon and \
        which bars are installed. Exits 0 when everything is fine, 1 when something needs fixing.

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
        if let p = context.zoneProblem { fix(p) } else { ok("time zone \(context.zone.identifier), now \(context.zone.local(context.now).iso8601)") }
        if FileManager.default.fileExists(atPath: context.configPath) { ok("config \(context.configPath)") }
        else { note("no config file at \(context.configPath) (defaults are used)") }
        do {
            let store = try context.openStore()
            let meds = try store.read { try $0.medications(includeArchived: false) }
            ok("database \(context.dbPath) (\(meds.count) medicine(s))")
            if meds.isEmpty { note("no medicines yet: dosebar add NAME --at HH:MM") }
            do {
                try Refresh.export(context, store)
                ok("shared directory \(context.dirPath) is writable")
            } catch let e as DosebarError { fix(e.description) }
        } catch let e as DosebarError { fix(e.description) }
        if context.dirFallback { fix("XDG_RUNTIME_DIR is not set: bars and the daemon may disagree on \(context.dirPath); set DOSEBAR_DIR") }
        // The lock, not the pid in it: a killed daemon leaves its pid behind, and pids get reused.
        if let pid = InstanceLock.holder(directory: context.dirPath) {
            ok("daemon running (pid \(pid))")
        } else {
            fix("the daemon is not running: start it with 'systemctl --user enable --now dosebar' or 'dosebar daemon &'")
        }
        let path = (context.env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for bar in ["waybar", "polybar", "conky", "tmux", "i3blocks", "gnome-shell"] {
            if path.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/" + bar) }) {
                note("\(bar) is installed: see integrations/\(bar == "gnome-shell" ? "gnome-shell" : bar)/README.md")
            }
        }
        if problems > 0 {
            Output.line("\(problems) thing(s) to fix.")
            throw ExitCode(1)
        }
        Output.line("Everything looks fine.")
    }
}
