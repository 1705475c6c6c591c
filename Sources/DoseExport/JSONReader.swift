// Reading JSON through json-c: the one reader of sync lines (DESIGN §10), and the only file that
// touches json-c (dosebar writes its JSON itself: `JSONWriter.swift`).
//
// json-c builds the tree. Its strict mode still lets through what RFC 8259 refuses, and a line has
// to mean the same on every device whichever dosebar read it, so `JSONReader` refuses a text:
// - with single-quoted strings, `NaN`/`Infinity`, a number like `1.`, a raw control character in
//   a string, or a lone surrogate escape (`\ud800`), which json-c would accept or replace;
// - with an integer beyond what json-c holds exactly (below -2^63 or above 2^64 - 1: it clamps);
// - with a key twice in one object (json-c keeps the last, Foundation's decoder kept the first: no
//   dosebar writes one, and a reader that picked either would be guessing);
// - with bytes that are not UTF-8 anywhere in it, read or not.
// A leading byte order mark is skipped, as Foundation's decoder did.
import CJSONC
import DoseCore
#if canImport(Glibc)
import Glibc
#endif

/// Parses JSON text into json-c trees; one reader per thread, reused for every line.
public final class JSONReader {
    private let tokener: UnsafeMutablePointer<json_tokener>

    public init() {
        tokener = json_tokener_new_ex(512)
        json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8))
    }

    deinit { json_tokener_free(tokener) }

    /// Calls `body` with the object that `bytes` hold; nil when they are not one whole JSON object
    /// (see the file's notes for what is refused), without calling `body`.
    public func object<R>(_ bytes: UnsafeRawBufferPointer, _ body: (JSONObjectView) throws -> R) rethrows -> R? {
        var text = bytes
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF {
            text = UnsafeRawBufferPointer(rebasing: text[3...])
        }
        guard let base = text.baseAddress, text.count < Int32.max,
              let keys = JSONLexicalCheck.keyCount(text) else { return nil }
        json_tokener_reset(tokener)
        guard let root = json_tokener_parse_ex(tokener, base.assumingMemoryBound(to: CChar.self), Int32(text.count)) else {
            return nil
        }
        defer { json_object_put(root) }
        guard json_tokener_get_error(tokener) == json_tokener_success,
              json_object_get_type(root) == json_type_object else { return nil }
        let end = json_tokener_get_parse_end(tokener)
        guard end <= text.count, text[end...].allSatisfy(JSONLexicalCheck.isSpace),
              JSONObjectView.keyCount(root) == keys else { return nil }
        return try body(JSONObjectView(raw: root))
    }

    /// ``object(_:_:)`` of a string's UTF-8 bytes.
    public func object<R>(_ text: Substring, _ body: (JSONObjectView) throws -> R) rethrows -> R? {
        var copy = text
        return try copy.withUTF8 { try object(UnsafeRawBufferPointer($0), body) }
    }
}

/// A value of the wrong type (or out of range) for what the reader asked: the text is not the
/// document the reader expects.
public struct JSONTypeMismatch: Error, Sendable {
    public init() {}
}

/// A JSON object inside a tree that a ``JSONReader`` owns: valid only in the closure it was handed to.
/// A getter returns nil for a key that is absent or `null`, and throws ``JSONTypeMismatch`` for a
/// value of another type.
public struct JSONObjectView {
    fileprivate let raw: OpaquePointer

