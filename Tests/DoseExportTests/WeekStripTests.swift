@testable import DoseCore
@testable import DoseExport
import Testing

/// The 7-day strip as the bars show it.
@Suite struct WeekStripTests {
    /// The ASCII set's symbols are the letters `dosebar history` prints without colour: one vocabulary.
    @Test func asciiSymbolsAreTheHistoryCalendarsLetters() {
        for state in HistoryState.allCases {
            #expect(IconSet.ascii[day: state] == HistoryCalendar.letter(state), "\(state)")
        }
    }

    /// conky's last line is the strip in the renderer's language and icon set.
    @Test func conkyEndsWithTheStripInItsLanguage() {
        let snapshot = Fixtures.newYork
        let options = RenderOptions(icons: .ascii, language: .ko)
        let lines = ConkyRenderer.render(snapshot, options: options).split(separator: "\n")
        #expect(lines.last.map(String.init) == "${color}" + WeekStrip.line(snapshot.week, catalog: .korean, icons: .ascii) + "${color}")
    }
}
