import Foundation

/// A zone's abbreviation at an instant as the tz database writes it (`KST`, `EST`, `EDT`): the POSIX
/// rule at the end of the zone's file names its standard and daylight time. Foundation on Linux
/// says `GMT-5`, which is the fallback (also for numeric names like `<+0530>`).
enum ZoneAbbreviation {
    static func of(_ tz: TimeZone, at instant: Date) -> String {
        let fallback = tz.abbreviation(for: instant) ?? tz.identifier
        guard let rule = posixRule(tz.identifier) else { return fallback }
        let names = rule.names
        let name = tz.isDaylightSavingTime(for: instant) ? names.daylight : names.standard
        return name ?? fallback
    }

    /// The rule's standard and daylight names, nil for a numeric one (`<+09>`).
    static func posixRule(_ identifier: String) -> (names: (standard: String?, daylight: String?), text: String)? {
        guard !identifier.contains(".."), identifier.utf8.count < 128,
              let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + identifier),
              data.count > 2, data.last == 0x0A else { return nil }
        let bytes = data.dropLast()
        guard let newline = bytes.lastIndex(of: 0x0A) else { return nil }
        let text = String(decoding: bytes[(newline + 1)...], as: UTF8.self)
        var names: [String?] = []
        var i = text.startIndex
        while i < text.endIndex, names.count < 2 {
            let c = text[i]
            if c == "<" {
                guard let close = text[i...].firstIndex(of: ">") else { break }
                names.append(nil)
                i = text.index(after: close)
            } else if c.isLetter {
                var j = i
                while j < text.endIndex, text[j].isLetter { j = text.index(after: j) }
                names.append(String(text[i..<j]))
                i = j
            } else if c == "," {
                break
            } else {
                i = text.index(after: i)
            }
        }
        guard !names.isEmpty else { return nil }
        return ((names[0], names.count > 1 ? names[1] : nil), text)
    }
}
