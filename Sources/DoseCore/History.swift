/// What the past contributes to today's snapshots, read from per-day summaries so its
/// cost does not grow with the length of history.
public struct History: Sendable {
    /// Summaries of the 29 days before today (ascending; missing days count as empty).
    public var recent: [DaySummary]
    /// The summary of yesterday (carries the streak through yesterday), if any.
    public var yesterday: DaySummary? { recent.last.flatMap { $0.date == today.adding(days: -1) ? $0 : nil } }
    public var today: LocalDate

    public init(today: LocalDate, recent: [DaySummary]) {
        self.today = today
        self.recent = recent.filter { $0.date < today && $0.date >= today.adding(days: -29) }.sorted { $0.date < $1.date }
    }

    /// The streak through yesterday, and the best streak before today.
    public var streakThroughYesterday: Int { yesterday?.streak ?? 0 }
    public var bestBeforeToday: Int { recent.last?.best ?? 0 }

    /// The summary of the day before yesterday, if any (the streak a pending yesterday leaves as it was).
    public var dayBeforeYesterday: DaySummary? {
        recent.last { $0.date == today.adding(days: -2) }
    }

    /// Summaries of the `n` days before today.
    public func last(_ n: Int) -> [DaySummary] {
        let from = today.adding(days: -n)
        return recent.filter { $0.date >= from }
    }

    /// Days that still need a summary: from the day after `last` (or `firstDay`) through yesterday.
    public static func pendingDays(lastSummarised: LocalDate?, firstDay: LocalDate?, today: LocalDate) -> ClosedRange<LocalDate>? {
        let yesterday = today.adding(days: -1)
        guard let start = lastSummarised.map({ $0.adding(days: 1) }) ?? firstDay, start <= yesterday else { return nil }
        return start...yesterday
    }

    /// The summaries of the finished days `range` from their events (each event on its slot's day,
    /// an extra dose on the day it was taken), each chained onto the one before, starting after `previous`.
    public static func summaries(of range: ClosedRange<LocalDate>, medications: [Medication], events: [DoseEvent],
                                 zone: Zone, after previous: DaySummary?) -> [DaySummary] {
        var byDay: [LocalDate: [DoseEvent]] = [:]
        for e in events { byDay[e.slot?.date ?? zone.date(of: e.at), default: []].append(e) }
        // In name order once, not ranked again for every day (a sort of 50 names, 7,300 times for 20 years).
        let byName = medications.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        var previous = previous
        var out: [DaySummary] = []
        var d = range.lowerBound
        while d <= range.upperBound {
            let s = DayPlan(date: d, medications: byName, events: byDay[d] ?? [], zone: zone, byName: true, carry: false).summary(after: previous)
            out.append(s)
            previous = s
            d = d.adding(days: 1)
        }
        return out
    }
}
