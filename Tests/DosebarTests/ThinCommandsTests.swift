import Foundation
import Testing

/// The command line stays thin (STYLE §2, README "Where things live"): a command opens the store
/// and hands it to a DoseApp service; it never reads or writes it itself, never opens the sync
/// journal or refreshes after a change (the write scope does, once).
@Suite struct ThinCommandsTests {
    static let commands: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Sources/dosebar")
    }()

    /// What only DoseApp may do, as it is spelled in code.
    static let forbidden = ["import DoseStore", "StoreReader", "StoreWriter", "store.read", "store.write", ".read {", ".read({",
                            "SyncJournal", "Refresh.afterChange", "WriteScope"]

    @Test("no file of Sources/dosebar imports DoseStore, reads or writes the store, or does the write scope's steps")
    func noCommandTouchesTheStore() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.commands.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 30, "the commands' folder was found")
        for file in files.sorted() {
            let text = try String(contentsOf: Self.commands.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for word in Self.forbidden where code.contains(word) {
                    Issue.record("\(file):\(number + 1): \(word): move it into a DoseApp service")
                }
            }
        }
    }
}
