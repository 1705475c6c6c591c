import ArgumentParser
import DoseApp

/// A subcommand whose `run()` only builds the context (STYLE §2): its work is `run(_:)`, which a
/// test could call with a context of its own, and the refresh its changes owe is paid once when it
/// ends (``AppContext/finishing(_:)``), after it printed its result.
protocol ContextCommand: ParsableCommand {
    var global: GlobalOptions { get }
    /// `take`, `skip` and `undo`: a config error never loses a dose (DESIGN §9): the command goes
    /// on with the defaults and warns last.
    static var recordsDoses: Bool { get }
    /// A command whose work is a change (a dose, a refill, an import, a backup, the shared
    /// directory): once it returns, the change is committed, and a confirmation it could not print
    /// (standard output closed, full, or a pipe whose reader left) is a warning, exit 0 (DESIGN §9):
    /// a script that retries on failure must not refill or undo twice. A command whose work is
    /// what it prints (`today`, `report`) still fails (74) when it cannot print it.
    static var changesData: Bool { get }
    /// Whether the command judges days by the zone log (DESIGN §3 "Where the person is"): all but
    /// the ones that replace or copy the database file as a whole.
    static var followsZone: Bool { get }
    /// Checks of the arguments alone that must come before the context is built (its errors, like
    /// a config file's, would otherwise be reported first).
    func precheck() throws
    func run(_ context: AppContext) throws
}

extension ContextCommand {
    static var recordsDoses: Bool { false }
    static var changesData: Bool { recordsDoses }
    static var followsZone: Bool { true }
    func precheck() throws {}

    func run() throws {
        try precheck()
        // A command exits when done: its connections are closed by the system, not one by one.
        AppContext.exitsWhenDone()
        let configErrors: AppContext.ConfigErrors = Self.recordsDoses ? .useDefaults : .fail
        var context = try HeadStart.claim(global.options, configErrors: configErrors)
            ?? AppContext(global.options, configErrors: configErrors)
        // An unknown TZ would silently be UTC: every command says so (DESIGN §3).
        if let problem = context.zoneProblem { Output.warning(problem) }
        var following: ZoneFollowing?
        if Self.followsZone { (context, following) = context.followingZone() }
        try context.finishing { try run(context) }
        following?.settle(context)
        if Self.recordsDoses { Output.configWarning(context) }
    }
}
