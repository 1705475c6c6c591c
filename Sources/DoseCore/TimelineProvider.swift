import Foundation

/// Builds the timeline of a day: a full snapshot at every local hour that exists that day and
/// at every instant a slot changes status, each computed as of its instant (DESIGN §4).
public struct TimelineProvider: Sendable {
    public let builder: SnapshotBuilder

    public init(builder: SnapshotBuilder) { self.builder = builder }

    /// Fewer entries than this are computed on one thread (starting one costs more than it saves).
    static let concurrentEntries = 16

    /// Entry instants: hours, slot transitions (T, T+W, T+2h, T+4h, the cut-off C) of the day's and carried slots, logged events and
    /// as-needed release times, within the day, sorted and unique.
    public func instants() -> [Date] {
        let plan = builder.plan
        var set = Set(plan.zone.hours(of: plan.date))
        // Yesterday's slots still open after midnight change too: their grades and their cut-off.
        for slot in plan.carried + plan.slots {
            for t in slot.transitions { set.insert(t) }
            if let e = slot.event { set.insert(e.at) }
        }
        for t in builder.messageInstants { set.insert(t) }
        for item in plan.asNeeded {
            for taken in item.taken {
                set.insert(taken)
                if let gap = item.minInterval { set.insert(taken.addingTimeInterval(Double(gap))) }
            }
        }
        return set.filter { $0 >= plan.dayStart && $0 < plan.dayEnd }.sorted()
    }

    /// The whole day's timeline. Only the entry in force at `generatedAt` is complete (with its
    /// tooltip and every message, for `snapshot.json` and the bars); the others carry what
    /// `timeline.json` holds of them.
    public func timeline(generatedAt: Date, workers: any Workers = SameThread()) -> Timeline {
        let plan = builder.plan
        let times = instants()
        let entry: @Sendable (Int) -> Snapshot = { [builder] i in
            let t = times[i]
            let until = i + 1 < times.count ? times[i + 1] : plan.dayEnd
            let inForce = (t <= generatedAt || i == 0) && generatedAt < until
            return builder.snapshot(at: t, validUntil: until, complete: inForce)
        }
        // With workers to spare, the entries are shared out one in turn, as later entries cost more
        // (a later half would keep one worker waiting for the other).
        let parts = times.count >= Self.concurrentEntries ? min(2, workers.width) : 1
        var entries: [Snapshot]
        if parts > 1 {
            let shares = workers.map(parts: parts) { k in stride(from: k, to: times.count, by: parts).map(entry) }
            entries = []
            entries.reserveCapacity(times.count)
            for i in times.indices { entries.append(shares[i % parts][i / parts]) }
        } else {
            entries = times.indices.map(entry)
        }
        return Timeline(generatedAt: plan.zone.local(generatedAt), day: plan.date, timezone: plan.zone.identifier,
                        reloadAt: plan.zone.local(plan.dayEnd), entries: entries)
    }

    /// The snapshot at exactly `t` (for `today --json`), valid until the next entry instant.
    public func snapshot(at t: Date) -> Snapshot {
        let until = instants().first { $0 > t } ?? builder.plan.dayEnd
        return builder.snapshot(at: t, validUntil: until)
    }
}
