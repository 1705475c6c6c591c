import DoseExport
import Testing

/// `JSONObjectView.fields(_:)` finds a table's keys in one walk over an object's entries; each
/// getter must answer as the object's own look-up by key does (absent, `null`, a value of another
/// type, a key json-c kept once of two).
@Suite("JSON fields found in one walk")
struct JSONFieldsTests {
    /// Keys of one length (a bucket to search), a key that is the start of another, one absent.
    static let keys = ["id", "at", "a", "day", "kind", "slot", "stamp", "never", "times", "tracked"]
    static let table = JSONKeyTable(keys)

    static func read<R>(_ text: String, _ body: (JSONObjectView, JSONFields) throws -> R) rethrows -> R? {
        try JSONReader().object(Substring(text)) { o in try body(o, o.fields(table)) }
    }

    static func slot(_ key: String) -> Int { keys.firstIndex(of: key)! }

    @Test("every getter answers as the look-up by key does")
    func sameAsLookUp() throws {
        let text = #"{"id":"x","at":1.5,"a":2,"day":null,"kind":true,"slot":"08:00","stamp":"s","times":["a","b"],"tracked":{"k":1},"other":3}"#
        let matched = try Self.read(text) { o, f -> Bool in try Self.check(o, f); return true }
        #expect(matched == true)
    }

    static func check(_ o: JSONObjectView, _ f: JSONFields) throws {
        #expect(try f.string(Self.slot("id")) == o.string("id"))
        #expect(try f.double(Self.slot("at")) == o.double("at"))
        #expect(try f.int(Self.slot("a")) == o.int("a"))
        #expect(try f.string(Self.slot("day")) == nil)
        #expect(f.isNull(Self.slot("day")) && o.isNull("day"))
        #expect(f.contains(Self.slot("day")) && !f.contains(Self.slot("never")) && !o.contains("never"))
        #expect(!f.isNull(Self.slot("never")))
        #expect(try f.bool(Self.slot("kind")) == o.bool("kind"))
        #expect(try f.string(Self.slot("slot")) == "08:00")
        #expect(try f.strings(Self.slot("times")) == ["a", "b"])
        #expect(try f.object(Self.slot("tracked")) { o throws(JSONTypeMismatch) in try o.int("k") } == 1)
        #expect(throws: JSONTypeMismatch.self) { try f.string(Self.slot("kind")) }
        #expect(throws: JSONTypeMismatch.self) { try f.int(Self.slot("id")) }
        #expect(throws: JSONTypeMismatch.self) { try f.bool(Self.slot("slot")) }
        #expect(throws: JSONTypeMismatch.self) { try f.strings(Self.slot("a")) }
        #expect(throws: JSONTypeMismatch.self) { try f.object(Self.slot("times")) { _ throws(JSONTypeMismatch) in 0 } }
    }

    @Test("an empty object and an object of none of the keys leave every slot absent")
    func noneOfTheKeys() throws {
        for text in ["{}", #"{"ID":"x","i":"y","idx":"z","":1}"#] {
            let absent = Self.read(text) { _, f in Self.keys.indices.allSatisfy { !f.contains($0) } }
        #expect(absent == true, "\(text)")
        }
    }
}
