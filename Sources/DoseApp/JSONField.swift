import DoseCore
import Foundation

/// A value of a parsed JSON file with its path, so that a wrong value is reported by file and field
/// (`dosage-treatments.json: treatments[2].dosage[0].time: expected [hour, minute]`), exit 65.
struct JSONField {
    let file: String
    let path: String
    let value: Any?
    /// What the field belongs to, for a person (`treatment "Aspirin"`): errors name it before the field's path.
    var owner: String? = nil

    /// The whole file at `path`: unreadable or missing is `io` (74), not JSON is `badData` (65).
    static func read(_ path: String) throws -> JSONField {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw DosebarError.io("\(path): " + (exists ? "cannot read it (check its permissions)" : "no such file"))
        }
        do {
            return JSONField(file: name, path: "", value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            throw DosebarError.badData("\(name): not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))")
        }
    }

    func fail(_ expected: String) -> DosebarError {
        .badData("\(file): " + (owner.map { $0 + ": " } ?? "") + "\(path.isEmpty ? (owner == nil ? "the top level" : "the entry") : path): expected \(expected)")
    }

    /// This value as part of `owner`: paths below it start again from here.
    func named(_ owner: String) -> JSONField { JSONField(file: file, path: "", value: value, owner: owner) }

    /// Absent or `null`. By exact type: `value is NSNull` on an object or array bridges all of it to
    /// Foundation first (its cost: Benchmarks/README.md).
    var isAbsent: Bool {
        guard let value else { return true }
        return type(of: value) == NSNull.self
    }

    subscript(key: String) -> JSONField {
        JSONField(file: file, path: path.isEmpty ? key : path + "." + key, value: (value as? [String: Any])?[key], owner: owner)
    }

    func has(_ key: String) -> Bool { !self[key].isAbsent }

    func object() throws -> JSONField {
        guard value is [String: Any] else { throw fail("an object") }
        return self
    }

    var keys: [String] { ((value as? [String: Any])?.keys).map { $0.sorted() } ?? [] }

    func array() throws -> [JSONField] {
        guard let a = value as? [Any] else { throw fail("an array") }
        return a.enumerated().map { JSONField(file: file, path: "\(path)[\($0.offset)]", value: $0.element, owner: owner) }
    }

    func string() throws -> String {
        guard let s = value as? String else { throw fail("a string") }
        return s
    }

    func optionalString() throws -> String? { isAbsent ? nil : try string() }

    /// JSON's `true`/`false` (Foundation hands numbers and booleans over as NSNumber; `1 is Bool` holds).
    private var isBoolean: Bool {
        guard let value else { return false }
        let t = type(of: value)
        if t == Bool.self { return true }
        if t == NSNumber.self || t == String.self { return false }
        return String(describing: t).contains("Boolean")
    }

    func number() throws -> Double {
        guard !isBoolean, let n = value as? NSNumber, n.doubleValue.isFinite else { throw fail("a number") }
        return n.doubleValue
    }

    func int(_ range: ClosedRange<Int>? = nil, _ what: String = "a whole number") throws -> Int {
        guard let d = try? number(), d == d.rounded(), abs(d) < 1e15, range.map({ $0.contains(Int(d)) }) ?? true else {
            throw fail(what)
        }
        return Int(d)
    }

    func bool() throws -> Bool {
        if isBoolean, let b = value as? Bool { return b }
        throw fail("true or false")
    }

    /// `[hour, minute]`.
    func time() throws -> LocalTime {
        let what = "[hour, minute]"
        guard let parts = try? array(), parts.count == 2, let h = try? parts[0].int(0...23), let m = try? parts[1].int(0...59),
              let t = LocalTime(hour: h, minute: m) else { throw fail(what) }
        return t
    }

    /// Epoch milliseconds.
    func instant() throws -> Date {
        guard let ms = try? number(), abs(ms) < 1e14 else { throw fail("a time in epoch milliseconds") }
        return Date(timeIntervalSince1970: ms / 1000)
    }
}
