import Foundation

/// Identifies one scheduled dose: a medicine on a local date at a nominal wall-clock time.
public struct SlotKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var medicationID: Int64
    public var date: LocalDate
    public var time: LocalTime

    public init(medicationID: Int64, date: LocalDate, time: LocalTime) {
        self.medicationID = medicationID; self.date = date; self.time = time
    }

    public static func < (a: SlotKey, b: SlotKey) -> Bool {
        (a.date, a.time.minuteOfDay, a.medicationID) < (b.date, b.time.minuteOfDay, b.medicationID)
    }

    /// `YYYY-MM-DDTHH:MM`, the form stored in the database.
    public var description: String { "\(date)T\(time)" }
}

extension SlotKey {
    /// A medicine's time of day, the same on every day: what the day summaries list as taken late
    /// or missed, to suggest moving a time that keeps going wrong. Written `medicationID@HH:MM`.
    public struct Daily: Hashable, Sendable, CustomStringConvertible {
        public var medicationID: Int64
        public var time: LocalTime

        /// `12@08:00`, the form stored in `day_summary.troubled`.
        public var description: String { "\(medicationID)@\(time)" }
    }

    /// This slot's time of day, whatever the date.
    public var daily: Daily { Daily(medicationID: medicationID, time: time) }
}
