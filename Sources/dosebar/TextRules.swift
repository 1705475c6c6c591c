import ArgumentParser
import Foundation

/// Checks for user text.
enum TextRules {
    /// A medicine name: 1–100 characters, no control characters, not only spaces.
    static func name(_ s: String) throws {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the medicine name is empty") }
        try text(s, flag: "NAME", max: 100)
    }

    /// At most `max` characters, no control characters.
    static func text(_ s: String, flag: String, max: Int) throws {
        guard s.count <= max else { throw ValidationError("\(flag): at most \(max) characters") }
        guard !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError("\(flag): no line breaks or control characters, please")
        }
    }
}
