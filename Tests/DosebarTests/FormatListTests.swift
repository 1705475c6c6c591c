import DoseExport
import Foundation
import Testing

/// `status --list-formats`: the format registry as scripts and the integration tests read it.
@Suite struct FormatListTests {
    @Test("status --list-formats names every registered format and its file, and export writes each file")
    func listsTheRegistry() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let listed = try h.ok("status", "--list-formats").out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(listed.map { $0.first ?? "" } == OutputFormat.all.map(\.name))
        #expect(listed.allSatisfy { $0.count == 2 }, "\(listed)")
        try h.ok("add", "Aspirin", "--at", "08:00")
        try h.ok("export")
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: h.dir))
        for file in ["timeline.json"] + listed.compactMap({ $0.last }) {
            #expect(written.contains(file), "\(file) listed but not written: \(written.sorted())")
        }
    }
}
