import CJSONC
import DoseCore
import DoseExport
import Testing

/// dosebar writes JSON itself (`JSONValue`, as it is built); the bytes must be the ones json-c
/// writes for the same values (DESIGN §4), which these tests build with json-c itself.
@Suite struct JSONWriterTests {
    /// json-c's text for `node` (a tree it owns), with the flags dosebar's files have always used.
    private static func jsonC(_ node: OpaquePointer?) -> String {
        defer { json_object_put(node) }
        var length = 0
        let flags = Int32(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
        guard let chars = json_object_to_json_string_length(node, flags, &length) else { return "<none>" }
        return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private static func jsonCString(_ s: String) -> OpaquePointer? {
        // Through an array: an empty string's buffer has no address.
        let bytes = Array(s.utf8).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { json_object_new_string_len($0.baseAddress!, Int32($0.count - 1)) }
    }

    /// Every byte below 0x80 alone and between letters, quotes, backslashes, slashes, NUL,
    /// DEL, Korean, emoji, a zero-width space and long runs.
    static let strings: [String] = {
        var all = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        all += (0..<0x80).map { "a" + String(UnicodeScalar(UInt8($0))) + "z" }
        all += ["", "\"\"", "\\\\", "//", "a/b\\c\"d", "\u{0}x\u{0}", "\u{7F}", "아스피린 100 mg", "💊 2/3 ✓",
                "\u{200B}", "tab\there\nline\r\n", String(repeating: "é\u{1}", count: 300),
                String(repeating: "x", count: 5000) + "\""]
        return all
    }()

    @Test func stringsAreEscapedAsJsonCEscapesThem() {
        for s in Self.strings {
            #expect(JSONValue.quoted(s) == Self.jsonC(Self.jsonCString(s)), "\(Array(s.utf8).prefix(8))")
        }
    }

    @Test func integersAndAmountsAreWrittenAsJsonCWritesThem() {
        for i in [0, 1, -1, 9, 10, -10, 99, 100, 12345, -98765, Int(Int32.max), Int(Int32.min), Int.max, Int.min] {
            #expect(JSONValue.array { $0.append(i) }.text == "[" + Self.jsonC(json_object_new_int64(Int64(i))) + "]")
        }
        for hundredths in [0, 100, 3000, -200, 950, 25, 1, -5, 123456] {
            let a = Amount(hundredths: hundredths)
            let node = a.isWhole ? json_object_new_int64(Int64(hundredths / 100))
                                 : a.description.withCString { json_object_new_double_s(a.doubleValue, $0) }
            #expect(JSONValue.object { $0.set("a", a) }.text == #"{"a":"# + Self.jsonC(node) + "}")
        }
    }

    /// A JSON value of a few kinds, nested.
    indirect enum Node {
        case string(String), integer(Int), boolean(Bool), null
        case object([Node]), array([Node])

        /// Random trees from a fixed seed: the same ones on every run.
        static func random(_ rng: inout SplitMix, depth: Int) -> Node {
            switch rng.next() % (depth > 3 ? 4 : 6) {
            case 0: return .string(strings[Int(rng.next() % UInt64(strings.count))])
            case 1: return .integer(Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 64))
            case 2: return .boolean(rng.next() % 2 == 0)
            case 3: return .null
            case 4: return .object((0..<Int(rng.next() % 5)).map { _ in random(&rng, depth: depth + 1) })
            default: return .array((0..<Int(rng.next() % 5)).map { _ in random(&rng, depth: depth + 1) })
            }
        }

        /// Object members are named k0, k1, … (StaticStrings, as dosebar's keys are).
        static let keys: [StaticString] = ["k0", "k1", "k2", "k3", "k4"]

        func set(_ o: JSONObjectBuilder, _ key: StaticString) {
            switch self {
            case .string(let s): o.set(key, s)
            case .integer(let i): o.set(key, i)
            case .boolean(let b): o.set(key, b)
            case .null: o.setNull(key)
            case .object(let members): o.setObject(key) { c in for (i, m) in members.enumerated() { m.set(c, Self.keys[i]) } }
            case .array(let items): o.setArray(key) { c in for m in items { m.append(c) } }
            }
        }

        func append(_ a: JSONArrayBuilder) {
            switch self {
            case .string(let s): a.append(s)
            case .integer(let i): a.append(i)
            case .boolean(let b): a.append(b)
            case .null: a.append(nil as Int?)
            case .object(let members): a.appendObject { c in for (i, m) in members.enumerated() { m.set(c, Self.keys[i]) } }
            case .array(let items): a.appendArray { c in for m in items { m.append(c) } }
            }
        }

        /// The same value as a json-c tree.
        var jsonC: OpaquePointer? {
            switch self {
            case .string(let s): return JSONWriterTests.jsonCString(s)
            case .integer(let i): return json_object_new_int64(Int64(i))
            case .boolean(let b): return json_object_new_boolean(b ? 1 : 0)
            case .null: return nil
            case .object(let members):
                let o = json_object_new_object()
                for (i, m) in members.enumerated() { json_object_object_add(o, "k\(i)", m.jsonC) }
                return o
            case .array(let items):
                let a = json_object_new_array()
                for m in items { json_object_array_add(a, m.jsonC) }
                return a
            }
        }
    }

    /// A fixed-seed generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func nestedValuesAreWrittenAsJsonCWritesThem() {
        var rng = SplitMix(state: 26)
        for _ in 0..<2000 {
            let members = (0..<Int(rng.next() % 5)).map { _ in Node.random(&rng, depth: 0) }
            let ours = JSONValue.object { o in for (i, m) in members.enumerated() { m.set(o, Node.keys[i]) } }.text
            #expect(ours == Self.jsonC(Node.object(members).jsonC))
            let items = (0..<Int(rng.next() % 5)).map { _ in Node.random(&rng, depth: 0) }
            #expect(JSONValue.array { a in for m in items { m.append(a) } }.text == Self.jsonC(Node.array(items).jsonC))
        }
    }
}
