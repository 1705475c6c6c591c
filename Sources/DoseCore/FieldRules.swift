import Foundation

/// The one set of rules every value written to the database passes, whoever wrote it: the CLI,
/// an import (Dosage, CSV) or another device's sync line (DESIGN §9). The store's writer calls
/// these for every medicine, schedule version, event and stock change, so nothing out of range
/// reaches a table; the CLI's own parsing keeps its usage errors (exit 64) and this is the
/// backstop (exit 65).
///
/// | Field                         | Rule                                                          |
/// |-------------------------------|---------------------------------------------------------------|
/// | name                          | non-empty after trimming, ≤ 200 characters, no control char   |
/// | note                          | ≤ 2,000 characters; tab and newline allowed, other controls not|
/// | dose, group                   | ≤ 100 characters, no control character                        |
/// | every N days / weeks / months | N in 1…999                                                    |
/// | cycle                         | active 1…366, rest 0…366                                      |
/// | weekdays                      | at least one                                                  |
/// | times                         | 1…48 distinct HH:MM (none for as-needed)                      |
/// | window                        | 0…12 h (0: the dose is due at its time exactly)               |
/// | as-needed                     | max per day 1…100, min interval 0…7 days                      |
/// | start, until, any day         | 1970-01-01…2200-12-31, until ≥ start                          |
/// | per dose                      | 0.01…1,000 units (hundredths, ``Amount``)                      |
/// | stock                         | 0…1,000,000 units (hundredths)                                |
/// | take / refill amount          | 0.01…1,000,000 units (a refill may fill an empty stock)        |
/// | low days                      | 0…365                                                         |
/// | instant                       | finite, ≥ 1970-01-01T00:00Z, ≤ now + 24 h                      |
///
/// "Characters" are Unicode scalars, so a name cannot hide a million combining marks in one
/// visible character. A control character is any of C0 (U+0000–001F, NUL included), DEL, C1
/// (U+0080–009F), the line and paragraph separators U+2028/2029 and the bidirectional marks,
/// embeddings, overrides and isolates (U+061C, U+200E/200F, U+202A–202E, U+2066–2069), which
/// would let a name print as something it is not.
///
/// Bounds follow what the CLI and the importers already accept where they had one (cycles of 366
/// days, a window of 0, refills of 1,000,000 units), so no value a person could enter before is
/// refused now; the CLI stays stricter on names (100) and notes (1,000, one line).
///
/// Amounts are exact decimals to hundredths (``Amount``); their bounds live here and nowhere else.
///
/// A value an older dosebar already stored is not refused when read: the code that computes with
/// it clamps instead (`Saturating.swift`, ``clampedStock(_:)``), and `doctor` names it
/// (``storedProblem(_:)``).
public enum FieldRules {
    /// A value a rule refused: which field and why, in one line for a person.
    public struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
        public let field: String
        public let reason: String
        public init(field: String, reason: String) { self.field = field; self.reason = reason }
        /// `name: contains a control character (U+001B)`.
        public var description: String { field + ": " + reason }
        /// The same line as the error every command prints (exit 65).
        public var asDosebarError: DosebarError { .badData(description) }
    }

    // MARK: - Bounds (one place)

    public static let nameMax = 200
    public static let noteMax = 2_000
    public static let shortTextMax = 100
    /// What a person types on the command line is held to shorter texts than what a file may hold
    /// (in Characters, as the person sees them), and to one line: a name, a note.
    public static let typedNameMax = 100
    public static let typedNoteMax = 1_000
    /// `--every N` (days, weeks or months), on the command line, in imports and in sync alike.
    public static let everyRange = 1...366
    public static let cycleActiveRange = 1...366
    public static let cycleRestRange = 0...366
    public static let timesRange = 1...48
    public static let windowRange = 0...(12 * 3600)
    public static let maxPerDayRange = 1...100
    public static let minIntervalRange = 0...(7 * 86400)
    public static let perDoseRange = Amount(hundredths: 1)...Amount(units: 1_000)
    public static let stockRange = Amount.zero...Amount(units: 1_000_000)
    public static let unitsRange = Amount(hundredths: 1)...Amount(units: 1_000_000)
    public static let lowDaysRange = 0...365
    /// Minutes between repeated reminders of an unanswered dose (`--repeat`, `[notify] repeat`): a
    /// minute to a day. 0 is stored for "never" (a medicine that opts out of the configured default).
    public static let repeatRange = 1...1440
    /// Days since 1970 of 1970-01-01 … 2200-12-31.
    public static let dayRange = 0...LocalDate.daysFromCivil(2200, 12, 31)
    /// How far ahead of this machine's clock an instant may be (another device's clock may run ahead).
    public static let futureAllowance: TimeInterval = 86400

    // MARK: - Text

    /// A medicine's name.
    public static func name(_ s: String) throws(Violation) {
        if s.isBlank { throw Violation(field: "name", reason: "is empty") }
        try text(s, field: "name", max: nameMax, allowing: [])
    }

    /// A free-text note: tab and newline are allowed, other control characters are not.
    public static func note(_ s: String?) throws(Violation) {
        guard let s else { return }
        try text(s, field: "note", max: noteMax, allowing: [0x09, 0x0A])
    }

    /// The dose text (`100 mg`).
    public static func doseText(_ s: String?) throws(Violation) {
        guard let s else { return }
        try text(s, field: "dose", max: shortTextMax, allowing: [])
    }

    /// A zone of the zone log (DESIGN §3), typed or from another device's line: a name of the tz
    /// database this system knows (`Asia/Seoul`), printable ASCII, at most 64 bytes.
    public static func isZoneName(_ name: String) -> Bool {
        name.utf8.count <= 64 && name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
            && TimeZone(identifier: name) != nil
    }

    /// A medicine's group.
    public static func group(_ s: String?) throws(Violation) {
        guard let s else { return }
        try text(s, field: "group", max: shortTextMax, allowing: [])
    }

    /// Whether `scalar` is a control character in the sense above (NUL, C0, DEL, C1, separators, bidi).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return true
        default:
            return false
        }
    }

    /// What must not reach a terminal or a bar raw, for display only (a value is refused by
    /// ``isControl(_:)``): every control character and every other format character (Cf).
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || scalar.properties.generalCategory == .format
    }

    /// The first control character of `s` (see ``isControl(_:)``), if any.
    public static func firstControl(in s: String) -> Unicode.Scalar? {
        s.unicodeScalars.first(where: isControl)
    }

    /// `s` with every control character (see ``isControl(_:)``) shown as U+FFFD, cut to ``nameMax``
    /// characters: for naming a stored value that broke a rule without printing it raw to a terminal.
    public static func printable(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars.prefix(nameMax) { out.append(isControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(out)
    }

    /// A medicine's own fields: name, texts and amounts.
    private static func details(_ m: Medication) throws(Violation) {
        try name(m.name)
        try doseText(m.dose)
        try group(m.group)
        try note(m.note)
        if let units = m.stock { try stock(units) }
        try perDose(m.perDose)
        try lowDays(m.lowDays)
        if let n = m.repeatMinutes { try repeatMinutes(n) }
    }

    /// The first rule a stored medicine breaks (its fields and its newest schedule version), for `doctor`.
    public static func storedProblem(_ m: Medication) -> Violation? {
        do {
            try details(m)
            if let newest = m.versions.last { try scheduleVersion(newest) }
            return nil
        } catch {
            return error
        }
    }

    private static func text(_ s: String, field: String, max: Int, allowing: Set<UInt32>) throws(Violation) {
        var count = 0
        for scalar in s.unicodeScalars {
            if isControl(scalar), !allowing.contains(scalar.value) {
                throw Violation(field: field, reason: "contains a control character (\(codePoint(scalar)))")
            }
            count += 1
            if count > max { throw Violation(field: field, reason: "is longer than \(max) characters") }
        }
    }

    /// `U+001B`: how a refused character is named.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }

    // MARK: - Amounts

    /// Units one dose uses.
    public static func perDose(_ units: Amount) throws(Violation) { try within(units, perDoseRange, "per dose") }

    /// Units on hand.
    public static func stock(_ units: Amount) throws(Violation) { try within(units, stockRange, "stock") }

    /// A take's or a refill's amount.
    public static func units(_ n: Amount) throws(Violation) { try within(n, unitsRange, "units") }

    /// Days of stock left at which the medicine shows as low.
    public static func lowDays(_ n: Int) throws(Violation) { try within(n, lowDaysRange, "low days") }

    /// A medicine's repeat interval in minutes: 0 (never) or within ``repeatRange``.
    public static func repeatMinutes(_ n: Int) throws(Violation) {
        if n != 0 { try within(n, repeatRange, "repeat minutes") }
    }

    /// A stock read back from the database, brought into range before arithmetic: a row an older
    /// dosebar (or another device) stored out of range must neither trap a sum nor stop a take.
    public static func clampedStock(_ units: Amount) -> Amount { units.clamped(to: stockRange) }

    /// A per-dose read back from the database, brought into range (see ``clampedStock(_:)``).
    public static func clampedPerDose(_ units: Amount) -> Amount { units.clamped(to: perDoseRange) }

    // MARK: - Time

    /// An instant (seconds since 1970): finite, not before 1970, not more than 24 h after `now`.
    public static func instant(_ unixSeconds: Double, now: Date, field: String = "at") throws(Violation) {
        guard unixSeconds.isFinite else { throw Violation(field: field, reason: "is not a number") }
        guard unixSeconds >= 0 else { throw Violation(field: field, reason: "is before 1970") }
        let limit = now.timeIntervalSince1970 + futureAllowance
        guard unixSeconds <= limit else { throw Violation(field: field, reason: "is more than 24 hours in the future") }
    }

    /// A calendar day: 1970-01-01 … 2200-12-31.
    public static func date(_ d: LocalDate, field: String = "date") throws(Violation) {
        guard dayRange.contains(d.dayNumber) else {
            throw Violation(field: field, reason: "must be between 1970-01-01 and 2200-12-31")
        }
    }

    // MARK: - Schedules

    /// A schedule's recurrence parameters, times, window and course dates.
    public static func schedule(_ s: Schedule) throws(Violation) {
        switch s.recurrence {
        case .daily:
            break
        case .weekdays(let days):
            if days.isEmpty { throw Violation(field: "weekdays", reason: "names no weekday") }
        case .everyDays(let n), .everyWeeks(let n), .everyMonths(let n):
            try within(n, everyRange, "every")
        case .cycle(let active, let rest):
            try within(active, cycleActiveRange, "cycle active days")
            try within(rest, cycleRestRange, "cycle rest days")
        case .asNeeded(let maxPerDay, let minInterval):
            if let maxPerDay { try within(maxPerDay, maxPerDayRange, "max per day") }
            if let minInterval { try within(minInterval, minIntervalRange, "min interval (seconds)") }
        }
        if s.recurrence.isAsNeeded {
            if !s.times.isEmpty { throw Violation(field: "times", reason: "an as-needed medicine has no fixed times") }
        } else {
            guard timesRange.contains(s.times.count) else {
                throw Violation(field: "times", reason: "must be 1 to 48 times of day")
            }
            if Set(s.times).count != s.times.count { throw Violation(field: "times", reason: "has a time twice") }
            for t in s.times where !(0..<1440).contains(t.minuteOfDay) {
                throw Violation(field: "times", reason: "has a time that is not between 00:00 and 23:59")
            }
        }
        try within(s.window, windowRange, "window (seconds)")
        try date(s.start, field: "start")
        if let until = s.until {
            try date(until, field: "until")
            if until < s.start { throw Violation(field: "until", reason: "is before the start (\(s.start))") }
        }
    }

    /// A schedule version: its effective day and its schedule.
    public static func scheduleVersion(_ v: ScheduleVersion) throws(Violation) {
        try date(v.effective, field: "effective")
        try schedule(v.schedule)
        if let d = v.dosing {
            try doseText(d.text); try perDose(d.perDose)
            if let list = d.perTime { try perDoseTimes(list, times: v.schedule.times) }
        }
    }

    /// The amounts of a version's dose times (`--per-dose 0.5,1`): canonical (``PerTimeDose``)
    /// and naming exactly the schedule's `times`.
    public static func perDoseTimes(_ list: [TimedAmount], times: [LocalTime]) throws(Violation) {
        for entry in list { try perDose(entry.amount) }
        guard PerTimeDose.isCanonical(list) else {
            throw Violation(field: "per dose times", reason: "is not two or more amounts, not all equal, at increasing times")
        }
        guard list.map(\.time) == times else {
            throw Violation(field: "per dose times", reason: "names other times than the schedule's")
        }
    }

    /// Every field of a medicine a writer stores with it (name, texts, amounts, archive day, versions).
    public static func medication(_ m: Medication) throws(Violation) {
        try details(m)
        if let archivedOn = m.archivedOn { try date(archivedOn, field: "archived on") }
        for v in m.versions { try scheduleVersion(v) }
    }

    private static func within(_ n: Amount, _ range: ClosedRange<Amount>, _ field: String) throws(Violation) {
        guard range.contains(n) else {
            throw Violation(field: field, reason: "\(n) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
    }

    private static func within(_ n: Int, _ range: ClosedRange<Int>, _ field: String) throws(Violation) {
        guard range.contains(n) else {
            throw Violation(field: field, reason: "\(n) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
    }
}

extension String {
    /// Whether it holds white space only (or nothing): the characters of
    /// `CharacterSet.whitespacesAndNewlines`, which are Unicode's White_Space and the zero-width
    /// space. Trimming by that set would first build the set, at every take.
    public var isBlank: Bool { unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{200B}" } }
}
