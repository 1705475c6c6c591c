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
        let context: AppContext
        do { context = try AppContext(global.options) } catch let e as DosebarError {
            Output.line("FIX   " + e.description)
            throw ExitCode(1)
        }
        // Judged by the zone log, as every command (DESIGN §3): a clock that moved since is followed,
        // and said, whatever doctor finds.
        let (followed, following) = context.followingZone()
        defer { following.settle(followed) }
        try run(followed)
    }

    /// Prints what ``DoctorService`` found, then the verdict; exit 1 when something is to fix.
    func run(_ context: AppContext) throws {
        let findings = try DoctorService(context: context, daemonPID: { InstanceLock.holder(directory: $0) },
                                         installedReadme: Doctor.installedReadme).check()
        for f in findings {
            switch f.level {
            case .ok: Output.line("ok    " + f.text)
            case .note: Output.line("note  " + f.text)
            case .fix: Output.line("FIX   " + f.text)
            }
        }
        let problems = findings.filter { $0.level == .fix }.count
        let c = context.catalog
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
