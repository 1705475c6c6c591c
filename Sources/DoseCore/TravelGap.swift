import Foundation

/// A medicine whose time between two doses a change of zone moved by more than its window (DESIGN §3
/// "Where the person is"): flying west the next dose comes later than usual (Seoul → New York: 38 h
/// after the last instead of 24), flying east sooner. The person chooses: take it at the usual
/// interval (the instant `keep`), or keep the medicine on the old zone's clock.
public struct TravelGap: Sendable, Equatable {
    public var medicationID: Int64
    public var medication: String
    /// The change, and the zone the person was in before it.
    public var changeAt: Date
    public var was: String
    /// The medicine's last slot before the change and its first one from it on.
    public var last: Date
    public var next: SlotKey
    public var nextAt: Date
    /// The slot's tolerance window (seconds): a gap that moved less is no news.
    public var window: Int
    /// When the next dose would come at the usual interval (the next slot on the old zone's clock).
    public var keep: Date

    /// Seconds from the last dose to the next one, as the schedule now has it.
    public var gap: Int { Int(nextAt.timeIntervalSince(last)) }
    /// Seconds from the last dose to the next one on the old zone's clock.
    public var usual: Int { Int(keep.timeIntervalSince(last)) }

    /// How far around a change slots are looked for (days): a weekly medicine's last dose may be a week before it.
    static let reach = 8

    /// The gaps `change` (one of `zone`'s changes) opens in the schedules of `medications`: for each
    /// medicine with a slot before the change and one after it, whose interval moved by more than
    /// its window. In medicine name order.
    public static func find(medications: [Medication], zone: Zone, change: ZoneChange) -> [TravelGap] {
        let c = change.at
        // The log as it was before the change: the usual interval is the one on that clock.
        let before = Zone(zone.base, name: zone.baseName, changes: zone.changes.filter { $0.at < c })
        let around = before.date(of: c)
        var out: [TravelGap] = []
        for m in medications.sorted(by: { ($0.name, $0.id) < ($1.name, $1.id) }) {
            var last: Date?
            var next: (key: SlotKey, at: Date, window: Int)?
            var keep: Date?
            for d in (-reach...reach).map({ around.adding(days: $0) }) {
                // A version on a zone of its own (`--keep-zone`) keeps its interval wherever the person is.
                guard let s = m.schedule(on: d), s.keepZone == nil, !s.recurrence.isAsNeeded, s.occurs(on: d) else { continue }
                for t in s.times {
                    let old = before.instant(d, t)
                    if old < c {
                        // Lived before the change: it stays where it was (the placement rule).
                        if last.map({ old > $0 }) ?? true { last = old }
                        continue
                    }
                    let now = zone.instant(d, t)
                    if next.map({ now < $0.at }) ?? true { next = (SlotKey(medicationID: m.id, date: d, time: t), now, s.window) }
                    if keep.map({ old < $0 }) ?? true { keep = old }
                }
            }
            guard let last, let next, let keep else { continue }
            let moved = abs(next.at.timeIntervalSince(last) - keep.timeIntervalSince(last))
            guard moved > Double(next.window) else { continue }
            out.append(TravelGap(medicationID: m.id, medication: m.name, changeAt: c, was: zone.name(at: c.addingTimeInterval(-1)),
                                 last: last, next: next.key, nextAt: next.at, window: next.window, keep: keep))
        }
        return out
    }

    /// Whether the message stands at `t`: from the change until the next dose is resolved (`resolvedAt`,
    /// its counting event's instant) or its window has passed (the late and missed rules take over).
    public func stands(at t: Date, resolvedAt: Date?) -> Bool {
        guard t >= changeAt, t < nextAt.addingTimeInterval(Double(window)) else { return false }
        return resolvedAt.map { $0 > t } ?? true
    }

    /// The message: the gap, and both choices (take it at the usual interval, or keep the old zone's clock).
    public func message(zone: Zone) -> Message {
        let hours = { (seconds: Int) in Int((Double(seconds) / 3600).rounded()) }
        // A day named when it is not the slot's own (flying east, the usual interval ends the day after).
        let keepDay = zone.date(of: keep)
        let time = (keepDay == next.date ? "" : String(keepDay.description.dropFirst(5)) + " ") + zone.local(keep).clock
        let slot = keepDay == next.date ? next.time.description : "'\(next.date) \(next.time)'"
        // The usual interval ends on a day before the slot's: a dose of a day to come cannot be taken
        // then (DESIGN §2 `--slot`), so the only choice offered is the old zone's time.
        let id = keepDay < next.date ? MessageID.travelGapLater : MessageID.travelGap
        return Message(id, .warning, [
            "name": .text(medication), "gap": .number(hours(gap)), "usual": .number(hours(usual)),
            "time": .text(time), "slot": .text(slot), "was": .text(was), "next": .text(zone.local(nextAt).clock),
        ])
    }
}