    private func lookup(_ key: StaticString) -> (present: Bool, value: OpaquePointer?) {
        var value: OpaquePointer?
        let k = UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self)
        let found = json_object_object_get_ex(raw, k, &value) != 0
        return (found, value)
    }

    /// Whether the object has `key`, `null` included.
    public func contains(_ key: StaticString) -> Bool { lookup(key).present }

    /// Whether `key` is present with the value `null`.
    public func isNull(_ key: StaticString) -> Bool {
        let l = lookup(key)
        return l.present && l.value == nil
    }

    public func string(_ key: StaticString) throws(JSONTypeMismatch) -> String? {
        try lookup(key).value.map(JSONObjectView.string)
    }

    /// A whole number: an integer, or a decimal whose value is one (`5.0`, `1e2`).
    public func int(_ key: StaticString) throws(JSONTypeMismatch) -> Int? {
        try lookup(key).value.map(JSONObjectView.int)
    }

    public func double(_ key: StaticString) throws(JSONTypeMismatch) -> Double? {
        try lookup(key).value.map(JSONObjectView.double)
    }

    public func bool(_ key: StaticString) throws(JSONTypeMismatch) -> Bool? {
        guard let v = lookup(key).value else { return nil }
        guard json_object_get_type(v) == json_type_boolean else { throw JSONTypeMismatch() }
        return json_object_get_boolean(v) != 0
    }

    /// An array of strings (a `null` element is a mismatch).
    public func strings(_ key: StaticString) throws(JSONTypeMismatch) -> [String]? {
        try lookup(key).value.map { v throws(JSONTypeMismatch) in try JSONObjectView.array(v, JSONObjectView.string) }
    }

    /// An array of whole numbers (a `null` element is a mismatch).
    public func ints(_ key: StaticString) throws(JSONTypeMismatch) -> [Int]? {
        try lookup(key).value.map { v throws(JSONTypeMismatch) in try JSONObjectView.array(v, JSONObjectView.int) }
    }

    /// A nested object, handed to `body`.
    public func object<R>(_ key: StaticString, _ body: (JSONObjectView) throws(JSONTypeMismatch) -> R) throws(JSONTypeMismatch) -> R? {
        guard let v = lookup(key).value else { return nil }
        guard json_object_get_type(v) == json_type_object else { throw JSONTypeMismatch() }
        return try body(JSONObjectView(raw: v))
    }

    /// The values of `table`'s keys in this object, found in one pass over its entries.
    public func fields(_ table: JSONKeyTable) -> JSONFields {
        var fields = JSONFields(count: table.count)
        JSONObjectView.forEachEntry(of: raw) { key, value in
            if let slot = table.slot(of: key) {
                fields.values[slot] = value
                fields.present |= 1 << UInt64(slot)
            }
        }
        return fields
    }

    fileprivate static func string(_ v: OpaquePointer) throws(JSONTypeMismatch) -> String {
        guard json_object_get_type(v) == json_type_string, let chars = json_object_get_string(v) else {
            throw JSONTypeMismatch()
        }
        // json-c checked the bytes are UTF-8 (JSON_TOKENER_VALIDATE_UTF8).
        return String(decoding: UnsafeRawBufferPointer(start: chars, count: Int(json_object_get_string_len(v))), as: UTF8.self)
    }

    fileprivate static func int(_ v: OpaquePointer) throws(JSONTypeMismatch) -> Int {
        switch json_object_get_type(v) {
        case json_type_int:
            let i = json_object_get_int64(v)
            // Above Int64.max json-c holds a UInt64, and int64 reads clamp.
            if i == Int64.max, json_object_get_uint64(v) != UInt64(Int64.max) { throw JSONTypeMismatch() }
            return Int(i)
        case json_type_double:
            let d = json_object_get_double(v)
            guard let i = Int(exactly: d) else { throw JSONTypeMismatch() }
            return i
        default:
            throw JSONTypeMismatch()
        }
    }

    fileprivate static func double(_ v: OpaquePointer) throws(JSONTypeMismatch) -> Double {
        switch json_object_get_type(v) {
        case json_type_int:
            let i = json_object_get_int64(v)
            if i == Int64.max { return Double(json_object_get_uint64(v)) }
            return Double(i)
        case json_type_double:
            let d = json_object_get_double(v)
            guard d.isFinite else { throw JSONTypeMismatch() }
            // A number too small for a Double (`1e-400`) reads as 0: not the number written.
            if d == 0, let text = json_object_to_json_string_ext(v, Int32(JSON_C_TO_STRING_PLAIN)) {
                var p = text
                while p.pointee != 0, p.pointee != 0x65, p.pointee != 0x45 {
                    if p.pointee >= 0x31, p.pointee <= 0x39 { throw JSONTypeMismatch() }
                    p += 1
                }
            }
            return d
        default:
            throw JSONTypeMismatch()
        }
    }

    fileprivate static func array<T>(_ v: OpaquePointer, _ element: (OpaquePointer) throws(JSONTypeMismatch) -> T) throws(JSONTypeMismatch) -> [T] {
        guard json_object_get_type(v) == json_type_array else { throw JSONTypeMismatch() }
        let n = json_object_array_length(v)
        var out: [T] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            guard let e = json_object_array_get_idx(v, i) else { throw JSONTypeMismatch() }
            out.append(try element(e))
        }
        return out
    }

    /// Each key and value of the object `object`, through json-c's public iterator.
    fileprivate static func forEachEntry(of object: OpaquePointer, _ body: (UnsafePointer<CChar>, OpaquePointer?) -> Void) {
        var it = json_object_iter_begin(object)
        var end = json_object_iter_end(object)
        while json_object_iter_equal(&it, &end) == 0 {
            if let key = json_object_iter_peek_name(&it) { body(key, json_object_iter_peek_value(&it)) }
            json_object_iter_next(&it)
        }
    }

    /// The keys of every object in the tree under `v` (json-c keeps one entry per key).
    fileprivate static func keyCount(_ v: OpaquePointer?) -> Int {
        guard let v else { return 0 }
        switch json_object_get_type(v) {
        case json_type_object:
            var count = 0
            forEachEntry(of: v) { _, value in count += 1 + keyCount(value) }
            return count
        case json_type_array:
            var count = 0
            for i in 0..<json_object_array_length(v) { count += keyCount(json_object_array_get_idx(v, i)) }
            return count
        default:
            return 0
        }
    }
}

