// Writing JSON: every file and line dosebar writes is built through `JSONValue.object { … }` and
// the two builder types below, and written out as it is built, in one byte buffer.
//
// The bytes are the ones json-c writes with JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE
// (DESIGN §4: no spaces, `/` not escaped, keys in the order they were set, non-ASCII kept as
// UTF-8, `"` `\` \b \f \n \r \t escaped by name and the other control characters as `\u00xx` in
// lower case; the tests check this against json-c itself). json-c's tree cost a `take` with 50
// medicines 5.6 M of its 47 M instructions for timeline.json alone (a node, a hash table and a
// free per value, an snprintf per integer); written as it is built, it costs ~1 M
// (Benchmarks/README.md, "Measured reasons in the code"). json-c stays the one reader of JSON
// (`JSONReader`).
//
// A builder is valid only inside the closure that received it, and a closure only builds its
// own value: the builders share the document's buffer, so a value is written where it is set.
import DoseCore

/// A JSON value (usually an object or an array) as compact text on one line.
public final class JSONValue: Sendable {
    private let bytes: [UInt8]

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Builds a JSON object.
    public static func object(_ build: (JSONObjectBuilder) -> Void) -> JSONValue {
        let out = JSONOutput()
        out.open(UInt8(ascii: "{"))
        build(JSONObjectBuilder(out: out))
        out.close(UInt8(ascii: "}"))
        return JSONValue(bytes: out.bytes)
    }

    /// Builds a JSON array.
    public static func array(_ build: (JSONArrayBuilder) -> Void) -> JSONValue {
        let out = JSONOutput()
        out.open(UInt8(ascii: "["))
        build(JSONArrayBuilder(out: out))
        out.close(UInt8(ascii: "]"))
        return JSONValue(bytes: out.bytes)
    }

    /// Compact JSON text on one line: no spaces, `/` not escaped, non-ASCII kept as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` with the compact JSON text as UTF-8 bytes (valid only during the call),
    /// sparing the copy into a `String` for large documents.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }

    /// `value` as a JSON string literal, quotes included.
    public static func quoted(_ value: String) -> String {
        let out = JSONOutput()
        out.string(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// Fills one JSON object; each key must be set at most once.
public struct JSONObjectBuilder {
    fileprivate let out: JSONOutput

    @inline(__always)
    private func key(_ key: StaticString) {
        out.separate()
        out.append(UInt8(ascii: "\""))
        // Keys are dosebar's own names: letters, digits and `_`, nothing to escape.
        out.append(key)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// Sets a string, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { out.string(value) } else { out.null() }
    }
    /// Sets an integer, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Int?) {
        self.key(key)
        if let value { out.integer(value) } else { out.null() }
    }
    /// Sets a boolean, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Bool?) {
        self.key(key)
        if let value { out.boolean(value) } else { out.null() }
    }
    /// Sets an amount as its exact decimal (`30`, `9.5`, `0.25`), or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Amount?) {
        self.key(key)
        if let value { out.amount(value) } else { out.null() }
    }
    /// Sets `null`.
    public func setNull(_ key: StaticString) {
        self.key(key)
        out.null()
    }

    /// Sets a nested object built by `build`.
    public func setObject(_ key: StaticString, _ build: (JSONObjectBuilder) -> Void) {
        self.key(key)
        out.open(UInt8(ascii: "{"))
        build(JSONObjectBuilder(out: out))
        out.close(UInt8(ascii: "}"))
    }

    /// Sets a nested array built by `build`.
    public func setArray(_ key: StaticString, _ build: (JSONArrayBuilder) -> Void) {
        self.key(key)
        out.open(UInt8(ascii: "["))
        build(JSONArrayBuilder(out: out))
        out.close(UInt8(ascii: "]"))
    }

    /// Sets JSON text rendered elsewhere, written out verbatim. `json` must be one valid,
    /// compact JSON value (what `JSONValue.text` and `quoted` produce).
    public func setRaw<Bytes: Collection<UInt8>>(_ key: StaticString, json: Bytes) {
        self.key(key)
        out.raw(json)
    }
}

/// Appends to one JSON array.
public struct JSONArrayBuilder {
    fileprivate let out: JSONOutput

    /// Appends a string, or `null` when `value` is nil.
    public func append(_ value: String?) {
        out.separate()
        if let value { out.string(value) } else { out.null() }
    }
    /// Appends an integer, or `null` when `value` is nil.
    public func append(_ value: Int?) {
        out.separate()
        if let value { out.integer(value) } else { out.null() }
    }
    /// Appends a boolean, or `null` when `value` is nil.
    public func append(_ value: Bool?) {
        out.separate()
        if let value { out.boolean(value) } else { out.null() }
    }

    /// Appends an object built by `build`.
    public func appendObject(_ build: (JSONObjectBuilder) -> Void) {
        out.separate()
        out.open(UInt8(ascii: "{"))
        build(JSONObjectBuilder(out: out))
        out.close(UInt8(ascii: "}"))
    }

    /// Appends a nested array built by `build`.
    public func appendArray(_ build: (JSONArrayBuilder) -> Void) {
        out.separate()
        out.open(UInt8(ascii: "["))
        build(JSONArrayBuilder(out: out))
        out.close(UInt8(ascii: "]"))
    }

    /// Appends JSON text rendered elsewhere, written out verbatim (see `JSONObjectBuilder.setRaw`).
    public func appendRaw<Bytes: Collection<UInt8>>(json: Bytes) {
        out.separate()
        out.raw(json)
    }
}

/// The document being written, shared by the builders of its nested values. Values are written
/// one after the other, each one's closure done before the next begins, so one flag says whether
/// the value being added follows another in its object or array.
private final class JSONOutput {
    // Unchecked: one document is written by one thread, never while another access is under way
    // (checking cost a third of writing an integer).
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Whether the innermost open object or array already has a member.
    @exclusivity(unchecked) private var hasMember = false

    init() { bytes.reserveCapacity(256) }

    @inline(__always) func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A comma before every member but the first.
    @inline(__always) func separate() {
        if hasMember { bytes.append(UInt8(ascii: ",")) }
    }

    func open(_ bracket: UInt8) {
        bytes.append(bracket)
        hasMember = false
    }

    /// Closes the innermost object or array, which is itself a member of the one around it.
    func close(_ bracket: UInt8) {
        bytes.append(bracket)
        hasMember = true
    }

    func null() { append("null"); hasMember = true }

    func boolean(_ value: Bool) { value ? append("true") : append("false"); hasMember = true }

    func integer(_ value: Int) {
        if (0..<10).contains(value) {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            hasMember = true
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as UInt, so Int.min has one too.
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
        hasMember = true
    }

    /// A whole amount as an integer, a fraction as its exact decimal text (`9.5`, `0.25`).
    func amount(_ a: Amount) {
        if a.isWhole {
            integer(a.hundredths / 100)
        } else {
            bytes.append(contentsOf: a.description.utf8)
            hasMember = true
        }
    }

    func raw<Bytes: Collection<UInt8>>(_ json: Bytes) {
        bytes.append(contentsOf: json)
        hasMember = true
    }

    /// `value` quoted, escaped as json-c escapes it.
    func string(_ value: String) {
        var value = value
        value.withUTF8 { text in
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for i in text.indices {
                let c = text[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                if i > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<i])) }
                start = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(c)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              JSONOutput.hex[Int(c >> 4)], JSONOutput.hex[Int(c & 0xF)]])
                }
            }
            if text.count > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...])) }
            bytes.append(UInt8(ascii: "\""))
        }
        hasMember = true
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
