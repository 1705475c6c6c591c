@testable import DoseCore
import DoseExport
import Foundation
import Testing

/// Every file of the shared directory, for every scenario, against `Expected/<scenario>/<file>`.
@Suite struct RendererGoldenTests {
    @Test(arguments: Fixtures.scenarios.map(\.name))
    func defaultOptions(scenario: String) throws {
        let snapshot = Fixtures.scenarios.first { $0.name == scenario }!.snapshot
        let files = try Exporter().files(for: Fixtures.timeline([snapshot]), now: snapshot.at.date)
        #expect(files.map(\.name) == Exporter.fileNames)
        for file in files { try Golden.check(file.contents, "\(scenario)/\(file.name)") }
    }

    @Test(arguments: ["newyork", "hostile", "seoul", "carried"])
    func customOptions(scenario: String) throws {
        let snapshot = Fixtures.scenarios.first { $0.name == scenario }!.snapshot
        let exporter = Exporter(options: Fixtures.customOptions)
        for format in OutputFormat.all where format != .json {
            try Golden.check(exporter.render(format, snapshot) + "\n", "custom-\(scenario)/\(format.fileName)")
        }
    }

    @Test func nerdIconsAreUsedForIconPlaceholder() {
        let options = RenderOptions(icons: .nerd, templates: ["text": "{icon}"])
        #expect(PlainTextRenderer.render(Fixtures.newYork, options: options) == IconSet.nerd[.late])
    }
}
