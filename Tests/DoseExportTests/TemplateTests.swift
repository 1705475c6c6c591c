@testable import DoseCore
import DoseExport
import Testing

@Suite struct TemplateTests {
    let snapshot = Fixtures.newYork

    func expand(_ template: String, _ options: RenderOptions = RenderOptions()) -> String {
        Template.expand(template, snapshot: snapshot, options: options) { $0 }
    }

    @Test func everyPlaceholderHasAValue() {
        for name in Template.placeholders {
            #expect(Template.value(of: name[...], in: snapshot, options: RenderOptions()) != nil, "{\(name)}")
        }
    }

    @Test func placeholderValues() {
        #expect(expand("{taken}/{total}") == "2/5")
        #expect(expand("{progress}% {state}") == "40% late")
        #expect(expand("{next} {next_time}") == "Magnesium 21:00")
        #expect(expand("{streak}") == "4")
        #expect(expand("{message}") == "Iron is 2h 30m late")
        #expect(expand("{text}") == snapshot.text)
        #expect(expand("{icon}", RenderOptions(icons: .ascii)) == "[!]")
    }

    @Test func takenCountsSkippedToo() {
        #expect(Template.expand("{taken}/{total}", snapshot: Fixtures.seoulDone, options: RenderOptions()) { $0 } == "3/3")
    }

    @Test func nothingNextGivesEmptyValues() {
        #expect(Template.expand("[{next}][{next_time}]", snapshot: Fixtures.seoulDone, options: RenderOptions()) { $0 } == "[][]")
    }

    @Test func unknownPlaceholdersAndStrayBracesStay() {
        #expect(expand("{nope} {} { {taken} }{") == "{nope} {} { 2 }{")
        #expect(expand("{{total}}") == "{5}")
    }

    @Test func escapeAppliesToValuesOnly() {
        let out = Template.expand("<{state}>", snapshot: snapshot, options: RenderOptions()) { "[" + $0 + "]" }
        #expect(out == "<[late]>")
    }

    @Test func knownNamesAreExposedForTheConfigLoader() {
        #expect(OutputFormat.names == ["text", "json", "waybar", "polybar", "tmux", "conky", "i3blocks"])
        #expect(RenderOptions.templateNames.allSatisfy { RenderOptions.defaultTemplates[$0] != nil })
        #expect(Set(RenderOptions.defaultColors.keys) == Set(DayState.allCases))
    }

    @Test func colours() {
        #expect(RenderOptions.isValidColor("#a1B2c3"))
        #expect(!RenderOptions.isValidColor("#abc"))
        #expect(!RenderOptions.isValidColor("red"))
        #expect(!RenderOptions.isValidColor("#12345g"))
        let options = Fixtures.customOptions
        #expect(options.color(for: .late) == "#FF0000")
        #expect(options.color(for: .done) == nil, "empty = the bar's foreground")
        #expect(options.color(for: .missed) == nil, "an invalid colour falls back to the bar's foreground")
        #expect(options.color(for: .rest) == RenderOptions.defaultColors[.rest], "a missing state uses the default")
        #expect(RenderOptions().color(for: .upcoming) == nil)
    }
}
