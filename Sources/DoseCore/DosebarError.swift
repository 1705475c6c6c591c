/// Every failure a person can see, with what to do about it; mapped to an exit code in one place.
public enum DosebarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Wrong flags or arguments (exit 64).
    case usage(String)
    /// Input that names nothing real or makes no sense: unknown medicine, invalid time, nothing due (exit 65).
    case badData(String)
    /// The database stayed busy beyond its timeout; trying again will likely work (exit 75).
    case busy(String)
    /// Reading or writing files failed: disk full, permissions (exit 74).
    case io(String)
    /// Another dosebar daemon already runs for this shared directory (exit 69, EX_UNAVAILABLE: not
    /// 75, since trying again will not help until it stops; systemd's RestartPreventExitStatus).
    case alreadyRunning(String)
    /// The configuration or set-up is wrong: config typo, foreign-owned shared directory (exit 78).
    case config(String)
    /// A bug (exit 70).
    case `internal`(String)

    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .badData: 65
        case .busy: 75
        case .alreadyRunning: 69
        case .io: 74
        case .config: 78
        case .internal: 70
        }
    }

    /// The same failure (and exit code) with its line rewritten from the old one.
    public func rephrased(_ line: (String) -> String) -> DosebarError {
        switch self {
        case .usage(let m): .usage(line(m))
        case .badData(let m): .badData(line(m))
        case .busy(let m): .busy(line(m))
        case .alreadyRunning(let m): .alreadyRunning(line(m))
        case .io(let m): .io(line(m))
        case .config(let m): .config(line(m))
        case .internal(let m): .internal(line(m))
        }
    }

    /// One line for stderr.
    public var description: String {
        switch self {
        case .usage(let m), .badData(let m), .busy(let m), .alreadyRunning(let m), .io(let m), .config(let m), .internal(let m): m
        }
    }
}
