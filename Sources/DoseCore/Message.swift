/// A message as data: which rule produced it, how urgent it is, and its arguments.
/// Text comes only from a `Catalog`, so tests check ids and translators edit catalogs.
public struct Message: Hashable, Sendable {
    public var id: String
    public var severity: Severity
    public var args: [String: Arg]

    /// An argument, typed so each catalog can format it in its own language.
    public enum Arg: Hashable, Sendable {
        case text(String)
        case number(Int)
        /// A duration in minutes.
        case minutes(Int)
        case weekday(Weekday)
        case list([String])
        /// Doses by medicine and wall-clock time (`Metformin 20:00, Warfarin 18:00`); none: the
        /// message's `count` of doses is all that is known (`2 doses`).
        case doses([Dose])
    }

    /// A dose named by its medicine and its scheduled wall-clock time (`HH:MM`).
    public struct Dose: Hashable, Sendable {
        public var name: String
        public var time: String
        public init(name: String, time: String) { self.name = name; self.time = time }
    }

    public init(_ id: String, _ severity: Severity, _ args: [String: Arg] = [:]) {
        self.id = id; self.severity = severity; self.args = args
    }
}

/// Rule ids, in priority order: the first that matches is the snapshot's `message`.
public enum MessageID {
    public static let empty = "empty"
    public static let late4h = "late_4h"
    public static let late2h = "late_2h"
    public static let late = "late"
    /// A slot taken on two devices, not confirmed (``DoubleDose``): outranks all but late doses.
    public static let doubleDose = "double_dose"
    public static let dueNow = "due_now"
    public static let missedYesterday = "missed_yesterday"
    /// The person changed zone (DESIGN §3 "Where the person is"): for a day from the change.
    public static let zoneChanged = "zone_changed"
    /// A medicine whose interval between doses the change moved by more than its window: both choices.
    public static let travelGap = "travel_gap"
    /// A travel gap whose usual interval ends on a day before the next dose's (it cannot be taken then).
    public static let travelGapLater = "travel_gap_later"
    public static let lowStock = "low_stock"
    public static let allDone = "all_done"
    public static let allDoneMilestone = "all_done_milestone"
    public static let restDay = "rest_day"
    public static let nextUp = "next_up"
    public static let moveSuggestion = "move_suggestion"
    public static let nothingToday = "nothing_today"

    /// Every id a catalog must translate.
    public static let all = [empty, late4h, late2h, late, doubleDose, dueNow, missedYesterday, zoneChanged, travelGap, travelGapLater, lowStock, allDone,
                             allDoneMilestone, restDay, nextUp, moveSuggestion, nothingToday]
}