/// The keys a reader asks of every object of one kind (a sync line asks 27 and finds about ten),
/// by slot: ``JSONObjectView/fields(_:)`` walks the object's entries once instead of a hash look-up
/// (hashing the key, comparing it) for each key asked, present or not.
public struct JSONKeyTable: Sendable {
    /// The keys' bytes, by length, each with its slot.
    private let byLength: [[(bytes: [UInt8], slot: Int)]]
    public let count: Int

    /// Slot `i` is `keys[i]`; at most 64 keys, each once.
    public init(_ keys: [String]) {
        precondition(keys.count <= 64 && Set(keys).count == keys.count, "JSONKeyTable: at most 64 distinct keys")
        var byLength: [[(bytes: [UInt8], slot: Int)]] = Array(repeating: [], count: (keys.map(\.utf8.count).max() ?? 0) + 1)
        for (slot, key) in keys.enumerated() { byLength[key.utf8.count].append((Array(key.utf8), slot)) }
        self.byLength = byLength
        count = keys.count
    }

    /// The slot of a key as json-c holds it (a C string: the same bytes its own look-up compares).
    fileprivate func slot(of key: UnsafePointer<CChar>) -> Int? {
        let length = strlen(key)
        guard length < byLength.count else { return nil }
        for candidate in byLength[length] where memcmp(candidate.bytes, key, length) == 0 { return candidate.slot }
        return nil
    }
}

/// One object's values for a ``JSONKeyTable``'s keys, read as ``JSONObjectView`` reads a key: a
/// getter returns nil for a key that is absent or `null`, and throws ``JSONTypeMismatch`` for a value
/// of another type. Valid only where the object it was taken from is.
public struct JSONFields {
    fileprivate var values: [OpaquePointer?]
    fileprivate var present: UInt64 = 0

    fileprivate init(count: Int) { values = Array(repeating: nil, count: count) }

    /// Whether the object has the key of `slot`, `null` included.
    public func contains(_ slot: Int) -> Bool { present & (1 << UInt64(slot)) != 0 }

    /// Whether the key of `slot` is present with the value `null`.
    public func isNull(_ slot: Int) -> Bool { contains(slot) && values[slot] == nil }

    public func string(_ slot: Int) throws(JSONTypeMismatch) -> String? {
        try values[slot].map(JSONObjectView.string)
    }

    /// A whole number: an integer, or a decimal whose value is one (`5.0`, `1e2`).
    public func int(_ slot: Int) throws(JSONTypeMismatch) -> Int? {
        try values[slot].map(JSONObjectView.int)
    }

    public func double(_ slot: Int) throws(JSONTypeMismatch) -> Double? {
        try values[slot].map(JSONObjectView.double)
    }

    public func bool(_ slot: Int) throws(JSONTypeMismatch) -> Bool? {
        guard let v = values[slot] else { return nil }
        guard json_object_get_type(v) == json_type_boolean else { throw JSONTypeMismatch() }
        return json_object_get_boolean(v) != 0
    }

    /// An array of strings (a `null` element is a mismatch).
    public func strings(_ slot: Int) throws(JSONTypeMismatch) -> [String]? {
        try values[slot].map { v throws(JSONTypeMismatch) in try JSONObjectView.array(v, JSONObjectView.string) }
    }

