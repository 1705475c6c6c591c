import Foundation
import Testing

/// Golden files under `Tests/DoseExportTests/Expected/`. Regenerate them after an intended change with
///
///     DOSEBAR_REGENERATE=1 swift test --filter DoseExportTests
///
/// then review `git diff Tests/DoseExportTests/Expected` against DESIGN. Only `1` or `true` regenerate;
/// `0`, `false`, empty or anything else compares. A failed comparison prints a line diff.
enum Golden {
    static let regenerating = isOn(ProcessInfo.processInfo.environment["DOSEBAR_REGENERATE"])

    /// Whether an environment flag asks for something: `1` or `true` (any case), nothing else.
    static func isOn(_ value: String?) -> Bool {
        guard let v = value?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return v == "1" || v == "true"
    }

    /// The source folder (for regeneration), found from this file's path.
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected")

    /// The copy shipped as a test resource.
    static var bundledFolder: URL? { Bundle.module.url(forResource: "Expected", withExtension: nil) }

    /// Compares `actual` with `Expected/<path>`, or writes it there when regenerating.
    static func check(_ actual: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if regenerating {
            let url = sourceFolder.appendingPathComponent(path)
            guard (try? String(contentsOf: url, encoding: .utf8)) != actual else { return }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            print("regenerated Expected/\(path)")
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

    /// A line diff: common prefix and suffix trimmed, the differing middle shown as -/+ lines. A long
    /// line (one-line JSON) is shown as the stretch around its first difference, with its column.
    static func diff(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        var head = 0
        while head < x.count, head < y.count, x[head] == y[head] { head += 1 }
        var tail = 0
        while tail < x.count - head, tail < y.count - head, x[x.count - 1 - tail] == y[y.count - 1 - tail] { tail += 1 }
        let removed = Array(x[head..<(x.count - tail)]), added = Array(y[head..<(y.count - tail)])
        var out = ["@@ line \(head + 1): \(removed.count) line(s) expected, \(added.count) actual @@"]
        if head > 0 { out.append("  " + clip(x[head - 1], around: 0)) }
        for i in 0..<max(removed.count, added.count) {
            let l = i < removed.count ? Array(removed[i]) : nil, r = i < added.count ? Array(added[i]) : nil
            var at = 0
            if let l, let r { while at < l.count, at < r.count, l[at] == r[at] { at += 1 } }
            let column = (l.map { $0.count > 120 } ?? false) || (r.map { $0.count > 120 } ?? false) ? " (column \(at + 1))" : ""
            if let l { out.append("- " + clip(Substring(String(l)), around: at) + column) }
            if let r { out.append("+ " + clip(Substring(String(r)), around: at) + column) }
        }
        if tail > 0 { out.append("  " + clip(x[x.count - tail], around: 0)) }
        return out.joined(separator: "\n")
    }

    /// A line as is when short, else 60 characters before `index` and 60 after, with ellipses.
    static func clip(_ line: Substring, around index: Int) -> String {
        let c = Array(line)
        guard c.count > 120 else { return String(line) }
        let from = max(0, index - 60), to = min(c.count, index + 60)
        return (from > 0 ? "…" : "") + String(c[from..<to]) + (to < c.count ? "…" : "")
    }
}
