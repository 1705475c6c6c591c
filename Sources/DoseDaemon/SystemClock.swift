import DoseApp
import DoseCore
import Foundation

/// The daemon's clock: the system's, or the instant `DOSEBAR_NOW` names (then it never advances).
final class SystemClock: DaemonClock {
    private let fixed: Date?

    init(environment: [String: String]) throws {
        fixed = environment["DOSEBAR_NOW"].flatMap { $0.isEmpty ? nil : $0 } == nil ? nil : try AppContext.clock(environment)
    }

    var now: Date { fixed ?? Date() }
    var advances: Bool { fixed == nil }
}
