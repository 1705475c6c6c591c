@testable import DoseCore
import DoseExport
import Foundation

/// The situations a bar must show, in two time zones and two languages. Each snapshot is computed by
/// the product's own `SnapshotBuilder` (through `TimelineProvider`, as `dosebar export` does) from
/// medicines, events and the summaries of past days, so statuses, counts, messages and their
/// severities, the bar text and the tooltip are what dosebar writes — they cannot drift from it.
enum Fixtures {
    static let newYorkEDT = -4 * 3600
    static let seoul = 9 * 3600

    /// `HH:MM` on `day` at `offset`, as an instant.
    static func at(_ day: String, _ clock: String, _ offset: Int) -> LocalInstant {
        let date = LocalDate(day)!, time = LocalTime(clock)!
        let seconds = date.dayNumber * 86400 + time.minuteOfDay * 60 - offset
        return LocalInstant(date: Date(timeIntervalSince1970: Double(seconds)), offset: offset)
    }

    static func med(_ id: Int64, _ name: String, _ recurrence: Recurrence = .daily, at times: [String] = [],
                    from: String, dose: String? = nil, group: String? = nil, stock: Amount? = nil) -> Medication {
        Medication(id: id, name: name, dose: dose, group: group, stock: stock, versions: [ScheduleVersion(
            effective: LocalDate(from)!,
            schedule: Schedule(recurrence: recurrence, times: times.map { LocalTime($0)! }, start: LocalDate(from)!))])
    }

    /// A take (or skip) of medicine `m`'s `slot` on `day` (nil: an as-needed dose) at `clock`, `offset`.
    static func event(_ id: Int64, _ m: Int64, _ day: String, _ slot: String?, at clock: String, _ offset: Int,
                      _ kind: DoseEvent.Kind = .taken) -> DoseEvent {
        let t = at(day, clock, offset).date
        return DoseEvent(id: id, medicationID: m, kind: kind,
                         slot: slot.map { SlotKey(medicationID: m, date: LocalDate(day)!, time: LocalTime($0)!) },
                         at: t, loggedAt: t)
    }

    /// Summaries of the finished days before `day`, oldest first, one character each: `c` complete
    /// (`slots` slots, all taken on time), `l` complete with the slot `late` (`medicationID@HH:MM`)
    /// taken late, `m` the slot `missed` missed, `r` nothing scheduled (a rest day). Streak and best
    /// follow DESIGN §3 from `streak`/`best` carried in from earlier days.
    static func past(_ pattern: String, before day: String, slots: Int, late: String = "", missed: String = "",
                     streak: Int = 0, best: Int = 0) -> [DaySummary] {
        var current = streak, longest = best
        let first = LocalDate(day)!.adding(days: -pattern.count)
        return pattern.enumerated().map { i, c in
            let date = first.adding(days: i)
            switch c {
            case "c", "l":
                current += 1; longest = max(longest, current)
                return DaySummary(date: date, total: slots, taken: slots, onTime: c == "l" ? slots - 1 : slots, skipped: 0,
                                  missed: 0, streak: current, best: longest, troubled: c == "l" ? [late] : [])
            case "m":
                current = 0
                return DaySummary(date: date, total: slots, taken: slots - 1, onTime: slots - 1, skipped: 0, missed: 1,
                                  streak: 0, best: longest, troubled: [missed])
            default:
                return DaySummary(date: date, total: 0, taken: 0, onTime: 0, skipped: 0, missed: 0, streak: current, best: longest)
            }
        }
    }

    /// The snapshot dosebar shows at `clock` on `day` in `tz`, valid until the timeline's next entry.
    static func snapshot(_ day: String, _ tz: String, at clock: String, _ offset: Int, medications: [Medication],
                         events: [DoseEvent] = [], history: [DaySummary] = [], catalog: Catalog = .english) -> Snapshot {
        let plan = DayPlan(date: LocalDate(day)!, medications: medications, events: events, zone: Zone(TimeZone(identifier: tz)!))
        let builder = SnapshotBuilder(plan: plan, history: History(today: plan.date, recent: history),
                                      medications: medications, catalog: catalog)
        let snapshot = TimelineProvider(builder: builder).snapshot(at: at(day, clock, offset).date)
        precondition(snapshot.at.offset == offset, "\(day) \(clock) is not at offset \(offset) in \(tz)")
        return snapshot
    }

