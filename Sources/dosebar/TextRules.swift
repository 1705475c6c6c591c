import ArgumentParser
import DoseCore
import Foundation

/// What a person may type as text on the command line: FieldRules' typed bounds and its one
/// definition of a control character, refused as a usage error (64) naming the flag.
enum TextRules {
    /// A medicine name: not only spaces, at most ``FieldRules/typedNameMax`` characters, one line.
    static func name(_ s: String) throws {
        guard !s.isBlank else { throw ValidationError(Catalog.english.text("usage.name_empty")) }
        try text(s, flag: "NAME", max: FieldRules.typedNameMax)
    }

    /// At most `max` characters, no control character (a line break or a tab included).
    static func text(_ s: String, flag: String, max: Int) throws {
        guard s.count <= max else { throw ValidationError(Catalog.english.text("usage.text_too_long", ["flag": flag, "max": String(max)])) }
        if let scalar = FieldRules.firstControl(in: s) {
            throw ValidationError(Catalog.english.text("usage.text_control", ["flag": flag, "code": FieldRules.codePoint(scalar)]))
        }
    }
}
