import DoseExport
import DoseTestSupport
import Testing

/// `report --format csv` neutralises cells a spreadsheet would run as formulas (DESIGN §9, OWASP's
/// rule) and `import csv` takes exactly that back off: for any text, what is written never starts
/// with a formula character, and reading it back gives the text as it was.
@Suite struct CSVNeutraliseTests {
    static let alphabet: [String] = ["'", "=", "+", "-", "@", "\t", "\r", "\r\n", "a", " ", "1", "\"", ","]

    @Test("neutralised never starts a formula and restored gives back every text, over random texts of quotes and formula characters")
    func roundTrip() {
        var random = SplitMix64(seed: 20)
        let starts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
        var cases = ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-cmd|' /C calc'!A0", "@SUM(1)", "\tTab", "\rCR", "'=x", "''+y",
                     "'plain", "plain", "", "'", "2026-11-22", "-5"]
        for _ in 0..<5000 {
            let length = Int(random.next() % 6)
            cases.append((0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }.joined())
        }
        for text in cases {
            let written = ReportCSV.neutralised(text)
            #expect(!(written.unicodeScalars.first.map(starts.contains) ?? false), "\(text.debugDescription) → \(written.debugDescription)")
            #expect(ReportCSV.restored(written) == text, "\(text.debugDescription) → \(written.debugDescription) → \(ReportCSV.restored(written).debugDescription)")
            // A cell is changed only when it has to be: one quote added, at the front.
            #expect(written == text || written == "'" + text)
        }
    }
}
