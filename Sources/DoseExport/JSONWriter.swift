// Writing JSON: the shared directory's files, `today --json`, exports and reports are built
// through `JSONValue.object { … }` and the two builder types below, and written out as it is
// built, in one byte buffer. Values that are Codable types written with JSONEncoder (sorted keys)
// stay so: sync lines (their bytes name an operation: `LineHash`), `list --json`, the daemon's
// notification state and a click's notice.
//
// The bytes are the ones json-c writes with JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE
// (DESIGN §4: no spaces, `/` not escaped, keys in the order they were set, non-ASCII kept as
// UTF-8, `"` `\` \b \f \n \r \t escaped by name and the other control characters as `\u00xx` in
// lower case; the tests check this against json-c itself). Written as it is built rather than as
// json-c's tree (a node, a hash table and a free per value, an snprintf per integer), which was
// most of the cost of writing timeline.json on every take (Benchmarks/README.md, "Measured
// reasons in the code"). json-c stays the one reader of JSON (`JSONReader`).
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
        out.object(build)
        return JSONValue(bytes: out.bytes)
    }

    /// Builds a JSON array.
    public static func array(_ build: (JSONArrayBuilder) -> Void) -> JSONValue {
        let out = JSONOutput()
        out.array(build)
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

/// Fills one JSON object; each key must be set at most once. Every value may be nil: `null`.
public struct JSONObjectBuilder {
    fileprivate let out: JSONOutput

    public func set(_ key: StaticString, _ value: String?) { out.key(key); out.string(value) }
    public func set(_ key: StaticString, _ value: Int?) { out.key(key); out.integer(value) }
    public func set(_ key: StaticString, _ value: Bool?) { out.key(key); out.boolean(value) }
    /// An amount as its exact decimal (`30`, `9.5`, `0.25`).
    public func set(_ key: StaticString, _ value: Amount?) { out.key(key); out.amount(value) }
    public func setNull(_ key: StaticString) { out.key(key); out.null() }
    public func setObject(_ key: StaticString, _ build: (JSONObjectBuilder) -> Void) { out.key(key); out.object(build) }
    public func setArray(_ key: StaticString, _ build: (JSONArrayBuilder) -> Void) { out.key(key); out.array(build) }

    /// Sets JSON text rendered elsewhere, written out verbatim. `json` must be one valid,
    /// compact JSON value (what `JSONValue.text` and `quoted` produce).
    public func setRaw<Bytes: Collection<UInt8>>(_ key: StaticString, json: Bytes) { out.key(key); out.raw(json) }
}

/// Appends to one JSON array. Every value may be nil: `null`.
public struct JSONArrayBuilder {
    fileprivate let out: JSONOutput

    public func append(_ value: String?) { out.separate(); out.string(value) }
    public func append(_ value: Int?) { out.separate(); out.integer(value) }
    public func append(_ value: Bool?) { out.separate(); out.boolean(value) }
    public func appendObject(_ build: (JSONObjectBuilder) -> Void) { out.separate(); out.object(build) }
    public func appendArray(_ build: (JSONArrayBuilder) -> Void) { out.separate(); out.array(build) }

    /// Appends JSON text rendered elsewhere, written out verbatim (see `JSONObjectBuilder.setRaw`).
    public func appendRaw<Bytes: Collection<UInt8>>(json: Bytes) { out.separate(); out.raw(json) }
}

/// The document being written, shared by the builders of its nested values. Values are written
/// one after the other, each one's closure done before the next begins, so one flag says whether
/// the value being added follows another in its object or array.
private final class JSONOutput {
    // Unchecked: one document is written by one thread, never while another access is under way,
    // and the check would run at every byte appended.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Whether the innermost open object or array already has a member.
    @exclusivity(unchecked) private var hasMember = false

    init() { bytes.reserveCapacity(256) }

    @inline(__always) func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A comma before every member but the first.
    @inline(__always) func separate() {
        if hasMember { bytes.append(UInt8(ascii: ",")) }
    }

    /// `"key":`, after a comma unless it is the object's first. Keys are dosebar's own names:
    /// letters, digits and `_`, nothing to escape.
    @inline(__always) func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    func object(_ build: (JSONObjectBuilder) -> Void) { open("{"); build(JSONObjectBuilder(out: self)); close("}") }

    func array(_ build: (JSONArrayBuilder) -> Void) { open("["); build(JSONArrayBuilder(out: self)); close("]") }

    @inline(__always) private func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        hasMember = false
    }

    /// The container just closed is itself a member of what holds it.
    @inline(__always) private func close(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        hasMember = true
    }

    func null() { append("null"); hasMember = true }

    // The values, each `null` when nil.

    func boolean(_ value: Bool?) {
        guard let value else { return null() }
        value ? append("true") : append("false")
        hasMember = true
    }

    func integer(_ value: Int?) {
        guard let value else { return null() }
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
    func amount(_ a: Amount?) {
        guard let a else { return null() }
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
    func string(_ value: String?) {
        guard var value else { return null() }
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
