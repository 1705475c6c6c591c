import Foundation

/// The timeline of one local day: a snapshot for every hour and every status change.
/// (Its file format, `timeline.json` schema 3, is `TimelineJSON`'s.)
public struct Timeline: Hashable, Sendable {
    public var generatedAt: LocalInstant
    public var day: LocalDate
    public var timezone: String
    /// The next local midnight: when the timeline must be recomputed.
    public var reloadAt: LocalInstant
    public var entries: [Snapshot]

    public init(generatedAt: LocalInstant, day: LocalDate, timezone: String, reloadAt: LocalInstant, entries: [Snapshot]) { self.generatedAt = generatedAt; self.day = day; self.timezone = timezone; self.reloadAt = reloadAt; self.entries = entries }

    /// The entry in force at `instant`: the last whose `at` is not after it. Complete (tooltip,
    /// every message) only for the instant the timeline was generated at.
    public func entry(at instant: Date) -> Snapshot? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].at.date <= instant { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? entries.first : entries[lo - 1]
    }
}