    /// A nested object, handed to `body`.
    public func object<R>(_ slot: Int, _ body: (JSONObjectView) throws(JSONTypeMismatch) -> R) throws(JSONTypeMismatch) -> R? {
        guard let v = values[slot] else { return nil }
        guard json_object_get_type(v) == json_type_object else { throw JSONTypeMismatch() }
        return try body(JSONObjectView(raw: v))
    }
}

/// The lexical rules json-c's strict mode does not enforce (see the file's notes), checked over the
/// bytes before json-c parses them.
enum JSONLexicalCheck {
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// The number of keys in the text (strings followed by `:`), or nil when a token is not JSON.
    static func keyCount(_ b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        var i = 0, keys = 0
        var lastWasString = false
        while i < n {
            let c = b[i]
            switch c {
            case 0x22:
                guard let next = string(b, from: i + 1) else { return nil }
                i = next
                lastWasString = true
                continue
            case 0x3A:
                if lastWasString { keys += 1 }
                i += 1
            case 0x20, 0x0A, 0x0D, 0x09:
                i += 1
                continue
            case 0x7B, 0x7D, 0x5B, 0x5D, 0x2C:
                i += 1
            case 0x2D, 0x30...0x39:
                guard let next = number(b, from: i) else { return nil }
                i = next
            case 0x61...0x7A:
                let start = i
                while i < n, (0x61...0x7A).contains(b[i]) { i += 1 }
                let word = UnsafeRawBufferPointer(rebasing: b[start..<i])
                guard word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8)
                        || word.elementsEqual("null".utf8) else { return nil }
            default:
                return nil
            }
            lastWasString = false
        }
        return keys
    }

    /// The index after a string's closing quote, its body starting at `from`; nil when it is cut
    /// off, holds a raw control character, an unknown escape or a lone surrogate.
    private static func string(_ b: UnsafeRawBufferPointer, from: Int) -> Int? {
        let n = b.count
        var i = from
        while i < n {
            let c = b[i]
            if c == 0x22 { return i + 1 }
            if c < 0x20 { return nil }
            guard c == 0x5C else { i += 1; continue }
            guard i + 1 < n else { return nil }
            switch b[i + 1] {
            case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
                i += 2
            case 0x75:
                guard let u = hex4(b, i + 2) else { return nil }
                i += 6
                if (0xDC00...0xDFFF).contains(u) { return nil }
                if (0xD800...0xDBFF).contains(u) {
                    guard i + 1 < n, b[i] == 0x5C, b[i + 1] == 0x75, let low = hex4(b, i + 2),
                          (0xDC00...0xDFFF).contains(low) else { return nil }
                    i += 6
                }
            default:
                return nil
            }
        }
        return nil
    }

    private static func hex4(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int? {
        guard at + 4 <= b.count else { return nil }
        var value = 0
        for i in at..<(at + 4) {
            let c = b[i]
            let digit: Int
            switch c {
            case 0x30...0x39: digit = Int(c - 0x30)
            case 0x41...0x46: digit = Int(c - 0x41 + 10)
            case 0x61...0x66: digit = Int(c - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    /// The index after a number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, followed by a
    /// delimiter); nil when the text there is not one, or an integer json-c would clamp.
    private static func number(_ b: UnsafeRawBufferPointer, from: Int) -> Int? {
        let n = b.count
        var i = from
        func digits() -> Int {
            let start = i
            while i < n, (0x30...0x39).contains(b[i]) { i += 1 }
            return i - start
        }
        let negative = b[i] == 0x2D
        if negative { i += 1 }
        let intStart = i
        let intDigits = digits()
        guard intDigits > 0, intDigits == 1 || b[intStart] != 0x30 else { return nil }
        var integer = true
        if i < n, b[i] == 0x2E {
            i += 1
            guard digits() > 0 else { return nil }
            integer = false
        }
        if i < n, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < n, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard digits() > 0 else { return nil }
            integer = false
        }
        if i < n {
            let c = b[i]
            guard isSpace(c) || c == 0x2C || c == 0x7D || c == 0x5D else { return nil }
        }
        if integer, intDigits >= 19 {
            let text = UnsafeRawBufferPointer(rebasing: b[intStart..<(intStart + intDigits)])
            let limit = negative ? "9223372036854775808" : "18446744073709551615"
            if intDigits > limit.utf8.count { return nil }
            if intDigits == limit.utf8.count, text.lexicographicallyPrecedes(limit.utf8) == false,
               !text.elementsEqual(limit.utf8) { return nil }
        }
        return i
    }
}
