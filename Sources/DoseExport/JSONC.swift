// With JSONReader.swift (reading), the only file that touches json-c. Everything else builds JSON through
// `JSONValue.object { … }` and the two builder types below.
//
// Ownership: a tree is owned by one `JSONValue` (one json-c reference, released in
// `deinit`). Builders are borrowed handles into that tree, valid only inside the closure
// that received them.
// Keys are `StaticString`s: json-c keeps the pointer instead of copying the key
// (`JSON_C_OBJECT_ADD_CONSTANT_KEY`), and every key may be set once per object
// (`JSON_C_OBJECT_ADD_KEY_IS_NEW`), which is what makes building 100k objects cheap.
// For the few places where the same fragment recurs thousands of times (a day's dose list
// across timeline entries), `setRaw`/`appendRaw` attach JSON text rendered once, through
// json-c's own userdata serializer, and `JSONValue.quoted` exposes json-c's string escaper.
import CJSONC
import DoseCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An owned json-c value (usually an object or array), serialised compactly with keys in insertion order.
public final class JSONValue: @unchecked Sendable {
    // @unchecked: the tree is complete and never changed once `object(_:)`/`array(_:)`
    // return, no node is shared with another tree, and serialising (which fills a buffer
    // cached in the root) is done under `lock`.
    fileprivate let raw: OpaquePointer
    private let lock = NSLock()

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit { json_object_put(raw) }

    /// Builds a JSON object.
    public static func object(_ build: (JSONObjectBuilder) -> Void) -> JSONValue {
        let raw = json_object_new_object()!
        build(JSONObjectBuilder(raw: raw))
        return JSONValue(raw: raw)
    }

    /// Builds a JSON array.
    public static func array(_ build: (JSONArrayBuilder) -> Void) -> JSONValue {
        let raw = json_object_new_array()!
        build(JSONArrayBuilder(raw: raw))
        return JSONValue(raw: raw)
    }

    private static let flags = Int32(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

    /// Compact JSON text on one line: no spaces, `/` not escaped, non-ASCII kept as UTF-8.
    public var text: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the compact JSON text as UTF-8 bytes (valid only during the call),
    /// sparing the copy into a `String` for large documents.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        var length = 0
        guard let chars = json_object_to_json_string_length(raw, JSONValue.flags, &length) else {
            return try Array("null".utf8).withUnsafeBufferPointer(body)
        }
        return try chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// `value` as a JSON string literal, quotes included, escaped by json-c.
    public static func quoted(_ value: String) -> String {
        let node = makeString(value)
        defer { json_object_put(node) }
        var length = 0
        guard let chars = json_object_to_json_string_length(node, flags, &length) else { return "\"\"" }
        return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// Fills one JSON object; each key must be set at most once.
public struct JSONObjectBuilder {
    fileprivate let raw: OpaquePointer

    private static let addFlags = UInt32(JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY)

    @inline(__always)
    private func add(_ key: StaticString, _ value: OpaquePointer?) {
        // A StaticString's storage is static, so json-c may keep the pointer.
        let k = UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self)
        if json_object_object_add_ex(raw, k, value, JSONObjectBuilder.addFlags) != 0 {
            json_object_put(value)
        }
    }

    /// Sets a string, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: String?) { add(key, value.map(makeString)) }
    /// Sets an integer, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Int?) { add(key, value.map { json_object_new_int64(Int64($0)) }) }
    /// Sets a boolean, or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Bool?) { add(key, value.map { json_object_new_boolean($0 ? 1 : 0) }) }
    /// Sets an amount as its exact decimal (`30`, `9.5`, `0.25`), or `null` when `value` is nil.
    public func set(_ key: StaticString, _ value: Amount?) { add(key, value.flatMap(makeAmount)) }
    /// Sets `null`.
    public func setNull(_ key: StaticString) { add(key, nil) }

    /// Sets a nested object built by `build`.
    public func setObject(_ key: StaticString, _ build: (JSONObjectBuilder) -> Void) {
        let child = json_object_new_object()!
        build(JSONObjectBuilder(raw: child))
        add(key, child)
    }

    /// Sets a nested array built by `build`.
    public func setArray(_ key: StaticString, _ build: (JSONArrayBuilder) -> Void) {
        let child = json_object_new_array()!
        build(JSONArrayBuilder(raw: child))
        add(key, child)
    }

    /// Sets JSON text rendered elsewhere, written out verbatim. `json` must be one valid,
    /// compact JSON value with no NUL byte (what `JSONValue.text` and `quoted` produce).
    public func setRaw<Bytes: Collection<UInt8>>(_ key: StaticString, json: Bytes) { add(key, makeRaw(json)) }
}

/// Appends to one JSON array.
public struct JSONArrayBuilder {
    fileprivate let raw: OpaquePointer

    @inline(__always)
    private func add(_ value: OpaquePointer?) {
        if json_object_array_add(raw, value) != 0 { json_object_put(value) }
    }

    /// Appends a string, or `null` when `value` is nil.
    public func append(_ value: String?) { add(value.map(makeString)) }
    /// Appends an integer, or `null` when `value` is nil.
    public func append(_ value: Int?) { add(value.map { json_object_new_int64(Int64($0)) }) }
    /// Appends a boolean, or `null` when `value` is nil.
    public func append(_ value: Bool?) { add(value.map { json_object_new_boolean($0 ? 1 : 0) }) }

    /// Appends an object built by `build`.
    public func appendObject(_ build: (JSONObjectBuilder) -> Void) {
        let child = json_object_new_object()!
        build(JSONObjectBuilder(raw: child))
        add(child)
    }

    /// Appends a nested array built by `build`.
    public func appendArray(_ build: (JSONArrayBuilder) -> Void) {
        let child = json_object_new_array()!
        build(JSONArrayBuilder(raw: child))
        add(child)
    }

    /// Appends JSON text rendered elsewhere, written out verbatim (see `JSONObjectBuilder.setRaw`).
    public func appendRaw<Bytes: Collection<UInt8>>(json: Bytes) { add(makeRaw(json)) }
}

/// A node whose serialisation is `json` as is: json-c's userdata serializer copies the
/// NUL-terminated userdata, and `json_object_free_userdata` frees it with the node.
private func makeRaw<Bytes: Collection<UInt8>>(_ json: Bytes) -> OpaquePointer {
    let node = json_object_new_object()!
    let buffer = malloc(json.count + 1)!.bindMemory(to: UInt8.self, capacity: json.count + 1)
    let end = UnsafeMutableBufferPointer(start: buffer, count: json.count).initialize(from: json).1
    buffer[end] = 0
    json_object_set_serializer(node, json_object_userdata_to_json_string, buffer, json_object_free_userdata)
    return node
}

private func makeString(_ value: String) -> OpaquePointer {
    var value = value
    return value.withUTF8 { buffer in
        guard let base = buffer.baseAddress, buffer.count > 0 else { return json_object_new_string_len("", 0)! }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            json_object_new_string_len($0, Int32(buffer.count))!
        }
    }
}

/// An amount as a json-c number written as its decimal text: whole amounts are integers, a
/// fraction is a double whose serialised form is the exact text (`json_object_new_double_s`), so
/// `9.5` is never printed as `9.4999…`.
private func makeAmount(_ a: Amount) -> OpaquePointer? {
    if a.isWhole { return json_object_new_int64(Int64(a.hundredths / 100)) }
    return a.description.withCString { json_object_new_double_s(a.doubleValue, $0) }
}
