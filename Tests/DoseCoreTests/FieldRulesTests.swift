import DoseCore
import Foundation
import Testing

/// Every rule of the validation gate, fed the hostile values a hand-written sync line, an import
/// file or a crafted argument carries: each must be refused with the field named, and the
/// values at the edges of each range accepted.
@Suite struct FieldRulesTests {
    typealias V = FieldRules.Violation

    /// Every control character the rules name, one of each kind.
    static let controls: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
        "\u{2028}", "\u{2029}", "\u{61C}", "\u{200E}", "\u{200F}",
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    static func refuses(_ field: String, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("accepted; expected a violation of \(field)", sourceLocation: sourceLocation)
        } catch let v as V {
            #expect(v.field == field, sourceLocation: sourceLocation)
            #expect(!v.reason.isEmpty && !v.description.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("threw \(error), not a FieldRules.Violation", sourceLocation: sourceLocation)
        }
    }

    static func schedule(_ r: Recurrence, times: [String] = ["08:00"], window: Int = 7200,
                         start: LocalDate = Fx.date("2026-01-01"), until: LocalDate? = nil) -> Schedule {
        Schedule(recurrence: r, times: times.map(Fx.time), window: window, start: start, until: until)
    }

    // MARK: - Text

    @Test func namesWithAnyControlCharacterAreRefused() throws {
        for c in Self.controls {
            for name in ["Asp\(c)irin", "\(c)Aspirin", "Aspirin\(c)"] {
                Self.refuses("name") { try FieldRules.name(name) }
            }
        }
        #expect(throws: V(field: "name", reason: "contains a control character (U+001B)")) { try FieldRules.name("A\u{1B}[31mB") }
        #expect(throws: V(field: "name", reason: "contains a control character (U+202E)")) { try FieldRules.name("abc\u{202E}gpj.exe") }
        #expect("\(V(field: "name", reason: "contains a control character (U+0000)"))" == "name: contains a control character (U+0000)")
    }

    @Test func namesAreNonEmptyAndAtMost200Characters() throws {
        for blank in ["", " ", "   \u{3000} "] { Self.refuses("name") { try FieldRules.name(blank) } }
        try FieldRules.name("Aspirin")
        try FieldRules.name("비타민 D 1000 IU")
        try FieldRules.name(String(repeating: "가", count: 200))
        Self.refuses("name") { try FieldRules.name(String(repeating: "가", count: 201)) }
        Self.refuses("name") { try FieldRules.name(String(repeating: "x", count: 10_000)) }
        // One visible character made of 300 scalars is 301 characters to the rule.
        Self.refuses("name") { try FieldRules.name("e" + String(repeating: "\u{301}", count: 300)) }
        // Joiners and emoji are not control characters.
        try FieldRules.name("💊 Vitamin\u{200D}D 👨‍👩‍👧")
    }

    @Test func notesAllowTabAndNewlineOnly() throws {
        try FieldRules.note(nil)
        try FieldRules.note("with food\n\tnot with milk\n")
        try FieldRules.note(String(repeating: "n", count: 2_000))
        Self.refuses("note") { try FieldRules.note(String(repeating: "n", count: 2_001)) }
        Self.refuses("note") { try FieldRules.note(String(repeating: "n", count: 5_000_000)) }
        for c in Self.controls where c != "\u{9}" && c != "\u{A}" {
            Self.refuses("note") { try FieldRules.note("take \(c) it") }
        }
    }

    @Test func doseAndGroupAreShortAndClean() throws {
        try FieldRules.doseText(nil)
        try FieldRules.group(nil)
        try FieldRules.doseText(String(repeating: "m", count: 100))
        try FieldRules.group(String(repeating: "g", count: 100))
        Self.refuses("dose") { try FieldRules.doseText(String(repeating: "m", count: 101)) }
        Self.refuses("group") { try FieldRules.group(String(repeating: "g", count: 101)) }
        for c in Self.controls {
            Self.refuses("dose") { try FieldRules.doseText("100\(c)mg") }
            Self.refuses("group") { try FieldRules.group("morning\(c)") }
        }
    }

    @Test func printableHidesControlsAndCuts() {
        #expect(FieldRules.printable("A\u{1B}[2J\u{202E}B") == "A\u{FFFD}[2J\u{FFFD}B")
        #expect(FieldRules.printable(String(repeating: "x", count: 10_000)).unicodeScalars.count == FieldRules.nameMax)
    }

    // MARK: - Amounts

    @Test func amountsAreBounded() throws {
        let hostileInts = [Int.min, Int.min + 1, -1_000_000, -1, Int.max, Int.max - 1, 1 << 62]
        // Amounts in hundredths: the raw values, and just past each bound (0, 1,000.01, 1,000,000.01).
        let hostile = hostileInts.map(Amount.init(hundredths:))
        for n in hostile + [0, Amount(hundredths: 100_001)] { Self.refuses("per dose") { try FieldRules.perDose(n) } }
        for n in hostile + [Amount(hundredths: 100_000_001)] { Self.refuses("stock") { try FieldRules.stock(n) } }
        for n in hostile + [0, Amount(hundredths: 100_000_001)] { Self.refuses("units") { try FieldRules.units(n) } }
        for n in hostileInts + [366] { Self.refuses("low days") { try FieldRules.lowDays(n) } }
        try FieldRules.perDose(1); try FieldRules.perDose(1_000); try FieldRules.perDose(Amount(hundredths: 1))
        try FieldRules.units(Amount(hundredths: 1)); try FieldRules.stock(Amount(hundredths: 975))
        try FieldRules.stock(0); try FieldRules.stock(1_000_000)
        try FieldRules.units(1); try FieldRules.units(1_000_000)
        try FieldRules.lowDays(0); try FieldRules.lowDays(365)
        #expect(FieldRules.clampedStock(Amount(hundredths: .max)) == 1_000_000 && FieldRules.clampedStock(Amount(hundredths: .min)) == 0)
        #expect(FieldRules.clampedPerDose(Amount(hundredths: .max)) == 1_000 && FieldRules.clampedPerDose(0) == Amount(hundredths: 1))
    }

    // MARK: - Time

    @Test func instantsAreFiniteFrom1970AndAtMostADayAhead() throws {
        let now = Fx.instant("2026-11-22T08:30:00+09:00")
        let t = now.timeIntervalSince1970
        for x in [Double.nan, .infinity, -.infinity, -1e300, 1e300, -1, -0.001, t + 86_400.5, t + 365 * 86_400,
                  Double(Int64.max), Double(Int64.min), -2_208_988_800 /* 1900 */] {
            Self.refuses("at") { try FieldRules.instant(x, now: now) }
        }
        // NaN and infinities are named as such (a NaN compares false with both bounds).
        #expect(throws: V(field: "at", reason: "is not a number")) { try FieldRules.instant(.nan, now: now) }
        #expect(throws: V(field: "at", reason: "is not a number")) { try FieldRules.instant(-.infinity, now: now) }
        try FieldRules.instant(0, now: now)
        try FieldRules.instant(t, now: now)
        try FieldRules.instant(t + 86_400, now: now)
        Self.refuses("logged at") { try FieldRules.instant(.nan, now: now, field: "logged at") }
    }

    @Test func datesAreFrom1970Through2200() throws {
        try FieldRules.date(Fx.date("1970-01-01"))
        try FieldRules.date(Fx.date("2200-12-31"))
        for d in [Fx.date("1969-12-31"), Fx.date("2201-01-01"), Fx.date("0001-01-01"), Fx.date("9999-12-31"),
                  LocalDate(dayNumber: Int.max), LocalDate(dayNumber: Int.min)] {
            Self.refuses("date") { try FieldRules.date(d) }
        }
    }

    // MARK: - Schedules

    @Test func recurrenceParametersAreBounded() throws {
        for n in [Int.min, -1, 0, 367, 1_000, Int.max] {
            Self.refuses("every") { try FieldRules.schedule(Self.schedule(.everyDays(n))) }
            Self.refuses("every") { try FieldRules.schedule(Self.schedule(.everyWeeks(n))) }
            Self.refuses("every") { try FieldRules.schedule(Self.schedule(.everyMonths(n))) }
        }
        for n in [1, 366] { try FieldRules.schedule(Self.schedule(.everyDays(n))) }
        // The command line's bound is the gate's (one bound per option).
        #expect(throws: DosebarError.self) { try InputParser.every("367d") }
        #expect(try InputParser.every("366w") == .everyWeeks(366))
        for (a, r) in [(0, 0), (0, 7), (-1, 1), (367, 0), (Int.max, Int.max), (Int.min, 0)] {
            Self.refuses("cycle active days") { try FieldRules.schedule(Self.schedule(.cycle(active: a, rest: r))) }
        }
        for r in [-1, 367, Int.max, Int.min] {
            Self.refuses("cycle rest days") { try FieldRules.schedule(Self.schedule(.cycle(active: 21, rest: r))) }
        }
        try FieldRules.schedule(Self.schedule(.cycle(active: 1, rest: 0)))
        try FieldRules.schedule(Self.schedule(.cycle(active: 366, rest: 366)))
        Self.refuses("weekdays") { try FieldRules.schedule(Self.schedule(.weekdays([]))) }
        try FieldRules.schedule(Self.schedule(.weekdays([.sunday])))
        for m in [0, 101, -1, Int.max] {
            Self.refuses("max per day") { try FieldRules.schedule(Self.schedule(.asNeeded(maxPerDay: m, minInterval: nil), times: [])) }
        }
        for gap in [-1, 7 * 86_400 + 1, Int.max, Int.min] {
            Self.refuses("min interval (seconds)") {
                try FieldRules.schedule(Self.schedule(.asNeeded(maxPerDay: nil, minInterval: gap), times: []))
            }
        }
        try FieldRules.schedule(Self.schedule(.asNeeded(maxPerDay: 100, minInterval: 7 * 86_400), times: []))
    }

    @Test func timesWindowAndCourseAreBounded() throws {
        Self.refuses("times") { try FieldRules.schedule(Self.schedule(.daily, times: [])) }
        Self.refuses("times") { try FieldRules.schedule(Self.schedule(.asNeeded(maxPerDay: nil, minInterval: nil))) }
        let all = (0..<49).map { LocalTime(minuteOfDay: $0 * 29) }
        var s = Self.schedule(.daily)
        s.times = Array(all.prefix(48))
        try FieldRules.schedule(s)
        s.times = all
        Self.refuses("times") { try FieldRules.schedule(s) }
        s.times = [Fx.time("08:00"), Fx.time("08:00")]   // bypassing init's de-duplication, as a decoder might
        Self.refuses("times") { try FieldRules.schedule(s) }
        for w in [-1, 12 * 3600 + 1, Int.max, Int.min] {
            Self.refuses("window (seconds)") { try FieldRules.schedule(Self.schedule(.daily, window: w)) }
        }
        try FieldRules.schedule(Self.schedule(.daily, window: 0))
        try FieldRules.schedule(Self.schedule(.daily, window: 12 * 3600))
        Self.refuses("start") { try FieldRules.schedule(Self.schedule(.daily, start: Fx.date("1969-12-31"))) }
        Self.refuses("start") { try FieldRules.schedule(Self.schedule(.daily, start: LocalDate(dayNumber: Int.max))) }
        Self.refuses("until") { try FieldRules.schedule(Self.schedule(.daily, until: Fx.date("2201-01-01"))) }
        Self.refuses("until") { try FieldRules.schedule(Self.schedule(.daily, until: Fx.date("2025-12-31"))) }
        try FieldRules.schedule(Self.schedule(.daily, until: Fx.date("2026-01-01")))
        Self.refuses("effective") {
            try FieldRules.scheduleVersion(ScheduleVersion(effective: Fx.date("1900-01-01"), schedule: Self.schedule(.daily)))
        }
    }

    @Test func aMedicineIsCheckedFieldByField() throws {
        let good = Fx.med(1, "Aspirin", stock: 30)
        try FieldRules.medication(good)
        #expect(FieldRules.storedProblem(good) == nil)
        var m = good; m.name = "A\u{7}"
        Self.refuses("name") { try FieldRules.medication(m) }
        m = good; m.stock = -5
        Self.refuses("stock") { try FieldRules.medication(m) }
        #expect(FieldRules.storedProblem(m)?.field == "stock")
        m = good; m.perDose = Amount(hundredths: .max)
        Self.refuses("per dose") { try FieldRules.medication(m) }
        m = good; m.archivedOn = Fx.date("1960-01-01")
        Self.refuses("archived on") { try FieldRules.medication(m) }
        m = Fx.med(1, "Aspirin", .everyDays(0))
        Self.refuses("every") { try FieldRules.medication(m) }
        #expect(FieldRules.storedProblem(m)?.field == "every")
    }

    /// `isBlank` (an empty name) holds for exactly the characters Foundation trims as
    /// `.whitespacesAndNewlines`, every scalar of the Basic Multilingual Plane checked.
    @Test func blankIsWhatFoundationTrims() {
        for value in 0...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let s = String(scalar), padded = " \t" + s + "\u{3000}"
            #expect(s.isBlank == s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "U+\(String(value, radix: 16))")
            #expect(padded.isBlank == padded.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "U+\(String(value, radix: 16))")
        }
        #expect("".isBlank)
    }
}
