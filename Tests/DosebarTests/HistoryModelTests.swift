import Foundation
import Testing

/// DESIGN §3 History, Reports and Adherence, checked against an independent model (issue 12):
/// `Tests/model/replay.py` builds random histories through the real binary (adds, edits, archives,
/// takes on time, early and late, skips, back-dated doses, undos, as-needed doses) in New York
/// across both DST changes, moving `DOSEBAR_NOW` day by day, records every action in
/// `Tests/model/history_model.py` itself, and compares `history --json`, `stats --json` and
/// `report --format csv|json` with what the model computes, at intermediate nows and at the end.
///
/// This runs its quick mode (two short runs); `python3 Tests/model/replay.py` alone runs the full
/// one (six runs, four zones, ~45 days). A failure prints the first mismatch of each check and
/// keeps the run's directory with a `commands.sh` that replays it.
@Suite struct HistoryModelTests {
    static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("replayed random histories match the model of DESIGN §3 (history, stats, report)",
          .enabled(if: python != nil || Harness.underCI, "needs python3; under CI its absence fails"))
    func replayMatchesModel() throws {
        let python = try #require(Self.python, "python3 is missing")
        let script = Self.repoRoot.appendingPathComponent("Tests/model/replay.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [script, "--binary", Harness.binary, "--quick"]
        var env = ProcessInfo.processInfo.environment
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(p.terminationStatus == 0, "replay.py --quick failed (exit \(p.terminationStatus)):\n\(text)")
        #expect(text.contains(" checks passed, 0 failed"), "replay.py printed no verdict:\n\(text)")
    }
}
