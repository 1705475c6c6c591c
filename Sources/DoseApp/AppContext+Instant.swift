import DoseCore
import Foundation

extension AppContext {
    /// The same set-up as of another instant, with the time zone looked up again: a command's
    /// context is built for one instant, the daemon lives across many (and across zone changes).
    public init(_ base: AppContext, now: Date) {
        options = base.options
        env = base.env
        self.now = now
        (zone, zoneProblem) = AppContext.timeZone(base.env)
        dbPath = base.dbPath
        dirPath = base.dirPath
        dirFallback = base.dirFallback
        configPath = base.configPath
        config = base.config
        configProblem = base.configProblem
        dbIsDefault = base.dbIsDefault
        catalog = base.catalog
    }

    /// The same paths and options with the config file read again (the daemon's SIGHUP).
    public func reloaded() throws -> AppContext {
        try AppContext(options, env: env)
    }
}
