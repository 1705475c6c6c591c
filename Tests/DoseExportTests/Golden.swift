import Foundation
import Testing

/// Golden files under `Tests/DoseExportTests/Expected/`. Regenerate them with
/// `DOSEBAR_REGENERATE=1 swift test --filter DoseExportTests`, then review `git diff`.
enum Golden {
    static let regenerating = ProcessInfo.processInfo.environment["DOSEBAR_REGENERATE"] == "1"

    /// The source folder (for regeneration), found from this file's path.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected")

    /// The copy shipped as a test resource.
    static var bundledFolder: URL? { Bundle.module.url(forResource: "Expected", withExtension: nil) }

    /// Compares `actual` with `Expected/<path>`, or writes it there when regenerating.
    static func check(_ actual: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if regenerating {
            let url = sourceFolder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let folder = bundledFolder,
              let expected = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) else {
            Issue.record("missing golden file Expected/\(path); run DOSEBAR_REGENERATE=1 swift test --filter DoseExportTests",
                         sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let message = "Expected/\(path) differs (- expected, + actual; DOSEBAR_REGENERATE=1 to accept):\n"
                + diff(expected, actual)
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// A line diff: common prefix and suffix trimmed, the differing middle shown as -/+ lines.
    static func diff(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        var head = 0
        while head < x.count, head < y.count, x[head] == y[head] { head += 1 }
        var tail = 0
        while tail < x.count - head, tail < y.count - head, x[x.count - 1 - tail] == y[y.count - 1 - tail] { tail += 1 }
        var out = ["@@ line \(head + 1) @@"]
        if head > 0 { out.append("  " + x[head - 1]) }
        out += x[head..<(x.count - tail)].map { "- " + $0 }
        out += y[head..<(y.count - tail)].map { "+ " + $0 }
        if tail > 0 { out.append("  " + x[x.count - tail]) }
        if head < x.count - tail, head < y.count - tail {
            // Long one-line files (JSON): point at the first differing character.
            let l = Array(x[head]), r = Array(y[head])
            var i = 0
            while i < l.count, i < r.count, l[i] == r[i] { i += 1 }
            let from = max(0, i - 30)
            out.append("first difference at character \(i + 1): expected …\(String(l[from..<min(l.count, i + 30)]))…")
            out.append("                                  actual   …\(String(r[from..<min(r.count, i + 30)]))…")
        }
        return out.joined(separator: "\n")
    }
}
