@testable import DoseCore
import DoseExport
import Foundation

/// Hand-built snapshots, one per situation a bar must show, in two time zones.
enum Fixtures {
    static let newYorkEDT = -4 * 3600
    static let seoul = 9 * 3600

    /// `HH:MM` on `day` at `offset`, as an instant.
    static func at(_ day: String, _ clock: String, _ offset: Int) -> LocalInstant {
        let date = LocalDate(day)!, time = LocalTime(clock)!
        let seconds = date.dayNumber * 86400 + time.minuteOfDay * 60 - offset
        return LocalInstant(date: Date(timeIntervalSince1970: Double(seconds)), offset: offset)
    }

    static func message(_ id: String, _ severity: Severity, _ text: String) -> RenderedMessage {
        RenderedMessage(id: id, severity: severity, text: text)
    }

    static func counts(total: Int, taken: Int = 0, skipped: Int = 0, due: Int = 0, late: Int = 0,
                       missed: Int = 0, upcoming: Int = 0) -> Snapshot.Counts {
        var c = Snapshot.Counts()
        c.total = total; c.taken = taken; c.skipped = skipped; c.due = due; c.late = late
        c.missed = missed; c.upcoming = upcoming
        return c
    }

    /// New York, the day after the spring-forward change (-04:00), 13:30: one dose late,
    /// one due, two taken (one late), one upcoming; low stock; an as-needed medicine.
    static var newYork: Snapshot {
        let day = "2026-03-09", o = newYorkEDT
        let doses = [
            Snapshot.Dose(medication: "Vitamin D", medicationID: 1, dose: "1000 IU", group: "morning",
                          scheduled: at(day, "08:00", o), status: .taken, takenAt: at(day, "08:05", o), lateMinutes: nil),
            Snapshot.Dose(medication: "Metformin", medicationID: 2, dose: "500 mg", group: "morning",
                          scheduled: at(day, "08:00", o), status: .takenLate, takenAt: at(day, "10:45", o), lateMinutes: nil),
            Snapshot.Dose(medication: "Iron", medicationID: 3, dose: nil, group: nil,
                          scheduled: at(day, "11:00", o), status: .late, takenAt: nil, lateMinutes: 150),
            Snapshot.Dose(medication: "Fish oil", medicationID: 4, dose: "2 caps", group: nil,
                          scheduled: at(day, "13:00", o), status: .due, takenAt: nil, lateMinutes: nil),
            Snapshot.Dose(medication: "Magnesium", medicationID: 5, dose: nil, group: "evening",
                          scheduled: at(day, "21:00", o), status: .upcoming, takenAt: nil, lateMinutes: nil),
        ]
        let messages = [
            message("late_2h", .warning, "Iron is 2 h 30 min late"),
            message("due_now", .info, "Fish oil is due now"),
            message("low_stock", .warning, "Metformin: 6 days left"),
        ]
        return Snapshot(
            at: at(day, "13:30", o), validUntil: at(day, "14:00", o), day: LocalDate(day)!,
            timezone: "America/New_York", state: .late,
            counts: counts(total: 5, taken: 2, due: 1, late: 1, upcoming: 1), progress: 40, doses: doses,
            asNeeded: [Snapshot.AsNeeded(medication: "Ibuprofen", takenToday: 1, maxPerDay: 3, nextAllowed: at(day, "15:10", o),
                                        text: "Ibuprofen (as needed): 1/3 today · next from 15:10")],
            next: Snapshot.Next(medication: "Magnesium", scheduled: at(day, "21:00", o)),
            streak: Snapshot.Streak(current: 4, best: 12, today: .pending),
            adherence: Snapshot.Adherence(days7: 86, days30: 91, onTime: 78),
            stock: [Snapshot.Stock(medication: "Metformin", remaining: 12, daysLeft: 6, low: true),
                    Snapshot.Stock(medication: "Vitamin D", remaining: 80, daysLeft: 80, low: false)],
            cycle: [], message: messages[0], messages: messages,
            text: "⏰ 2/5 · Iron late 2h30",
            tooltip: "08:00 Vitamin D ✓ 08:05\n08:00 Metformin ✓ 10:45 (late)\n11:00 Iron — late\n13:00 Fish oil — due\n21:00 Magnesium\n\nIron is 2 h 30 min late\nFish oil is due now\nMetformin: 6 days left")
    }

