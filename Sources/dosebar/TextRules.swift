import ArgumentParser
import DoseCore
import Foundation

/// Checks for user text.
enum TextRules {
    /// A medicine name: 1–100 characters, no control characters, not only spaces.
    static func name(_ s: String) throws {
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError(Catalog.english.text("usage.name_empty")) }
        try text(s, flag: "NAME", max: 100)
    }

    /// At most `max` characters, no control characters.
    static func text(_ s: String, flag: String, max: Int) throws {
        guard s.count <= max else { throw ValidationError(Catalog.english.text("usage.text_too_long", ["flag": flag, "max": String(max)])) }
        guard !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError(Catalog.english.text("usage.text_control", ["flag": flag]))
        }
    }
}
