import DoseCore
import Foundation

extension AppContext {
    /// The same set-up as of another instant, with the time zone looked up again: a command's
    /// context is built for one instant, the daemon lives across many (and across zone changes).
    public init(_ base: AppContext, now: Date) {
        options = base.options
        env = base.env
        self.now = now
        (systemZone, zoneProblem) = AppContext.timeZone(base.env)
        // The log's zone as `base` followed it; the daemon follows the log again at each wake-up.
        zone = base.zone
        dbPath = base.dbPath
        dirPath = base.dirPath
        dirFallback = base.dirFallback
        configPath = base.configPath
        config = base.config
        configProblem = base.configProblem
        dbIsDefault = base.dbIsDefault
        catalog = base.catalog
        origins = base.origins
    }

    /// The same paths and options with the config file read again (the daemon's SIGHUP).
    public func reloaded() throws -> AppContext {
        try AppContext(options, env: env)
    }

    /// "Now" for the store's validation gate (no instant written more than 24 h after it): `DOSEBAR_NOW`
    /// when set (it never advances, like the daemon's clock then), else the system clock read at each
    /// write, since a daemon's context lives for days.
    public var gateClock: @Sendable () -> Date {
        let fixed: Date? = (try? AppContext.fixedClock(env)) == nil ? nil : now
        return { fixed ?? Date() }
    }
}