    /// New York, the day after the spring-forward change (-04:00), 13:30: Iron 2 h 30 min late, Fish
    /// oil due, Vitamin D taken, Metformin taken late, Magnesium upcoming; Metformin low on stock; an
    /// as-needed Ibuprofen taken at 09:10 (next from 15:10); a streak of 4, best 12; Iron late on 3 of
    /// the last 6 days too (the pattern rule's suggestion). Yesterday's doses were all taken, Iron
    /// late, as its summary says (a daily slot stays open until 2 h before the next day's, DESIGN §3:
    /// without these takes every one of them would be carried into today, late).
    static var newYork: Snapshot {
        let day = "2026-03-09", yesterday = "2026-03-08", o = newYorkEDT
        return snapshot(day, "America/New_York", at: "13:30", o, medications: [
            med(1, "Vitamin D", at: ["08:00"], from: "2026-01-01", dose: "1000 IU", group: "morning", stock: 80),
            med(2, "Metformin", at: ["08:00"], from: "2026-01-01", dose: "500 mg", group: "morning", stock: 6),
            med(3, "Iron", at: ["11:00"], from: "2026-01-01"),
            med(4, "Fish oil", at: ["13:00"], from: "2026-01-01", dose: "2 caps"),
            med(5, "Magnesium", at: ["21:00"], from: "2026-01-01", group: "evening"),
            med(6, "Ibuprofen", .asNeeded(maxPerDay: 3, minInterval: 6 * 3600), from: "2026-01-01"),
        ], events: [
            event(1, 1, day, "08:00", at: "08:05", o),
            event(2, 2, day, "08:00", at: "10:45", o),
            event(3, 6, day, nil, at: "09:10", o),
            event(4, 1, yesterday, "08:00", at: "08:02", o),
            event(5, 2, yesterday, "08:00", at: "08:03", o),
            event(6, 3, yesterday, "11:00", at: "13:40", o),
            event(7, 4, yesterday, "13:00", at: "13:40", o),
            event(8, 5, yesterday, "21:00", at: "21:15", o),
        ], history: past("cclcccclcccc" + "m" + "ccclcccclcc" + "m" + "llcl", before: day, slots: 5,
                         late: "3@11:00", missed: "2@08:00"))
    }

    /// Seoul (+09:00), 21:00, in Korean: every dose resolved (one taken early, one skipped), day 5 of
    /// a 21/7 pill cycle, a 7-day streak (a milestone), nothing next; an as-needed medicine not taken, with stock
    /// (no days left figure: nothing is scheduled). Yesterday complete, 오메가3 late, as its summary says.
    static var seoulDone: Snapshot {
        let day = "2026-11-01", yesterday = "2026-10-31", o = seoul
        return snapshot(day, "Asia/Seoul", at: "21:00", o, medications: [
            med(10, "오메가3", at: ["08:00"], from: "2026-10-01", dose: "1정", group: "아침"),
            med(11, "피임약", .cycle(active: 21, rest: 7), at: ["09:00"], from: "2026-10-28", stock: 14),
            med(12, "유산균", at: ["20:00"], from: "2026-10-01"),
            med(13, "타이레놀", .asNeeded(maxPerDay: nil, minInterval: nil), from: "2026-10-01", stock: 20),
        ], events: [
            event(1, 10, day, "08:00", at: "08:10", o),
            event(2, 11, day, "09:00", at: "06:30", o),
            event(3, 12, day, "20:00", at: "20:05", o, .skipped),
            event(4, 10, yesterday, "08:00", at: "10:30", o),
            event(5, 11, yesterday, "09:00", at: "09:00", o),
            event(6, 12, yesterday, "20:00", at: "20:10", o),
        ], history: past("cclccc", before: day, slots: 2, late: "10@08:00"), catalog: .korean)
    }

    /// The name every renderer must neutralise: Pango markup, tmux and polybar tags, a conky variable.
    static let hostileName = "<b>&\"x'</b> #{bad} %{F#f00} $HOME"

    /// New York (-04:00), 09:15: the 09:00 dose of a medicine with a hostile name, dose and group is
    /// due; its 21:00 dose is next. Yesterday's two doses were taken (else last night's 21:00 would
    /// have closed unresolved at 07:00, and the bar would say so).
    static var hostile: Snapshot {
        snapshot("2026-03-09", "America/New_York", at: "09:15", newYorkEDT, medications: [
            med(66, hostileName, at: ["09:00", "21:00"], from: "2026-03-01", dose: "50% {x} 100%", group: "a/b"),
        ], events: [
            event(1, 66, "2026-03-08", "09:00", at: "09:05", newYorkEDT),
            event(2, 66, "2026-03-08", "21:00", at: "21:05", newYorkEDT),
        ])
    }

