import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// `ISO8601.format` and `LocalTime("HH:MM")` read and write digits as bytes (a `take` formats and
/// parses hundreds of them): they must say exactly what Foundation's calendar and the general
/// parser say.
@Suite struct ByteFormatTests {
    @Test("ISO8601.format matches Foundation's calendar at any instant of years 1583–9999 and any offset to the minute")
    func isoFormat() {
        var g = SplitMix64(seed: 0x1509_8601)
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        for i in 0..<3000 {
            // Unix seconds of 1583-01-01 (Foundation's Gregorian calendar is Julian before 1582) … 9999-12-31,
            // kept a day from the ends so the local date stays in range whatever the offset.
            let seconds = g.int(-12_212_553_600 + 100_000 ... 253_402_300_799 - 100_000)
            let offset = i % 10 == 0 ? 0 : g.int(-14 * 60 ... 14 * 60) * 60
            let t = Date(timeIntervalSince1970: Double(seconds))
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: t.addingTimeInterval(Double(offset)))
            let a = abs(offset)
            let zone = offset == 0 && i % 20 == 0 ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", a / 3600, a % 3600 / 60)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!) + zone
            let got = ISO8601.format(t, offset: offset, zulu: i % 20 == 0)
            #expect(got == expected, "\(seconds) at \(offset)")
            if got != expected { return }
        }
    }

    @Test("LocalTime reads H:MM and HH:MM for every hour and minute up to 99, and nothing out of range")
    func times() {
        for h in 0..<100 {
            for m in 0..<100 {
                let valid = h < 24 && m < 60
                for text in [String(format: "%d:%02d", h, m), String(format: "%02d:%02d", h, m)] {
                    #expect(LocalTime(text)?.minuteOfDay == (valid ? h * 60 + m : nil), "\(text)")
                }
            }
        }
        // Forms the byte path leaves to the general one, as before.
        #expect(LocalTime("+1:30")?.minuteOfDay == 90)
        #expect(LocalTime("1:3x") == nil && LocalTime("１２:００") == nil && LocalTime("12:0") == nil)
    }
}
