/// The outcome of one finished local day over all medicines: what streaks and
/// adherence are built from, so their cost does not grow with history.
public struct DaySummary: Hashable, Sendable {
    public var date: LocalDate
    /// Scheduled slots that day.
    public var total: Int
    /// Slots taken (any `taken*`).
    public var taken: Int
    /// Slots taken within the window (`taken`).
    public var onTime: Int
    public var skipped: Int
    public var missed: Int
    /// Length of the streak ending this day (neutral days carry the previous value).
    public var streak: Int
    /// Longest streak through this day.
    public var best: Int
    /// Slots taken late or missed that day, as `medicationID@HH:MM` (for the pattern rule).
    public var troubled: [String]

    /// Counts are clamped to 0…``countBound``: a summary is read back from the database's cache, and
    /// a row out of range there must not overflow the sums of adherence and streaks.
    public init(date: LocalDate, total: Int, taken: Int, onTime: Int, skipped: Int, missed: Int,
                streak: Int = 0, best: Int = 0, troubled: [String] = []) {
        func c(_ n: Int) -> Int { min(max(n, 0), DaySummary.countBound) }
        self.date = date; self.total = c(total); self.taken = c(taken); self.onTime = c(onTime)
        self.skipped = c(skipped); self.missed = c(missed); self.streak = c(streak); self.best = c(best)
        self.troubled = troubled
    }

    /// The largest count a summary holds (far beyond any real day or streak).
    public static let countBound = 1_000_000_000

    /// Every slot taken or skipped and at least one taken.
    public var isComplete: Bool { total > 0 && missed == 0 && taken > 0 && taken.saturatingAdding(skipped) == total }
    /// Neither breaks nor extends a streak: no slots, or all skipped.
    public var isNeutral: Bool { total == 0 || (skipped == total) }
    /// Breaks a streak.
    public var isBroken: Bool { missed > 0 }

    /// Sets ``streak`` and ``best`` from this day's counts and the day summarised before it: a
    /// complete day extends the streak of the day before (when it is the day before), a broken
    /// one ends it, any other day carries it.
    public mutating func chain(after previous: DaySummary?) {
        let carried = previous.map { $0.date.adding(days: 1) == date ? $0 : nil } ?? nil
        let before = carried?.streak ?? 0
        if isBroken { streak = 0 } else if isComplete { streak = before.saturatingAdding(1) } else { streak = before }
        best = max(previous?.best ?? 0, streak)
    }
}
