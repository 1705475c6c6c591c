import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// `LocalDate(_:)` and `SyncClock(_:)` read the usual form straight from the bytes (one of each
/// per line of another device's history). Held here against the split-based parsers they had,
/// kept as oracles, over valid, nearly valid and odd texts.
@Suite struct TextParsingTests {
    static func oldDate(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    static func oldClock(_ text: String) -> SyncClock? {
        let parts = text.split(separator: "-", maxSplits: 2)
        guard parts.count >= 2, let m = Int64(parts[0]), let c = Int(parts[1]),
              (0...SyncClock.maxMillis).contains(m), (0...SyncClock.maxCounter).contains(c) else { return nil }
        return SyncClock(millis: m, counter: c)
    }

    static func mutated(_ text: String, _ g: inout SplitMix64) -> String {
        var chars = Array(text)
        let odd: [Character] = ["0", "9", "-", "+", " ", "a", "٣", "é", "1", "\u{0}"]
        switch Int.random(in: 0..<5, using: &g) {
        case 0: return text
        case 1: chars[Int.random(in: 0..<chars.count, using: &g)] = odd.randomElement(using: &g)!
        case 2: chars.remove(at: Int.random(in: 0..<chars.count, using: &g))
        case 3: chars.insert(odd.randomElement(using: &g)!, at: Int.random(in: 0...chars.count, using: &g))
        default: chars = Array(chars.prefix(Int.random(in: 0...chars.count, using: &g)))
        }
        return String(chars)
    }

    @Test("dates: the same day or nil as the split-based parser, on 50,000 texts")
    func dates() {
        var g = SplitMix64(seed: 10)
        var valid = 0
        for _ in 0..<50_000 {
            let base = String(format: "%04d-%02d-%02d", Int.random(in: 0...10_000, using: &g), Int.random(in: 0...13, using: &g),
                              Int.random(in: 0...32, using: &g))
            let text = Self.mutated(base, &g)
            #expect(LocalDate(text) == Self.oldDate(text), "\(text)")
            if LocalDate(text) != nil { valid += 1 }
            // The canonical form (the gate's): a day it reads writes back as the same text.
            if let day = LocalDate(canonical: text) { #expect(day.description == text && day == Self.oldDate(text), "\(text)") }
        }
        for text in ["2026-02-29", "2028-02-29", "0000-01-01", "9999-12-31", "+026-01-05", "2026-+1-05", "2026-1-05", "2026-01-5 "] {
            #expect(LocalDate(text) == Self.oldDate(text), "\(text)")
        }
        #expect(valid > 10_000)
        // Forms the lenient parser takes and the canonical one refuses.
        for text in ["+026-01-05", "2026-+1-05", "2026-01-+5"] {
            #expect(LocalDate(text) != nil && LocalDate(canonical: text) == nil, "\(text)")
        }
    }

    @Test("stamps and clock states: the same clock or nil as the split-based parser, on 50,000 texts")
    func clocks() {
        var g = SplitMix64(seed: 11)
        var valid = 0
        for _ in 0..<50_000 {
            var base = String(format: "%013lld-%05d", Int64.random(in: 0...9_999_999_999_999, using: &g), Int.random(in: 0...99_999, using: &g))
            if Bool.random(using: &g) { base += "-0123456789abcdef" }
            let text = Self.mutated(base, &g)
            #expect(SyncClock(text) == Self.oldClock(text), "\(text)")
            if SyncClock(text) != nil { valid += 1 }
        }
        for text in ["1795144200000-00000", "1795144200000-99999-d", "1795144200000-00000-", "179514420000-00000-d", "5-3", "--5-3",
                     "99999999999999-00000", "1795144200000-100000"] {
            #expect(SyncClock(text) == Self.oldClock(text), "\(text)")
        }
        #expect(valid > 10_000)
    }
}
