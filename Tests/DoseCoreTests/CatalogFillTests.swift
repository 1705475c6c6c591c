import DoseCore
import Testing

/// `Catalog.fill` scans its template as bytes: it must give what filling by Character gives, for
/// every template of both catalogs and for the odd ones (an unknown key, an unclosed brace,
/// Korean and emoji around the braces).
@Suite struct CatalogFillTests {
    /// The rule, by Character: `{key}` becomes its value; an unknown key stays as written; from an
    /// unclosed `{` on, the text stays as it is. (The fill by Character before it wrote the text
    /// before an unclosed `{` twice; no template has one.)
    static func reference(_ template: String, _ args: [String: String]) -> String {
        var out = "", rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            out += args[key] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    static let args = ["name": "비타민 D 💊", "time": "08:00", "count": "3", "late": "2h 30m", "empty": ""]

    @Test("the odd templates", arguments: [
        "", "no braces", "{name}", "{name}{time}", "at {time}: {name} ({count})", "{unknown} stays", "{name} {unknown}",
        "unclosed {name", "{", "}", "}{", "{}", "{{name}}", "💊 {name} 복용 {time} 🕗", "{empty}|{empty}", "끝 {",
    ])
    func odd(_ template: String) {
        #expect(Catalog.fill(template, Self.args) == Self.reference(template, Self.args))
    }

    @Test("every template of both catalogs")
    func everyTemplate() {
        var filled = 0
        for catalog in Catalog.all {
            for (key, template) in catalog.templates {
                #expect(Catalog.fill(template, Self.args) == Self.reference(template, Self.args), "\(catalog.language): \(key)")
                if template.contains("{") { filled += 1 }
            }
        }
        #expect(filled > 100, "only \(filled) templates have arguments")
    }

    @Test func fillsWhatItKnows() {
        #expect(Catalog.fill("Take {name} at {time} {x}", ["name": "Aspirin", "time": "08:00"]) == "Take Aspirin at 08:00 {x}")
    }
}
