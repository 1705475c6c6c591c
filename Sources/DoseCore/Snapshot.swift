import Foundation

/// Everything a bar or widget shows at one instant (schema 1, DESIGN §4).
public struct Snapshot: Hashable, Sendable {
    public static let schema = 1

    public struct Counts: Hashable, Sendable {
        /// Over today's slots.
        public var total = 0, taken = 0, skipped = 0, due = 0, late = 0, missed = 0, upcoming = 0
        /// Earlier days' slots still open, listed before today's (DESIGN §4).
        public var carried = 0
        public init() {}
    }

    public struct Dose: Hashable, Sendable {
        public var medication: String
        public var medicationID: Int64
        public var dose: String?
        public var group: String?
        /// The local date the slot belongs to (the date of its scheduled time): yesterday for a carried slot.
        public var day: LocalDate
        public var scheduled: LocalInstant
        public var status: SlotStatus
        public var takenAt: LocalInstant?
        /// False when the take's time is not known (an import's "confirmed, time unknown"): `takenAt` is then the slot's time.
        public var timeKnown: Bool
        public var lateMinutes: Int?
        public init(medication: String, medicationID: Int64, dose: String?, group: String?, day: LocalDate,
                    scheduled: LocalInstant, status: SlotStatus, takenAt: LocalInstant?, timeKnown: Bool = true, lateMinutes: Int?) {
            self.medication = medication; self.medicationID = medicationID; self.dose = dose; self.group = group
            self.day = day; self.scheduled = scheduled; self.status = status; self.takenAt = takenAt
            self.timeKnown = timeKnown; self.lateMinutes = lateMinutes
        }
    }

    public struct AsNeeded: Hashable, Sendable {
        public init(medication: String, takenToday: Int, maxPerDay: Int?, nextAllowed: LocalInstant?, text: String) {
            self.medication = medication; self.takenToday = takenToday; self.maxPerDay = maxPerDay; self.nextAllowed = nextAllowed; self.text = text
        }
        public var medication: String
        public var takenToday: Int
        public var maxPerDay: Int?
        /// When the next dose is allowed, if not now (the day's end: none left today).
        public var nextAllowed: LocalInstant?
        /// The line the bars show: `Ibuprofen (as needed): 1/3 today · next from 15:30`.
        public var text: String
    }

    public struct Next: Hashable, Sendable {
        public init(medication: String, scheduled: LocalInstant) { self.medication = medication; self.scheduled = scheduled }
        /// Name(s) of what is next; several medicines at the same time are joined with ", ".
        public var medication: String
        public var scheduled: LocalInstant
    }

    public struct Streak: Hashable, Sendable {
        public init(current: Int, best: Int, today: Today) { self.current = current; self.best = best; self.today = today }
        public enum Today: String, Sendable { case done, pending, broken, none }
        public var current: Int
        public var best: Int
        public var today: Today
    }

    public struct Adherence: Hashable, Sendable {
        public init(days7: Int?, days30: Int?, onTime: Int?) { self.days7 = days7; self.days30 = days30; self.onTime = onTime }
        public var days7: Int?
        public var days30: Int?
        public var onTime: Int?
    }

    public struct Stock: Hashable, Sendable {
        public init(medication: String, remaining: Amount, daysLeft: Int?, low: Bool) { self.medication = medication; self.remaining = remaining; self.daysLeft = daysLeft; self.low = low }
        public var medication: String
        public var remaining: Amount
        public var daysLeft: Int?
        public var low: Bool
    }

    public struct Cycle: Hashable, Sendable {
        public init(medication: String, phase: CyclePosition.Phase, day: Int, length: Int, next: LocalDate?, text: String) {
            self.medication = medication; self.phase = phase; self.day = day; self.length = length; self.next = next; self.text = text
        }
        public var medication: String
        public var phase: CyclePosition.Phase
        public var day: Int
        public var length: Int
        /// The first day of the next phase; nil when the course ends first.
        public var next: LocalDate?
        /// The line the bars show: `Yaz: day 13 of 21, rest from Thu 11 Dec`.
        public var text: String
    }

    /// One day of the 7-day strip: its state in history (DESIGN §3), `pending` for today until it is complete.
    public struct WeekDay: Hashable, Sendable {
        public init(day: LocalDate, state: HistoryState) { self.day = day; self.state = state }
        public var day: LocalDate
        public var state: HistoryState
    }

    public var at: LocalInstant
    public var validUntil: LocalInstant
    public var day: LocalDate
    public var timezone: String
    public var state: DayState
    public var counts: Counts
    /// Integer percent of today's slots resolved (taken or skipped); 0 when there are none.
    public var progress: Int
    public var doses: [Dose]
    public var asNeeded: [AsNeeded]
    public var next: Next?
    public var streak: Streak
    public var adherence: Adherence
    public var stock: [Stock]
    public var cycle: [Cycle]
    /// The 6 days before today, then today, oldest first.
    public var week: [WeekDay]
    public var message: RenderedMessage
    public var messages: [RenderedMessage]
    /// One line for a bar, e.g. `💊 2/4 · Magnesium 21:00`.
    public var text: String
    /// Several lines: today's doses and every message.
    public var tooltip: String

    public init(at: LocalInstant,
                validUntil: LocalInstant,
                day: LocalDate,
                timezone: String,
                state: DayState,
                counts: Counts,
                progress: Int,
                doses: [Dose],
                asNeeded: [AsNeeded],
                next: Next?,
                streak: Streak,
                adherence: Adherence,
                stock: [Stock],
                cycle: [Cycle],
                week: [WeekDay],
                message: RenderedMessage,
                messages: [RenderedMessage],
                text: String,
                tooltip: String) {
        self.at = at
        self.validUntil = validUntil
        self.day = day
        self.timezone = timezone
        self.state = state
        self.counts = counts
        self.progress = progress
        self.doses = doses
        self.asNeeded = asNeeded
        self.next = next
        self.streak = streak
        self.adherence = adherence
        self.stock = stock
        self.cycle = cycle
        self.week = week
        self.message = message
        self.messages = messages
        self.text = text
        self.tooltip = tooltip
    }
}
