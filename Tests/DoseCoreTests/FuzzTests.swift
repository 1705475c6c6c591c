import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// Every parser of user input, fed thousands of random and mutated strings: it returns a valid
/// value or throws a `DosebarError` with a message naming the problem — never crashes, never
/// throws anything else, never accepts nonsense. (A crash takes the whole test process down,
/// which fails the run loudly.)
@Suite struct FuzzTests {
    /// Characters that trip parsers: digits and separators, signs, letters of units and weekdays,
    /// look-alike digits (Arabic-Indic, full-width, superscript), combining marks, emoji, controls.
    static let alphabet: [String] = Array("0123456789").map(String.init)
        + [":", ":", "-", "-", "+", "/", ",", ",", ".", " ", "T", "t", "Z", "z", "d", "h", "m", "s", "w", "W",
           "mon", "fri", "sun", "day", "today", "\t", "\n", "\r", "\0", "\u{7F}", "٣", "０", "²", "Ⅻ", "\u{301}", "\u{200B}",
           "💊", "é", "e\u{301}", "ß", "İ", "\u{FEFF}", "\"", "'", "\\", "%", "#", "{", "}", "[", "]", "=", "-0", "+0", "00"]

    static let hugeNumbers = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999",
                              "999999999999999", "106751991167301", "1000000000000000000000", "4294967296", "2147483648",
                              "0000000000000000000000000001", "1e9", "0x10", "-1", "+1"]

    /// A string built from the alphabet, or a valid seed mutated a few times.
    static func input(_ g: inout SplitMix64, seeds: [String]) -> String {
        if g.chance(0.25) {
            return (0..<g.int(0...24)).map { _ in g.pick(alphabet) }.joined()
        }
        var chars = Array(g.pick(seeds))
        for _ in 0..<g.int(1...4) {
            let i = chars.isEmpty ? 0 : g.int(0...chars.count)
            switch g.int(0...7) {
            case 0: chars.insert(contentsOf: g.pick(alphabet), at: i)
            case 1: if i < chars.count { chars.remove(at: i) }
            case 2: if i < chars.count { chars[i] = Character(g.pick(alphabet).first.map(String.init) ?? "x") }
            case 3: chars.insert(contentsOf: g.pick(hugeNumbers), at: i)
            case 4: // duplicate a chunk
                if !chars.isEmpty {
                    let a = g.int(0...(chars.count - 1)), b = g.int(a...(chars.count - 1))
                    chars.insert(contentsOf: chars[a...b], at: i)
                }
            case 5: chars = Array(String(chars).uppercased())
            case 6: chars.insert(contentsOf: g.pick(seeds), at: i)
            default: // replace a run of digits by a huge number
                if let j = chars.firstIndex(where: { $0.isASCII && $0.isNumber }) {
                    var k = j
                    while k < chars.count && chars[k].isASCII && chars[k].isNumber { k += 1 }
                    chars.replaceSubrange(j..<k, with: g.pick(hugeNumbers))
                }
            }
        }
        return String(chars)
    }

    /// Runs `body` on many inputs: each either yields a value that `valid` accepts, or a `DosebarError`
    /// of the expected kind whose message is non-empty. Returns how many were accepted.
    @discardableResult
    static func fuzz<T>(_ name: String, salt: UInt64, count: Int = 4000, seeds: [String], kind: (DosebarError) -> Bool = { if case .usage = $0 { true } else { false } },
                        _ body: (String) throws -> T?, valid: (String, T) -> Bool) -> Int {
        let seedValue = Property.base ^ salt
        var g = SplitMix64(seed: seedValue)
        var accepted = 0
        let inputs = seeds + (0..<(count * max(1, Property.scale))).map { _ in input(&g, seeds: seeds) }
        for text in inputs {
            do {
                if let v = try body(text) {
                    accepted += 1
                    if !valid(text, v) { Issue.record("\(name)(\(text.debugDescription)) accepted a bad value \(v); base seed 0x\(String(seedValue, radix: 16))") }
                }
            } catch let e as DosebarError {
                if !kind(e) || e.description.isEmpty {
                    Issue.record("\(name)(\(text.debugDescription)) threw \(e) (exit \(e.exitCode))")
                }
            } catch {
                Issue.record("\(name)(\(text.debugDescription)) threw a non-DosebarError: \(error)")
            }
        }
        // Sanity: the valid seeds themselves parse, so the generator is not all noise.
        #expect(accepted >= seeds.count / 2, "\(name): only \(accepted) inputs accepted")
        return accepted
    }

    @Test func durationHugeNumberIsAnErrorNotACrash() {
        // Found by the fuzzer: 15 digits of days overflowed `n * 86400` and trapped.
        #expect(throws: DosebarError.self) { try InputParser.duration("999999999999999d") }
        #expect(throws: DosebarError.self) { try InputParser.duration("106751991167301d") }
        #expect(throws: DosebarError.self) { try InputParser.duration("9999999999999h") }
    }

    @Test func durations() {
        FuzzTests.fuzz("duration", salt: 101, seeds: ["2h", "90m", "1h30m", "45", "1d", "0", "30s", "7d", "12h", "0m"],
                       { try InputParser.duration($0) }) { text, v in
            (0...7 * 86400).contains(v)
        }
    }

    @Test func times() {
        FuzzTests.fuzz("times", salt: 102, seeds: ["08:00", "8:00", "08:00,21:00", "00:00,23:59", "7:05, 19:30", "12:00,12:00"],
                       { try InputParser.times($0) }) { _, v in
            !v.isEmpty && v.count <= 48 && v == Array(Set(v)).sorted() && v.allSatisfy { (0..<1440).contains($0.minuteOfDay) }
        }
    }

    @Test func dates() {
        let today = LocalDate("2026-11-22")!
        FuzzTests.fuzz("date", salt: 103, seeds: ["2026-11-22", "today", "tomorrow", "yesterday", "2024-02-29", "9999-12-31", "0001-01-01"],
                       { try InputParser.date($0, flag: "--from", today: today) }) { _, v in
            (1...9999).contains(v.year) && LocalDate(v.description) == v
        }
    }

    @Test func weekdays() {
        FuzzTests.fuzz("weekdays", salt: 104, seeds: ["mon,wed,fri", "sun", "Monday,TUESDAY", "sat, sun", "mon,mon"],
                       { try InputParser.weekdays($0) }) { _, v in !v.isEmpty }
    }

    @Test func every() {
        FuzzTests.fuzz("every", salt: 105, seeds: ["3d", "2w", "1m", "366d", "1D", " 7d "], { try InputParser.every($0) }) { _, v in
            switch v {
            case .everyDays(let n), .everyWeeks(let n), .everyMonths(let n): (1...366).contains(n)
            default: false
            }
        }
    }

    @Test func cycle() {
        FuzzTests.fuzz("cycle", salt: 106, seeds: ["21/7", "1/0", "366/366", "28/0", "5/2"], { try InputParser.cycle($0) }) { _, v in
            if case let .cycle(a, r) = v { (1...366).contains(a) && (0...366).contains(r) } else { false }
        }
    }

    @Test func localTime() {
        FuzzTests.fuzz("LocalTime", salt: 107, seeds: ["08:00", "8:00", "23:59", "00:00", "12:30"], { LocalTime($0) }) { text, v in
            (0..<1440).contains(v.minuteOfDay) && LocalTime(v.description) == v
        }
    }

    @Test func localDate() {
        FuzzTests.fuzz("LocalDate", salt: 108, seeds: ["2026-11-22", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"], { LocalDate($0) }) { _, v in
            (1...9999).contains(v.year) && (1...12).contains(v.month) && (1...LocalDate.daysIn(year: v.year, month: v.month)).contains(v.day)
                && LocalDate(v.description) == v
        }
    }

    @Test func iso8601() {
        FuzzTests.fuzz("ISO8601.parse", salt: 109,
                       seeds: ["2026-11-22T08:30:00+09:00", "2026-11-22T08:30:00Z", "2026-11-22T08:30+0900", "2026-11-22 08:30:00.250-04:30",
                               "2026-03-08T02:30:00-05:00", "2026-11-22T08:30:00+14:00", "2026-11-22T08:30:00-12"],
                       { ISO8601.parse($0) }) { text, v in
            // Round trip through the formatter at the offset written in the input.
            guard v.timeIntervalSince1970.isFinite else { return false }
            return ISO8601.parse(ISO8601.format(v, offset: 0, zulu: true)).map { abs($0.timeIntervalSince(v)) < 1 } ?? false
        }
    }

    /// ISO-8601 instants with random offsets survive format → parse exactly (whole seconds).
    @Test(arguments: Property.seeds(20, salt: 110))
    func iso8601RoundTrip(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let t = Date(timeIntervalSince1970: Double(g.int(-2_000_000_000...8_000_000_000)))
            let offset = g.int(-14 * 4...14 * 4) * 900
            let text = ISO8601.format(t, offset: offset)
            #expect(ISO8601.parse(text) == t, "\(text); \(Property.label(seed))")
        }
    }
}
