import DoseApp
import DoseCore
import DoseExport
import DoseTestSupport
import Foundation
import Testing

/// json-c is the one reader of sync lines (DESIGN §10, issue 26). Foundation's `JSONDecoder` read
/// them before; here it is the oracle: on real lines and on thousands of damaged or odd ones, the
/// new reader must give the same operation, or refuse a line the oracle accepted only where
/// `JSONReader` documents it is stricter (a key twice, an integer json-c would clamp, bytes that
/// are not UTF-8, a lone surrogate escape or a number like `01` in a value the old decoder never
/// read).
@Suite struct SyncLineReaderTests {
    /// The reader this replaced, kept here as the oracle: `SyncOperation`'s former
    /// `init(from: Decoder)`, field by field.
    struct Oracle: Decodable {
        var op: SyncOperation

        enum Keys: String, CodingKey {
            case id, device, stamp, kind, medicine, name, dose, group, note, per_dose, low_days, changed, distinct_from
            case archived_on, effective, schedule, stock, units, day, slot, at, time_known, over_limit, target, tracked_from
        }

        struct Schedule: Decodable {
            var kind: String, a: Int?, b: Int?, weekdays: [Int]?, times: [String], window: Int, start: String, until: String?
        }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            op = SyncOperation(kind: .take, medicine: nil)
            op.id = try c.decode(String.self, forKey: .id)
            op.device = try c.decode(String.self, forKey: .device)
            op.stamp = try c.decode(String.self, forKey: .stamp)
            op.kind = try c.decode(String.self, forKey: .kind)
            op.medicine = try c.decodeIfPresent(String.self, forKey: .medicine)
            op.name = try c.decodeIfPresent(String.self, forKey: .name)
            op.dose = try c.decodeIfPresent(String.self, forKey: .dose)
            op.group = try c.decodeIfPresent(String.self, forKey: .group)
            op.note = try c.decodeIfPresent(String.self, forKey: .note)
            op.lowDays = try c.decodeIfPresent(Int.self, forKey: .low_days)
            op.distinctFrom = try c.decodeIfPresent([String].self, forKey: .distinct_from)
            op.changed = try c.decodeIfPresent([String].self, forKey: .changed)
            op.archivedOn = try c.decodeIfPresent(String.self, forKey: .archived_on)
            op.effective = try c.decodeIfPresent(String.self, forKey: .effective)
            if let s = try c.decodeIfPresent(Schedule.self, forKey: .schedule) {
                var schedule = SyncSchedule(DoseCore.Schedule(recurrence: .daily, times: [], window: 0, start: LocalDate(year: 2026, month: 1, day: 1)!))
                schedule.kind = s.kind; schedule.a = s.a; schedule.b = s.b; schedule.weekdays = s.weekdays
                schedule.times = s.times; schedule.window = s.window; schedule.start = s.start; schedule.until = s.until
                op.schedule = schedule
            }
            op.day = try c.decodeIfPresent(String.self, forKey: .day)
            op.slot = try c.decodeIfPresent(String.self, forKey: .slot)
            op.at = try c.decodeIfPresent(Double.self, forKey: .at)
            op.timeKnown = try c.decodeIfPresent(Bool.self, forKey: .time_known)
            op.overLimit = try c.decodeIfPresent(Bool.self, forKey: .over_limit)
            op.target = try c.decodeIfPresent(String.self, forKey: .target)
            if c.contains(.tracked_from) {
                if try c.decodeNil(forKey: .tracked_from) {
                    op.trackedFrom = .firstScheduleDay
                } else if let t = try? c.decode(Double.self, forKey: .tracked_from) {
                    op.trackedFrom = .instant(t)
                } else {
                    op.malformed.append("tracked_from")
                }
            }
            for key in [Keys.per_dose, .stock, .units] {
                var value: Amount?
                if let n = try? c.decodeIfPresent(Int.self, forKey: key) {
                    value = Amount(units: n)
                } else if let d = try c.decodeIfPresent(Double.self, forKey: key) {
                    value = Amount(exactly: d)
                    if value == nil { op.inexact.append(key.stringValue) }
                }
                switch key {
                case .per_dose: op.perDose = value
                case .stock: op.stock = value
                default: op.units = value
                }
            }
        }

