import Foundation

/// Reads the common line of a device's file — a flat object of plain strings, numbers and
/// booleans, as every take and skip is — straight from its bytes, without `JSONDecoder` (which
/// cost a sixth of applying another device's whole history).
///
/// Anything else (a nested schedule, a list, an escape, a non-ASCII or unknown field, a missing
/// id) is nil: ``SyncOperation/parse(_:)`` reads it, and decides. So whatever this reads, the
/// decoder reads the same.
enum SyncLineScanner {
    static func operation(_ line: UnsafeRawBufferPointer) -> SyncOperation? {
        var scanner = Scanner(bytes: line)
        guard var op = scanner.object() else { return nil }
        guard !op.id.isEmpty, !op.device.isEmpty, !op.stamp.isEmpty, !op.kind.isEmpty else { return nil }
        return op
    }

    private enum Value {
        case string(String)
        case number(Substring)
        case bool(Bool)
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func object() -> SyncOperation? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var op = SyncOperation(kind: .add, medicine: nil)
            op.kind = ""
            var seen: [String] = []
            repeat {
                guard case .string(let key)? = value(), take(UInt8(ascii: ":")), let value = value(),
                      !seen.contains(key), set(key, value, &op) else { return nil }
                seen.append(key)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), i == bytes.count else { return nil }
            return op
        }

        private func set(_ key: String, _ value: Value, _ op: inout SyncOperation) -> Bool {
            switch (key, value) {
            case ("id", .string(let s)): op.id = s
            case ("device", .string(let s)): op.device = s
            case ("stamp", .string(let s)): op.stamp = s
            case ("kind", .string(let s)): op.kind = s
            case ("medicine", .string(let s)): op.medicine = s
            case ("name", .string(let s)): op.name = s
            case ("dose", .string(let s)): op.dose = s
            case ("group", .string(let s)): op.group = s
            case ("note", .string(let s)): op.note = s
            case ("archived_on", .string(let s)): op.archivedOn = s
            case ("effective", .string(let s)): op.effective = s
            case ("day", .string(let s)): op.day = s
            case ("slot", .string(let s)): op.slot = s
            case ("target", .string(let s)): op.target = s
            case ("per_dose", .number(let n)): guard let v = Int(n) else { return false }; op.perDose = v
            case ("low_days", .number(let n)): guard let v = Int(n) else { return false }; op.lowDays = v
            case ("stock", .number(let n)): guard let v = Int(n) else { return false }; op.stock = v
            case ("units", .number(let n)): guard let v = Int(n) else { return false }; op.units = v
            case ("at", .number(let n)): guard let v = Double(n) else { return false }; op.at = v
            case ("time_known", .bool(let b)): op.timeKnown = b
            default: return false
            }
            return true
        }

        private mutating func digits() -> Int {
            let start = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - start
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A plain string (printable ASCII, no escape), a number (digits, a sign, a fraction) or a boolean.
        private mutating func value() -> Value? {
            guard i < bytes.count else { return nil }
            let start = i
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    guard bytes[i] >= 0x20, bytes[i] < 0x80, bytes[i] != UInt8(ascii: "\\") else { return nil }
                    i += 1
                }
                guard i < bytes.count else { return nil }
                i += 1
                return .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(i - 1)]), as: UTF8.self))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // JSON's own: no leading zero, digits after a point; an exponent is left to the decoder.
                _ = take(UInt8(ascii: "-"))
                let whole = i
                guard digits() > 0, bytes[whole] != UInt8(ascii: "0") || i == whole + 1 else { return nil }
                if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                return .number(Substring(text))
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                for word in ["true", "false"] where bytes.count - i >= word.utf8.count
                    && word.utf8.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + word.utf8.count)])) {
                    i += word.utf8.count
                    return .bool(word == "true")
                }
                return nil
            default:
                return nil
            }
        }
    }
}
