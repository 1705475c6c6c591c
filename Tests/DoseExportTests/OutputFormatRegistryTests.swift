import DoseCore
import Foundation
import Testing
@testable import DoseExport

/// The format registry (`OutputFormat.all`) is the one list every part reads: a renderer that is
/// not in it, or two entries that clash, fail here.
@Suite struct OutputFormatRegistryTests {
    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/DoseExport")
    }

    /// The types DoseExport's sources declare as `BarRenderer`s (`enum NAME: BarRenderer`,
    /// `extension NAME: BarRenderer`).
    static func declaredRenderers(in dir: URL = sources) throws -> Set<String> {
        var names = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { " :{,".contains($0) })
                guard let at = words.firstIndex(where: { ["enum", "struct", "extension", "final", "class"].contains($0) }),
                      words.dropFirst(at + 1).contains("BarRenderer") else { continue }
                let name = words.dropFirst(at).first(where: { !["enum", "struct", "extension", "final", "class"].contains($0) })
                if let name { names.insert(String(name)) }
            }
        }
        return names
    }

    @Test func everyRendererIsRegistered() throws {
        let declared = try Self.declaredRenderers()
        let registered = Set(OutputFormat.all.map { String(describing: $0.renderer) })
        #expect(declared.count >= 7, "the source scan found \(declared.sorted())")
        #expect(declared.subtracting(registered).isEmpty,
                "renderers with no OutputFormat entry: \(declared.subtracting(registered).sorted()) — add one to OutputFormat.all")
    }

    @Test func theScanSeesAnUnregisteredRenderer() throws {
        // The check above can fail: a renderer declared in a copy of the sources is reported.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "public enum SwaybarRenderer: BarRenderer {\n}\nextension Foo: Equatable {}\n"
            .write(to: dir.appendingPathComponent("SwaybarRenderer.swift"), atomically: true, encoding: .utf8)
        let declared = try Self.declaredRenderers(in: dir)
        #expect(declared == ["SwaybarRenderer"])
        let registered = Set(OutputFormat.all.map { String(describing: $0.renderer) })
        #expect(declared.subtracting(registered) == ["SwaybarRenderer"])
    }

    @Test func namesFilesTemplatesAndNudgesAreUnique() {
        let all = OutputFormat.all
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(Set(all.map(\.fileName)).count == all.count && !all.map(\.fileName).contains("timeline.json"))
        #expect(Set(OutputFormat.defaultTemplates.map(\.key)).count == OutputFormat.defaultTemplates.count)
        #expect(Set(OutputFormat.nudges.map(\.key)).count == OutputFormat.nudges.count)
        #expect(Set(OutputFormat.clients).count == OutputFormat.clients.count)
    }

    @Test func everyPartReadsTheRegistry() {
        #expect(Exporter.fileNames == ["timeline.json"] + OutputFormat.all.map(\.fileName))
        #expect(Set(OutputFormat.names) == Set(OutputFormat.all.map(\.name)))
        #expect(RenderOptions.templateNames == OutputFormat.defaultTemplates.map(\.key))
        for format in OutputFormat.all {
            #expect(OutputFormat(name: format.name.uppercased()) == format)
            for t in format.templates { #expect(RenderOptions().template(t.key) == t.template) }
        }
    }
}
