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
}
