/// A calendar date with no time zone attached: the "day" a dose belongs to.
///
/// Stored as days since 1970-01-01 so arithmetic and comparison are integer
/// operations; the proleptic Gregorian calendar is computed here without Foundation.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01, within ±``dayNumberBound``.
    public let dayNumber: Int

    /// The farthest a date may lie from 1970 (about 270 million years): a day number read from a
    /// file is clamped to it, so date arithmetic (differences, seconds of a day, months) cannot overflow.
    public static let dayNumberBound = 100_000_000_000

    public init(dayNumber: Int) {
        self.dayNumber = Swift.min(Swift.max(dayNumber, -LocalDate.dayNumberBound), LocalDate.dayNumberBound)
    }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(year: year, month: month),
              (1...9999).contains(year) else { return nil }
        dayNumber = LocalDate.daysFromCivil(year, month, day)
    }

    /// Parses exactly `YYYY-MM-DD` in ASCII digits, as dosebar writes a day: nil for any other
    /// form, or a day that does not exist. Read straight from the bytes: another device's history
    /// parses a day per line, and splitting a String for each would dominate that.
    public init?(canonical text: String) {
        var parsed: (Int, Int, Int)?
        var copy = text
        copy.withUTF8 { b in
            guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D else { return }
            var y = 0, m = 0, d = 0
            for i in 0..<10 where i != 4 && i != 7 {
                let c = b[i]
                guard c >= 0x30 && c <= 0x39 else { return }
                let digit = Int(c &- 0x30)
                if i < 4 { y = y * 10 + digit } else if i < 7 { m = m * 10 + digit } else { d = d * 10 + digit }
            }
            parsed = (y, m, d)
        }
        guard let (y, m, d) = parsed else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Parses `YYYY-MM-DD` (also with a `+` sign in a part, as it always has).
    public init?(_ text: String) {
        if let day = LocalDate(canonical: text) {
            self = day
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var components: (year: Int, month: Int, day: Int) { LocalDate.civilFromDays(dayNumber) }
    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO 4).
        let iso = ((dayNumber % 7) + 7 + 3) % 7 + 1
        return Weekday(rawValue: iso)!
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber.saturatingAdding(days)) }

    /// Adds calendar months, clamping the day to the end of the target month.
    public func adding(months: Int) -> LocalDate {
        let c = components
        let limit = LocalDate.dayNumberBound / 365 * 12
        let total = Swift.min(Swift.max((c.year * 12 + (c.month - 1)).saturatingAdding(months), -limit), limit)
        let y = total / 12, m = total % 12 + 1
        let d = min(c.day, LocalDate.daysIn(year: y, month: m))
        return LocalDate(dayNumber: LocalDate.daysFromCivil(y, m, d))
    }

    public static func - (lhs: LocalDate, rhs: LocalDate) -> Int { lhs.dayNumber - rhs.dayNumber }
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// `YYYY-MM-DD`.
    public var description: String {
        let c = components
        return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

/// ISO weekday, Monday first.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    /// Three-letter lowercase English abbreviation (`mon`), used by the CLI and the database.
    public var code: String { ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1] }

    /// Accepts `mon` … `sun` and the full English names, any case.
    public init?(code: String) {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let c = code.lowercased()
        guard let i = names.firstIndex(where: { $0 == c || String($0.prefix(3)) == c }) else { return nil }
        self.init(rawValue: i + 1)
    }
}

@inline(__always)
func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
