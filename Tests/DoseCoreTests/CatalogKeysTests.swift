import DoseCore
import Foundation
import Testing

/// Every catalog key the sources name exists in English and in Korean: `Catalog.text` shows a
/// missing key as the key itself (`usage.range_two`), so without this test a forgotten entry would
/// print silently. Keys are found as string literals at their call sites in Sources/.
@Suite struct CatalogKeysTests {
    static let sources: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Sources")
    }()

    /// The key literals of `.text("…"`, `.counted("…"`, `refusal("…"` (InputParser) and `text("…" + …)` (a prefix) in every source file.
    static func usedKeys() throws -> (keys: Set<String>, prefixes: Set<String>) {
        let call = try NSRegularExpression(pattern: #"\b(?:text|counted|refusal)\(\s*"([a-z_][a-z0-9_.]*)"(\s*\+)?"#)
        var keys = Set<String>(), prefixes = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for m in call.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let key = Range(m.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
                if m.range(at: 2).location != NSNotFound { prefixes.insert(key) } else { keys.insert(key) }
            }
        }
        return (keys, prefixes)
    }

    @Test("every key used in Sources/ is in the English and the Korean catalog")
    func keysExist() throws {
        let (keys, prefixes) = try Self.usedKeys()
        // The scan finds the call sites at all (a scan that finds nothing would pass anything).
        #expect(keys.count > 150 && keys.contains("usage.duration_unit") && keys.contains("list.pending"), "\(keys.count) keys")
        for catalog in Catalog.all {
            for key in keys.sorted() {
                // `counted` uses `key` and, when it exists, `key.one`; `key` itself is what it falls back to.
                #expect(catalog.templates[key] != nil, "\(catalog.language): no '\(key)'")
            }
            for prefix in prefixes.sorted() {
                #expect(catalog.templates.keys.contains { $0.hasPrefix(prefix) }, "\(catalog.language): nothing under '\(prefix)'")
            }
        }
    }

    /// The `{name}` placeholders of a template.
    static func placeholders(_ template: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    @Test("the usage and list lines say the same things in both languages: same keys, same placeholders")
    func usageAndListAlike() {
        let english = Catalog.english.templates, korean = Catalog.korean.templates
        let keys = english.keys.filter { $0.hasPrefix("usage.") || $0.hasPrefix("list.") }
        #expect(keys.count > 40)
        for key in keys.sorted() {
            guard let k = korean[key] else { Issue.record("ko: no '\(key)'"); continue }
            #expect(Self.placeholders(k) == Self.placeholders(english[key]!), "\(key): \(k) / \(english[key]!)")
        }
    }
}
