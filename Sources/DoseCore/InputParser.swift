import Foundation

/// Parses user-written durations and lists: `2h`, `90m`, `1h30m` (a unit is required), times `08:00,21:00`,
/// schedules `3d`/`2w`/`1m`, cycles `21/7`. Every failure is a `DosebarError.usage` naming the input.
public enum InputParser {
    /// Seconds in a duration like `2h`, `90m`, `1h30m`, `1d`. A bare number is refused (is `6` six
    /// minutes or six hours? a minimum interval read the wrong way is a wrong dose), but for `0`.
    public static func duration(_ text: String, flag: String = "--window") throws -> Int {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty, t.count <= 16 else { throw DosebarError.usage("\(flag): '\(text)' is not a duration (try 2h, 90m or 1h30m)") }
        if let n = Int(t) {
            guard n != 0 else { return 0 }
            throw DosebarError.usage("\(flag): '\(text)' needs a unit: \(n)m for minutes, \(n)h for hours")
        }
        var total = 0, number = "", sawUnit = false
        for ch in t {
            if ch.isASCII, ch.isNumber { number.append(ch); continue }
            guard let n = Int(number) else { throw DosebarError.usage("\(flag): '\(text)' is not a duration (try 2h, 90m or 1h30m)") }
            guard n <= 7 * 86400 else { throw DosebarError.usage("\(flag): '\(text)' is out of range (0 to 7 days)") }
            switch ch {
            case "d": total += n * 86400
            case "h": total += n * 3600
            case "m": total += n * 60
            case "s": total += n
            default: throw DosebarError.usage("\(flag): '\(text)' is not a duration (try 2h, 90m or 1h30m)")
            }
            number = ""; sawUnit = true
            if total > 7 * 86400 { throw DosebarError.usage("\(flag): '\(text)' is out of range (0 to 7 days)") }
        }
        guard number.isEmpty, sawUnit else { throw DosebarError.usage("\(flag): '\(text)' is not a duration (try 2h, 90m or 1h30m)") }
        return total
    }

    /// `08:00,21:00` → sorted unique times.
    public static func times(_ text: String) throws -> [LocalTime] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, parts.count <= 48 else { throw DosebarError.usage("--at: give one to 48 times as HH:MM[,HH:MM…]") }
        var result: [LocalTime] = []
        for p in parts {
            guard let t = LocalTime(p) else {
                throw DosebarError.usage("--at: '\(p)' is not a time of day (use HH:MM, 00:00 to 23:59)")
            }
            result.append(t)
        }
        return Array(Set(result)).sorted()
    }

    /// `--slot [DATE ]HH:MM` (DESIGN §2): a dose's day (nil: the caller's default) and nominal time.
    /// The date may be `YYYY-MM-DD`, `today` or `yesterday`, separated by a space or `T`.
    public static func slot(_ text: String, today: LocalDate) throws -> (date: LocalDate?, time: LocalTime) {
        let t = text.trimmingCharacters(in: .whitespaces)
        let parts = t.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        func refuse() -> DosebarError { .usage("--slot: '\(text)' is not [YYYY-MM-DD ]HH:MM (e.g. 22:00 or \"\(today.adding(days: -1)) 22:00\")") }
        guard parts.count == 1 || parts.count == 2, let time = LocalTime(parts.last!) else { throw refuse() }
        guard parts.count == 2 else { return (nil, time) }
        guard let day = try? date(parts[0], flag: "--slot", today: today) else { throw refuse() }
        return (day, time)
    }

    /// `YYYY-MM-DD`, `today`, `tomorrow`, `yesterday`, relative to `today`.
    public static func date(_ text: String, flag: String, today: LocalDate) throws -> LocalDate {
        switch text.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default:
            guard let d = LocalDate(text) else { throw DosebarError.usage("\(flag): '\(text)' is not a date (use YYYY-MM-DD)") }
            return d
        }
    }

    /// `mon,wed,fri` → weekdays; `weekdays` is mon–fri and `weekends` sat,sun (any letter case).
    public static func weekdays(_ text: String) throws -> Set<Weekday> {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends": return [.saturday, .sunday]
        default: break
        }
        var days = Set<Weekday>()
        for p in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let d = Weekday(code: p.trimmingCharacters(in: .whitespaces)) else {
                throw DosebarError.usage("--days: '\(p)' is not a weekday (use mon,tue,wed,thu,fri,sat,sun, weekdays or weekends)")
            }
            days.insert(d)
        }
        guard !days.isEmpty else { throw DosebarError.usage("--days: name at least one weekday") }
        return days
    }

    /// `3d`, `2w`, `1m` → the every-N recurrence.
    public static func every(_ text: String) throws -> Recurrence {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = t.last, let n = Int(t.dropLast()) else {
            throw DosebarError.usage("--every: '\(text)' is not an interval (use Nd, Nw or Nm, e.g. 3d)")
        }
        guard n >= 1, n <= 366 else { throw DosebarError.usage("--every: '\(text)' must be between 1 and 366") }
        switch unit {
        case "d": return .everyDays(n)
        case "w": return .everyWeeks(n)
        case "m": return .everyMonths(n)
        default: throw DosebarError.usage("--every: '\(text)' is not an interval (use Nd, Nw or Nm, e.g. 3d)")
        }
    }

    /// `21/7` → a cycle of 21 active and 7 rest days.
    public static func cycle(_ text: String) throws -> Recurrence {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let r = Int(parts[1]) else {
            throw DosebarError.usage("--cycle: '\(text)' is not ACTIVE/REST (e.g. 21/7)")
        }
        guard a >= 1, a <= 366, r >= 0, r <= 366 else {
            throw DosebarError.usage("--cycle: '\(text)' needs 1–366 active days and 0–366 rest days")
        }
        return .cycle(active: a, rest: r)
    }
}