    /// New York (-04:00), 07:00 the morning after: last night's 22:00 Yaz not taken, so still open
    /// (carried, late 9 h; it closes at C = max(22:00 + 2 h, min(next 22:00 − 2 h, 22:00 + 24 h)) =
    /// 20:00 tonight, DESIGN §3) and listed first; last night's 23:00 Magnesium taken at 00:20
    /// (resolved, so no longer listed: it is history, counted in yesterday's figures); Vitamin D
    /// due at 08:00 is upcoming. Yesterday is `pending` in the week strip and the streak of 5
    /// stands (a pending day is neutral). Yesterday's summary is the product's own, from its events.
    static var carried: Snapshot {
        let day = "2026-03-10", yesterday = "2026-03-09", o = newYorkEDT, tz = "America/New_York"
        let medications = [
            med(1, "Vitamin D", at: ["08:00"], from: "2026-01-01", dose: "1000 IU"),
            med(5, "Magnesium", at: ["23:00"], from: "2026-01-01", group: "evening"),
            med(20, "Yaz", at: ["22:00"], from: "2026-01-01", dose: "3 mg"),
        ]
        var magnesium = event(2, 5, yesterday, "23:00", at: "00:20", o)
        magnesium.at = at(day, "00:20", o).date
        magnesium.loggedAt = magnesium.at
        let events = [event(1, 1, yesterday, "08:00", at: "08:05", o), magnesium]
        let before = past("ccccc", before: yesterday, slots: 3, streak: 0, best: 9)
        let last = History.summaries(of: LocalDate(yesterday)!...LocalDate(yesterday)!, medications: medications,
                                     events: events, zone: Zone(TimeZone(identifier: tz)!), after: before.last)
        return snapshot(day, tz, at: "07:00", o, medications: medications, events: events, history: before + last)
    }

    /// No medicines at all (Seoul, midnight).
    static var empty: Snapshot { snapshot("2026-11-01", "Asia/Seoul", at: "00:00", seoul, medications: []) }

    /// A rest day of a 21/7 cycle (New York, winter offset -05:00): rest day 3 of 7, streak 21, best 30.
    static var rest: Snapshot {
        let day = "2026-01-15"
        return snapshot(day, "America/New_York", at: "10:00", -5 * 3600, medications: [
            med(20, "Yaz", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2025-12-23"),
        ], history: past("rrrrrr" + String(repeating: "c", count: 21) + "rr", before: day, slots: 1, best: 30))
    }

    /// Every scenario by the folder name of its golden files.
    static var scenarios: [(name: String, snapshot: Snapshot)] {
        [("newyork", newYork), ("seoul", seoulDone), ("hostile", hostile), ("empty", empty), ("rest", rest),
         ("carried", carried)]
    }

    /// `snapshot` moved to `at`: a late dose's `late_minutes` follow (timeline.json derives them
    /// from the entry's instant, and refuses an entry whose doses say otherwise).
    static func moved(_ snapshot: Snapshot, to at: LocalInstant) -> Snapshot {
        var s = snapshot
        s.at = at
        for i in s.doses.indices where s.doses[i].status == .late {
            s.doses[i].lateMinutes = Int((at.date.timeIntervalSince(s.doses[i].scheduled.date) / 60).rounded(.down))
        }
        return s
    }

    /// A timeline for the day of `entries`, generated at `generatedAt` (default: the first entry's instant).
    static func timeline(_ entries: [Snapshot], generatedAt: LocalInstant? = nil) -> Timeline {
        let first = entries[0]
        let midnight = LocalInstant(
            date: Date(timeIntervalSince1970: Double((first.day.dayNumber + 1) * 86400 - first.at.offset)),
            offset: first.at.offset)
        return Timeline(generatedAt: generatedAt ?? first.at, day: first.day, timezone: first.timezone,
                        reloadAt: midnight, entries: entries)
    }

    /// Options exercising every placeholder, an unknown one, ASCII icons and custom colours.
    static let customOptions = RenderOptions(
        icons: .ascii,
        colors: [.late: "#FF0000", .due: "#ffaa00", .done: "", .upcoming: "#123456", .missed: "not-a-colour"],
        templates: [
            "text": "{icon} {taken}/{total} {progress}% {state} next={next}@{next_time} streak={streak} {message} {nope} {",
            "waybar": "<b>{icon}</b> {taken}/{total} {next}",
            "polybar": "%{A1:dosebar take:}{icon} {taken}/{total} {next} {next_time}%{A}",
            "tmux": "{icon} {taken}/{total} #{session_name} {next}",
            "conky": "${font DejaVu Sans:bold}{icon} {taken}/{total}${font} {message}",
            "i3blocks": "{icon} {text}",
            "i3blocks_short": "{taken}/{total}",
        ])
}
