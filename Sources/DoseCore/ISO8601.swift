import Foundation

/// Fast ISO-8601 formatting and parsing with explicit offsets (no formatter objects, no clock).
public enum ISO8601 {
    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` (or `Z` when `offset` is 0 and `zulu` is set).
    public static func format(_ date: Date, offset: Int, zulu: Bool = false) -> String {
        let (d, secs) = LocalInstant.split(Int(unixSecondsOf: date) + offset)
        let c = d.components, a = abs(offset)
        if (0...9999).contains(c.year), a < 100 * 3600 {
            // Written as bytes, not joined from pieces: a timeline holds two instants per entry.
            var b = [UInt8]()
            b.reserveCapacity(25)
            func two(_ v: Int) { b.append(UInt8(48 + v / 10)); b.append(UInt8(48 + v % 10)) }
            two(c.year / 100); two(c.year % 100); b.append(UInt8(ascii: "-")); two(c.month); b.append(UInt8(ascii: "-")); two(c.day)
            b.append(UInt8(ascii: "T")); two(secs / 3600); b.append(UInt8(ascii: ":")); two(secs % 3600 / 60)
            b.append(UInt8(ascii: ":")); two(secs % 60)
            if offset == 0 && zulu {
                b.append(UInt8(ascii: "Z"))
            } else {
                b.append(UInt8(ascii: offset < 0 ? "-" : "+")); two(a / 3600); b.append(UInt8(ascii: ":")); two(a % 3600 / 60)
            }
            return String(decoding: b, as: UTF8.self)
        }
        var s = d.description + "T" + pad(secs / 3600, 2) + ":" + pad(secs % 3600 / 60, 2) + ":" + pad(secs % 60, 2)
        if offset == 0 && zulu { return s + "Z" }
        let sign = offset < 0 ? "-" : "+"
        s += sign + pad(a / 3600, 2) + ":" + pad(a % 3600 / 60, 2)
        return s
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)`; nil when malformed or without an offset.
    public static func parse(_ text: String) -> Date? {
        let u = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= u.count else { return nil }
            var v = 0
            for i in from..<(from + len) {
                let c = u[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard u.count >= 17, let y = num(0, 4), u[4] == 45, let mo = num(5, 2), u[7] == 45, let d = num(8, 2),
              u[10] == 84 || u[10] == 116 || u[10] == 32, let h = num(11, 2), u[13] == 58, let mi = num(14, 2),
              let date = LocalDate(year: y, month: mo, day: d), h < 24, mi < 60 else { return nil }
        var i = 16
        var sec = 0.0
        if i < u.count, u[i] == 58 {
            guard let s = num(i + 1, 2), s < 60 else { return nil }
            sec = Double(s); i += 3
            if i < u.count, u[i] == 46 {
                var frac = 0.0, scale = 0.1
                i += 1
                let begin = i
                while i < u.count, u[i] >= 48, u[i] <= 57 { frac += Double(u[i] - 48) * scale; scale /= 10; i += 1 }
                guard i > begin else { return nil }
                sec += frac
            }
        }
        guard i < u.count else { return nil }
        var offset = 0
        if u[i] == 90 || u[i] == 122 {
            guard i + 1 == u.count else { return nil }
        } else if u[i] == 43 || u[i] == 45 {
            let sign = u[i] == 45 ? -1 : 1
            guard let oh = num(i + 1, 2) else { return nil }
            var om = 0
            if i + 3 == u.count { om = 0 }
            else if u.count == i + 6, u[i + 3] == 58, let m = num(i + 4, 2) { om = m }
            else if u.count == i + 5, let m = num(i + 3, 2) { om = m }
            else { return nil }
            guard oh <= 14, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else { return nil }
        let local = Double(date.dayNumber * 86400 + h * 3600 + mi * 60) + sec
        return Date(timeIntervalSince1970: local - Double(offset))
    }
}
