import DoseCore
import Foundation

/// FNV-1a (64 bits) of a line's bytes: what tells two versions of one operation apart, and a
/// skipped line already warned about. Not a defence against a forger (who can write any line).
public enum LineHash {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: h)
    }

    /// ``of(_:)`` of a data slice, through its raw bytes.
    public static func of(_ data: Data) -> Int64 {
        data.withUnsafeBytes { of($0) }
    }

    public static func of(_ text: String) -> Int64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// Text from a file made safe to print on a terminal: control and bidirectional-override
    /// characters as `?`, at most `limit` characters.
    public static func printable(_ text: String, limit: Int = 64) -> String {
        let safe = text.unicodeScalars.prefix(limit).map { s -> Character in
            FieldRules.isUnprintable(s) ? "?" : Character(s)
        }
        return String(safe) + (text.unicodeScalars.count > limit ? "…" : "")
    }
}
