import Foundation

/// Parses user-written durations and lists: `2h`, `90m`, `1h30m` (a unit is required), times `08:00,21:00`,
/// schedules `3d`/`2w`/`1m`, cycles `21/7`. Every failure is a `DosebarError.usage` naming the input, in
/// the catalog's English (`usage.*`; the entry point shows it in the user's language).
public enum InputParser {
    private static func refusal(_ key: String, _ args: [String: String] = [:]) -> DosebarError {
        .usage(Catalog.english.text(key, args))
    }

    /// Seconds in a duration like `2h`, `90m`, `1h30m`, `1d`. A bare number is refused (is `6` six
    /// minutes or six hours? a minimum interval read the wrong way is a wrong dose), but for `0`.
    public static func duration(_ text: String, flag: String = "--window") throws -> Int {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty, t.count <= 16 else { throw refusal("usage.duration", ["flag": flag, "value": text]) }
        if let n = Int(t) {
            guard n != 0 else { return 0 }
            throw refusal("usage.duration_unit", ["flag": flag, "value": text, "n": String(n)])
        }
        var total = 0, number = "", sawUnit = false
        for ch in t {
            if ch.isASCII, ch.isNumber { number.append(ch); continue }
            guard let n = Int(number) else { throw refusal("usage.duration", ["flag": flag, "value": text]) }
            guard n <= 7 * 86400 else { throw refusal("usage.duration_range", ["flag": flag, "value": text]) }
            switch ch {
            case "d": total += n * 86400
            case "h": total += n * 3600
            case "m": total += n * 60
            case "s": total += n
            default: throw refusal("usage.duration", ["flag": flag, "value": text])
            }
            number = ""; sawUnit = true
            if total > 7 * 86400 { throw refusal("usage.duration_range", ["flag": flag, "value": text]) }
        }
        guard number.isEmpty, sawUnit else { throw refusal("usage.duration", ["flag": flag, "value": text]) }
        return total
    }

    /// A repeat interval in minutes (`--repeat`, `[notify] repeat`): `off` is 0 (never); otherwise a
    /// duration of whole minutes within ``FieldRules/repeatRange``. `0m` is refused: off is said so.
    public static func repeatMinutes(_ text: String, flag: String = "--repeat") throws -> Int {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "off" { return 0 }
        let seconds = try duration(text, flag: flag)
        guard seconds % 60 == 0, FieldRules.repeatRange.contains(seconds / 60) else {
            throw refusal("usage.repeat", ["flag": flag, "value": text])
        }
        return seconds / 60
    }

    /// `08:00,21:00` → sorted unique times.
    public static func times(_ text: String) throws -> [LocalTime] {
        Array(Set(try typedTimes(text))).sorted()
    }

    /// ``times(_:)`` in the order typed, repeats kept: what `--per-dose 0.5,1` pairs with.
    public static func typedTimes(_ text: String) throws -> [LocalTime] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, parts.count <= 48 else { throw refusal("usage.times_count") }
        var result: [LocalTime] = []
        for p in parts {
            guard let t = LocalTime(p) else {
                throw refusal("usage.times", ["value": p])
            }
            result.append(t)
        }
        return result
    }

    /// `--slot [DATE ]HH:MM` (DESIGN §2): a dose's day (nil: the caller's default) and nominal time.
    /// The date may be `YYYY-MM-DD`, `today` or `yesterday`, separated by a space or `T`.
    public static func slot(_ text: String, today: LocalDate) throws -> (date: LocalDate?, time: LocalTime) {
        let t = text.trimmingCharacters(in: .whitespaces)
        let parts = t.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        func refuse() -> DosebarError { refusal("usage.slot", ["value": text, "example": today.adding(days: -1).description]) }
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
            guard let d = LocalDate(text) else { throw refusal("usage.date", ["flag": flag, "value": text]) }
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
                throw refusal("usage.weekday", ["value": String(p)])
            }
            days.insert(d)
        }
        guard !days.isEmpty else { throw refusal("usage.weekday_none") }
        return days
    }

    /// `3d`, `2w`, `1m` → the every-N recurrence.
    public static func every(_ text: String) throws -> Recurrence {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = t.last, let n = Int(t.dropLast()) else {
            throw refusal("usage.every", ["value": text])
        }
        guard FieldRules.everyRange.contains(n) else { throw refusal("usage.every_range", ["value": text]) }
        switch unit {
        case "d": return .everyDays(n)
        case "w": return .everyWeeks(n)
        case "m": return .everyMonths(n)
        default: throw refusal("usage.every", ["value": text])
        }
    }

    /// `21/7` → a cycle of 21 active and 7 rest days.
    public static func cycle(_ text: String) throws -> Recurrence {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let r = Int(parts[1]) else {
            throw refusal("usage.cycle", ["value": text])
        }
        guard FieldRules.cycleActiveRange.contains(a), FieldRules.cycleRestRange.contains(r) else {
            throw refusal("usage.cycle_range", ["value": text])
        }
        return .cycle(active: a, rest: r)
    }
}