    /// Seoul (+09:00), evening: every dose done, in Korean; a pill cycle; nothing next.
    static var seoulDone: Snapshot {
        let day = "2026-11-01", o = seoul
        let doses = [
            Snapshot.Dose(medication: "오메가3", medicationID: 10, dose: "1정", group: "아침",
                          scheduled: at(day, "08:00", o), status: .taken, takenAt: at(day, "08:10", o), lateMinutes: nil),
            Snapshot.Dose(medication: "피임약", medicationID: 11, dose: nil, group: nil,
                          scheduled: at(day, "09:00", o), status: .takenEarly, takenAt: at(day, "06:30", o), lateMinutes: nil),
            Snapshot.Dose(medication: "유산균", medicationID: 12, dose: nil, group: nil,
                          scheduled: at(day, "20:00", o), status: .skipped, takenAt: nil, lateMinutes: nil),
        ]
        let done = message("all_done", .good, "오늘 복용 완료! 연속 7일째 🎉")
        return Snapshot(
            at: at(day, "21:00", o), validUntil: at(day, "22:00", o), day: LocalDate(day)!,
            timezone: "Asia/Seoul", state: .done,
            counts: counts(total: 3, taken: 2, skipped: 1), progress: 100, doses: doses,
            asNeeded: [Snapshot.AsNeeded(medication: "타이레놀", takenToday: 0, maxPerDay: nil, nextAllowed: nil,
                                        text: "타이레놀 (필요 시): 오늘 0회")],
            next: nil,
            streak: Snapshot.Streak(current: 7, best: 7, today: .done),
            adherence: Snapshot.Adherence(days7: 100, days30: nil, onTime: 67),
            stock: [Snapshot.Stock(medication: "피임약", remaining: 14, daysLeft: nil, low: false)],
            cycle: [Snapshot.Cycle(medication: "피임약", phase: .active, day: 5, length: 21)],
            message: done, messages: [done],
            text: "✅ 3/3 · 연속 7일",
            tooltip: "08:00 오메가3 ✓ 08:10\n09:00 피임약 ✓ 06:30 (일찍)\n20:00 유산균 건너뜀\n\n오늘 복용 완료! 연속 7일째 🎉")
    }

    /// The name every renderer must neutralise: Pango markup, tmux and polybar tags,
    /// a conky variable, and a line break.
    static let hostileName = "<b>&\"x'</b> #{bad} %{F#f00} $HOME"

    /// A due dose of a medicine with a hostile name (New York, -04:00).
    static var hostile: Snapshot {
        let day = "2026-03-09", o = newYorkEDT
        let doses = [
            Snapshot.Dose(medication: hostileName, medicationID: 66, dose: "50% {x} 100%", group: "a/b",
                          scheduled: at(day, "09:00", o), status: .due, takenAt: nil, lateMinutes: nil),
        ]
        let due = message("due_now", .info, "\(hostileName) is due now")
        return Snapshot(
            at: at(day, "09:15", o), validUntil: at(day, "10:00", o), day: LocalDate(day)!,
            timezone: "America/New_York", state: .due,
            counts: counts(total: 1, due: 1), progress: 0, doses: doses, asNeeded: [],
            next: Snapshot.Next(medication: hostileName, scheduled: at(day, "09:00", o)),
            streak: Snapshot.Streak(current: 0, best: 0, today: .pending),
            adherence: Snapshot.Adherence(days7: nil, days30: nil, onTime: nil),
            stock: [], cycle: [], message: due, messages: [due],
            text: "💊 0/1 · \(hostileName) 09:00\nsecond line 100%",
            tooltip: "09:00 \(hostileName) — due\n\n\(hostileName) is due now")
    }

    /// No medicines at all (Seoul).
    static var empty: Snapshot {
        let day = "2026-11-01", o = seoul
        let m = message("empty", .info, "No medicines yet: dosebar add NAME --at HH:MM")
        return Snapshot(
            at: at(day, "00:00", o), validUntil: at(day, "01:00", o), day: LocalDate(day)!,
            timezone: "Asia/Seoul", state: .empty, counts: counts(total: 0), progress: 0, doses: [], asNeeded: [],
            next: nil, streak: Snapshot.Streak(current: 0, best: 0, today: .none),
            adherence: Snapshot.Adherence(days7: nil, days30: nil, onTime: nil),
            stock: [], cycle: [], message: m, messages: [m], text: "💊 –", tooltip: m.text)
    }

    /// A rest day of a cycle (New York, winter offset -05:00).
    static var rest: Snapshot {
        let day = "2026-01-15", o = -5 * 3600
        let m = message("rest_day", .info, "Rest day 3 of 7, resumes Saturday")
        return Snapshot(
            at: at(day, "10:00", o), validUntil: at(day, "11:00", o), day: LocalDate(day)!,
            timezone: "America/New_York", state: .rest, counts: counts(total: 0), progress: 0, doses: [], asNeeded: [],
            next: nil, streak: Snapshot.Streak(current: 21, best: 30, today: .none),
            adherence: Snapshot.Adherence(days7: 100, days30: 97, onTime: 90),
            stock: [], cycle: [Snapshot.Cycle(medication: "Yaz", phase: .rest, day: 3, length: 7)],
            message: m, messages: [m], text: "🌙 rest 3/7", tooltip: m.text)
    }

    /// Every scenario by the folder name of its golden files.
    static var scenarios: [(name: String, snapshot: Snapshot)] {
        [("newyork", newYork), ("seoul", seoulDone), ("hostile", hostile), ("empty", empty), ("rest", rest)]
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