        static func parse(_ bytes: [UInt8]) -> SyncOperation? {
            guard let op = try? JSONDecoder().decode(Oracle.self, from: Data(bytes)).op,
                  !op.id.isEmpty, !op.device.isEmpty, !op.stamp.isEmpty else { return nil }
            return op
        }
    }

    static func parse(_ bytes: [UInt8]) -> SyncOperation? {
        bytes.withUnsafeBytes { SyncOperation.parse($0, reader: JSONReader()) }
    }

    /// A random operation of any kind, with the fields its kind writes and some it does not.
    static func randomOperation(_ g: inout SplitMix64) -> SyncOperation {
        let kind = SyncOperation.Kind.allCases.randomElement(using: &g)!
        var op = SyncOperation(kind: kind, medicine: UUID().uuidString.lowercased())
        op.id = UUID().uuidString.lowercased()
        op.device = "0123456789abcdef"
        op.stamp = "1795302300000-\(String(format: "%05d", Int.random(in: 0..<99_999, using: &g)))-0123456789abcdef"
        let texts = ["Aspirin", "Vitamin D 1000 IU", "아스피린", "a/b \"quoted\" \\ back", "tab\there", "😀 émoji", "", "line\nbreak", "\u{0}nul"]
        func maybe<T>(_ v: @autoclosure () -> T) -> T? { Bool.random(using: &g) ? v() : nil }
        op.name = maybe(texts.randomElement(using: &g)!)
        op.dose = maybe(texts.randomElement(using: &g)!)
        op.note = maybe(texts.randomElement(using: &g)!)
        op.lowDays = maybe(Int.random(in: 0...60, using: &g))
        op.perDose = maybe(Amount(hundredths: Int.random(in: 1...1_000, using: &g)))
        op.units = maybe(Amount(hundredths: Int.random(in: -500...1_000, using: &g)))
        op.stock = maybe(Amount(hundredths: Int.random(in: 0...100_000, using: &g)))
        op.day = maybe("2026-11-\(Int.random(in: 10...28, using: &g))")
        op.slot = maybe("0\(Int.random(in: 0...9, using: &g)):30")
        op.at = maybe(Double(Int.random(in: 1_700_000_000...1_800_000_000, using: &g)) + [0, 0.5, 0.25][Int.random(in: 0...2, using: &g)])
        op.timeKnown = maybe(Bool.random(using: &g))
        op.overLimit = maybe(true)
        op.target = maybe(UUID().uuidString.lowercased())
        op.changed = maybe(["name", "dose"])
        op.distinctFrom = maybe([UUID().uuidString.lowercased()])
        op.trackedFrom = maybe(Bool.random(using: &g) ? .firstScheduleDay : .instant(1_795_000_000))
        if Bool.random(using: &g) {
            let weekly = Bool.random(using: &g)
            let recurrence: Recurrence = weekly ? .weekdays([.monday, .friday]) : .daily
            op.schedule = SyncSchedule(Schedule(recurrence: recurrence, times: [LocalTime(hour: 8, minute: 0)!], window: 7_200,
                                                start: LocalDate(year: 2026, month: 11, day: 1)!))
        }
        return op
    }

    /// Ways a line goes wrong or odd; `stricter` marks the ones the new reader may refuse alone.
    static func mutate(_ line: String, _ g: inout SplitMix64) -> (bytes: [UInt8], stricter: Bool) {
        var bytes = Array(line.utf8)
        let numbers = ["5.0", "1e2", "2.5e1", "-0", "-0.0", "0.125", "0.5", "1e-400", "1E400", "9223372036854775807",
                       "9223372036854775808", "-9223372036854775808", "18446744073709551615", "NaN", "Infinity", "1.", ".5",
                       "01", "+1", "true", "null", "\"5\"", "[1]", "{}", "7.0000000000000001", "1.5e300"]
        let strings = ["\"\\ud800\"", "\"\\udc00x\"", "\"\\ud83d\\ude00\"", "\"\\u00e9\"", "\"a\tb\"", "'x'", "\"\\x\"", "\"\\u0000\"",
                       "\"\\/\"", "null", "5", "[\"a\"]", "[null]", "\"\\uD834\\uDD1E\"", "\"\\u12\""]
        switch Int.random(in: 0..<10, using: &g) {
        case 0:
            return (bytes, false)
        case 1, 2:
            // A value replaced: the text after a random key's colon up to its comma or brace.
            let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
            guard let colon = colons.randomElement(using: &g) else { return (bytes, false) }
            var end = colon + 1
            var depth = 0, inString = false
            while end < bytes.count {
                let c = bytes[end]
                if inString {
                    if c == UInt8(ascii: "\\") { end += 2; continue }
                    if c == UInt8(ascii: "\"") { inString = false }
                } else if c == UInt8(ascii: "\"") { inString = true }
                else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
                else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { if depth == 0 { break }; depth -= 1 }
                else if c == UInt8(ascii: ","), depth == 0 { break }
                end += 1
            }
            let value = (Bool.random(using: &g) ? numbers : strings).randomElement(using: &g)!
            bytes.replaceSubrange((colon + 1)..<min(end, bytes.count), with: Array(value.utf8))
            // JSONDecoder checked a string's characters and escapes and a number's form only when it
            // read them: a value that is not JSON where it did not look passed.
            let notJSON = ["NaN", "Infinity", "1.", ".5", "01", "+1", "\"\\ud800\"", "\"\\udc00x\"", "\"a\tb\"", "'x'",
                           "\"\\x\"", "\"\\u12\""]
            return (bytes, notJSON.contains(value))
        case 3:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &g)))
            return (bytes, false)
        case 4:
            let i = Int.random(in: 0..<bytes.count, using: &g)
            bytes[i] = UInt8.random(in: 0x20...0x7E, using: &g)
            return (bytes, false)
        case 5:
            // A key twice, the copy first or last.
            let extra = Bool.random(using: &g) ? "\"kind\":\"take\"," : "\"name\":\"Other\","
            bytes.insert(contentsOf: Array(extra.utf8), at: 1)
            return (bytes, true)
        case 6:
            // Unknown keys of every shape, and a big integer json-c would clamp.
            let extras = ["\"future\":[1,[2,{\"x\":null}],\"s\"],", "\"z\":{\"a\":{\"b\":[]}},", "\"n\":1e-400,",
                          "\"big\":100000000000000000000000,", "\"neg\":-9223372036854775809,", "\"ok\":18446744073709551615,"]
            let extra = extras.randomElement(using: &g)!
            bytes.insert(contentsOf: Array(extra.utf8), at: 1)
            return (bytes, extra.contains("100000000000000000000000") || extra.contains("-9223372036854775809"))
        case 7:
            bytes = [0xEF, 0xBB, 0xBF] + bytes
            return (bytes, false)
        case 8:
            // A byte that is not UTF-8, inside a string.
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            bytes.insert([0xFF, 0xC0, 0x80, 0xED].randomElement(using: &g)!, at: quotes.randomElement(using: &g)! + 1)
            return (bytes, true)
        default:
            let ws = [" ", "\n", "\t", "\r\n", "  x", " ,"].randomElement(using: &g)!
            return (Bool.random(using: &g) ? bytes + Array(ws.utf8) : Array(ws.utf8) + bytes, false)
        }
    }

    @Test("every line a device writes reads back as the operation written, and as the old decoder read it")
    func writtenLines() throws {
        var g = SplitMix64(seed: 26)
        let encoder = SyncOperation.lineEncoder()
        for _ in 0..<2_000 {
            let op = Self.randomOperation(&g)
            let line = try op.line(encoder: encoder)
            let read = try #require(Self.parse(Array(line.utf8)), "\(line)")
            #expect(read == op, "\(line)")
            #expect(Self.Oracle.parse(Array(line.utf8)) == read, "\(line)")
            #expect(SyncOperation.parse(Substring(line)) == op)
        }
    }

    @Test("damaged and odd lines: the same operation as the old decoder, or refused where the reader is documented stricter")
    func damagedLines() throws {
        var g = SplitMix64(seed: 2026)
        let encoder = SyncOperation.lineEncoder()
        var same = 0, refusedAlone = 0, accepted = 0
        for _ in 0..<20_000 {
            let line = try Self.randomOperation(&g).line(encoder: encoder)
            let (bytes, stricter) = Self.mutate(line, &g)
            let new = Self.parse(bytes), old = Self.Oracle.parse(bytes)
            if new == old {
                same += 1
                if new != nil { accepted += 1 }
            } else if new == nil, stricter || String(validating: bytes, as: UTF8.self) == nil {
                refusedAlone += 1
            } else {
                Issue.record("json-c: \(String(describing: new)); JSONDecoder: \(String(describing: old)); line: \(String(decoding: bytes, as: UTF8.self)) \(bytes.suffix(8))")
                return
            }
        }
        // The mutations reach both outcomes, and the documented differences happen.
        #expect(accepted > 5_000 && same - accepted > 3_000 && refusedAlone > 500, "\(same) same (\(accepted) accepted), \(refusedAlone) refused by json-c alone")
    }

    @Test("what the reader refuses that json-c's strict mode lets through, and what it reads as the old decoder did",
          arguments: [
            (#"{"id":"i","device":"d","stamp":"s","kind":'take'}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","at":NaN}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","at":1.}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","note":"a\#tb"}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","note":"\ud800"}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","kind":"skip"}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","x":18446744073709551616}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","x":-9223372036854775809}"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take"} x"#, false),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","low_days":7.0,"units":0.5,"at":1e9}"#, true),
            (#"{"id":"i","device":"d","stamp":"s","kind":"take","x":18446744073709551615,"note":"\ud83d\ude00"} "#, true),
          ])
    func strictness(line: String, reads: Bool) {
        let new = Self.parse(Array(line.utf8))
        #expect((new != nil) == reads, "\(line)")
        if reads {
            #expect(new == Self.Oracle.parse(Array(line.utf8)))
        }
    }
}
