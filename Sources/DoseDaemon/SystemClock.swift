import DoseApp
import DoseCore
import Foundation

/// The daemon's clock: the system's, or the instant `DOSEBAR_NOW` names (then it never advances).
final class SystemClock: DaemonClock {
    private let fixed: Date?

    init(environment: [String: String]) throws {
        fixed = try AppContext.fixedClock(environment)
    }

    var now: Date { fixed ?? Date() }
    var advances: Bool { fixed == nil }
}
