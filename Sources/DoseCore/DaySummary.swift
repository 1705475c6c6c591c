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

    public init(date: LocalDate, total: Int, taken: Int, onTime: Int, skipped: Int, missed: Int,
                streak: Int = 0, best: Int = 0, troubled: [String] = []) {
        self.date = date; self.total = total; self.taken = taken; self.onTime = onTime
        self.skipped = skipped; self.missed = missed; self.streak = streak; self.best = best
        self.troubled = troubled
    }

    /// Every slot taken or skipped and at least one taken.
    public var isComplete: Bool { total > 0 && missed == 0 && taken > 0 && taken.saturatingAdding(skipped) == total }
    /// Neither breaks nor extends a streak: no slots, or all skipped.
    public var isNeutral: Bool { total == 0 || (skipped == total) }
    /// Breaks a streak.
    public var isBroken: Bool { missed > 0 }
}
