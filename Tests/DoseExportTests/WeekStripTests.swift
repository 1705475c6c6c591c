@testable import DoseCore
@testable import DoseExport
import Testing

/// The 7-day strip as the bars show it.
@Suite struct WeekStripTests {
    /// The ASCII set's symbols (also the letters `dosebar history` prints without colour) tell every
    /// state apart with one printable ASCII character.
    @Test func asciiSymbolsAreDistinctLetters() {
        let letters = HistoryState.allCases.map { IconSet.ascii[day: $0] }
        #expect(Set(letters).count == HistoryState.allCases.count)
        #expect(letters.allSatisfy { $0.count == 1 && $0.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 32 } })
    }

    /// conky's last line is the strip in the renderer's language and icon set.
    @Test func conkyEndsWithTheStripInItsLanguage() {
        let snapshot = Fixtures.newYork
        let options = RenderOptions(icons: .ascii, language: .ko)
        let lines = ConkyRenderer.render(snapshot, options: options).split(separator: "\n")
        #expect(lines.last.map(String.init) == "${color}" + WeekStrip.line(snapshot.week, catalog: .korean, icons: .ascii) + "${color}")
    }
}
