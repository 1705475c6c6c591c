import DoseCore
import Foundation

/// The gate another device's line passes before anything of it is written (DESIGN §9, §10): the
/// form of its id, device and stamp, its kind and the fields that kind needs, and every field it
/// carries through ``FieldRules``, the rules the CLI and import apply. A line that fails is
/// skipped, never half-applied.
///
/// The answer depends on the line alone (an instant is judged against the line's own stamp, not
/// this machine's clock), so every device skips the same lines and converges on the others.
extension SyncOperation {
    /// Why this operation can never be applied, or nil when it passes the gate.
    public func refusal() -> String? {
        do {
            try check()
            return nil
        } catch let v as FieldRules.Violation {
            return "\(v.field): \(v.reason)"
        } catch let e as Refusal {
            return e.reason
        } catch {
            return "\(error)"
        }
    }

    /// A line's fault, in words for the warning and `sync status`.
    struct Refusal: Error {
        var reason: String
    }

    /// The instant of a well-formed stamp (its milliseconds), nil for a malformed one. (Plain loops:
    /// every line of a long history passes here.)
    public static func stampMillis(_ stamp: String, device: String) -> Int64? {
        var stamp = stamp, device = device
        return stamp.withUTF8 { s in
            device.withUTF8 { d -> Int64? in
                guard s.count == 20 + d.count else { return nil }
                var millis: Int64 = 0
                for i in 0..<20 {
                    let c = s[i]
                    if i == 13 || i == 19 {
                        guard c == 0x2D else { return nil }
                    } else {
                        guard c >= 0x30 && c <= 0x39 else { return nil }
                        if i < 13 { millis = millis * 10 + Int64(c &- 0x30) }
                    }
                }
                // The device, byte for byte (a device id is ASCII: ``isDevice``).
                for i in 0..<d.count where s[20 + i] != d[i] { return nil }
                return millis
            }
        }
    }

    /// A lowercase UUID, as ``SyncJournal`` writes operation and medicine ids.
    static func isUUID(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            guard b.count == 36 else { return false }
            for i in 0..<36 {
                let c = b[i]
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard c == 0x2D else { return false }
                } else {
                    guard (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) else { return false }
                }
            }
            return true
        }
    }

    /// A device id: 1 to 64 lowercase letters and digits (``SyncService`` makes 16 hex digits).
    static func isDevice(_ text: String) -> Bool {
        let n = text.utf8.count
        guard n >= 1 && n <= 64 else { return false }
        for c in text.utf8 where !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7A)) { return false }
        return true
    }

    /// `YYYY-MM-DD`, digits only, within ``FieldRules/date(_:field:)``.
    static func day(_ text: String?, _ field: String) throws -> LocalDate {
        guard let text else { throw Refusal(reason: "\(field) is missing") }
        guard let day = LocalDate(canonical: text)
        else { throw Refusal(reason: "\(field) '\(LineHash.printable(text))' is not a date (YYYY-MM-DD)") }
        try FieldRules.date(day, field: field)
        return day
    }

    /// `HH:MM`, digits only, 00:00 to 23:59.
    static func time(_ text: String, _ field: String) throws -> LocalTime {
        guard text.utf8.count == 5, let t = LocalTime(text), t.description == text else {
            throw Refusal(reason: "\(field) '\(LineHash.printable(text))' is not a time (HH:MM, 00:00 to 23:59)")
        }
        return t
    }

    private func require<T>(_ value: T?, _ field: String) throws -> T {
        guard let value else { throw Refusal(reason: "\(field) is missing (a '\(kind)' needs it)") }
        return value
    }

    private func check() throws {
        guard Self.isUUID(id) else { throw Refusal(reason: "id '\(LineHash.printable(id))' is not an operation id (a lowercase UUID)") }
        guard Self.isDevice(device) else { throw Refusal(reason: "device '\(LineHash.printable(device))' is not a device id") }
        guard let millis else {
            throw Refusal(reason: "stamp '\(LineHash.printable(stamp))' is malformed (13 digits, '-', 5 digits, '-', the device)")
        }
        if let field = inexact.first { throw Refusal(reason: "\(field): an amount takes at most two decimals (hundredths)") }
        if let field = malformed.first { throw Refusal(reason: "\(field) is not an instant (Unix seconds) or null") }
        guard let kind = knownKind else { throw Refusal(reason: "unknown kind '\(LineHash.printable(self.kind))'") }
        if kind == .zone {
            // The zone log names no medicine: an instant and a zone every device knows.
            guard medicine == nil else { throw Refusal(reason: "a 'zone' names no medicine") }
            try Self.instant(try require(at, "at"), stamped: Date(timeIntervalSince1970: Double(millis) / 1000))
            let name = try require(name, "name")
            guard FieldRules.isZoneName(name) else { throw Refusal(reason: "name '\(LineHash.printable(name))' is not a time zone this system knows") }
            return
        }
        let medicine = try require(medicine, "medicine")
        guard Self.isUUID(medicine) else { throw Refusal(reason: "medicine '\(LineHash.printable(medicine))' is not a medicine id") }
        // An instant is judged against the line's own stamp: a device stamps a change after it happened.
        let stamped = Date(timeIntervalSince1970: Double(millis) / 1000)
        switch kind {
        case .add:
            try FieldRules.name(try require(name, "name"))
            try details(Self.details)
            for gid in distinctFrom ?? [] where !Self.isUUID(gid) {
                throw Refusal(reason: "distinct_from '\(LineHash.printable(gid))' is not a medicine id")
            }
            guard (distinctFrom ?? []).count <= 10_000 else { throw Refusal(reason: "distinct_from names too many medicines") }
            if case .instant(let t) = trackedFrom { try Self.instant(t, stamped: stamped, field: "tracked_from") }
        case .edit:
            let fields = changed ?? Self.details
            for field in fields where !Self.details.contains(field) {
                throw Refusal(reason: "changed names an unknown detail '\(LineHash.printable(field))'")
            }
            if fields.contains("name") { try FieldRules.name(try require(name, "name")) }
            try details(fields)
        case .purge:
            break
        case .archive:
            if archivedOn != nil { _ = try Self.day(archivedOn, "archived_on") }
        case .schedule:
            _ = try Self.day(effective, "effective")
            let s = try require(schedule, "schedule")
            guard let parsed = s.schedule else {
                guard ["daily", "weekdays", "every_days", "every_weeks", "every_months", "cycle", "as_needed"].contains(s.kind) else {
                    throw Refusal(reason: "unknown schedule kind '\(LineHash.printable(s.kind))'")
                }
                _ = try Self.day(s.start, "schedule.start")
                if let until = s.until { _ = try Self.day(until, "schedule.until") }
                for t in s.times { _ = try Self.time(t, "schedule.times") }
                throw Refusal(reason: "schedule '\(s.kind)' lacks a value it needs")
            }
            _ = try Self.day(s.start, "schedule.start")
            if let until = s.until { _ = try Self.day(until, "schedule.until") }
            for t in s.times { _ = try Self.time(t, "schedule.times") }
            for d in s.weekdays ?? [] where !(1...7).contains(d) { throw Refusal(reason: "schedule.weekdays has \(d) (1 = Monday … 7 = Sunday)") }
            do { try FieldRules.schedule(parsed) } catch { throw Refusal(reason: "schedule \(error.field): \(error.reason)") }
            // The version's dose (absent on a line of an older dosebar).
            try FieldRules.doseText(dose)
            if let perDose { try FieldRules.perDose(perDose) }
            // The amount of each time: canonical, with a `per_dose`, and naming the schedule's times.
            if let perDoseTimes {
                guard perDose != nil, let list = PerTimeDose.entries(perDoseTimes), list.map(\.time) == parsed.times else {
                    throw Refusal(reason: "per_dose_times is not one amount for each of the schedule's times, in order, with a per_dose")
                }
            }
        case .stock:
            if let stock { try FieldRules.stock(stock) }
        case .refill:
            try FieldRules.units(try require(units, "units"))
        case .take, .skip:
            let day = try Self.day(day, "day")
            if let slot { _ = try Self.time(slot, "slot") }
            let at = try require(at, "at")
            try Self.instant(at, stamped: stamped)
            // A slot's day is near when it was taken (a late take, a back-dated one): never days after it.
            guard day.dayNumber <= Int(max(0, min(at, 1e11)) / 86_400) + 2 else {
                throw Refusal(reason: "day \(day) is days after the dose was taken")
            }
            // 0: an imported dose, which moves no stock.
            if kind == .take, let units, units != .zero { try FieldRules.units(units) }
            // Only an as-needed dose has limits to be beyond.
            if overLimit == true && (kind != .take || slot != nil) {
                throw Refusal(reason: "over_limit is only for a take of an as-needed dose")
            }
            switch trackedFrom {
            case .instant(let t): try Self.instant(t, stamped: stamped, field: "tracked_from")
            case .firstScheduleDay: throw Refusal(reason: "tracked_from of a dose is an instant, not null")
            case nil: break
            }
        case .confirm:
            _ = try Self.day(day, "day")
            _ = try Self.time(try require(slot, "slot"), "slot")
            let confirms = try require(confirms, "confirms")
            guard (2...1_000).contains(confirms.count) else { throw Refusal(reason: "confirms names \(confirms.count) takes (2 to 1000)") }
            for op in confirms where !Self.isUUID(op) {
                throw Refusal(reason: "confirms '\(LineHash.printable(op))' is not an operation id")
            }
        case .zone:
            break
        case .undo:
            let target = try require(target, "target")
            guard Self.isUUID(target) else { throw Refusal(reason: "target '\(LineHash.printable(target))' is not an operation id") }
            if let at { try Self.instant(at, stamped: stamped) }
        }
    }

    /// An instant of a dose, an undo or a tracking start: through the gate, and no later than the operation's stamp
    /// (a device stamps a change after it happened; an hour of slack for an older file).
    static func instant(_ at: Double, stamped: Date, field: String = "at") throws {
        try FieldRules.instant(at, now: stamped, field: field)
        guard at <= stamped.timeIntervalSince1970 + 3_600 else {
            throw Refusal(reason: "\(field) \(at) is after the operation's stamp (\(Int64(stamped.timeIntervalSince1970)))")
        }
    }

    /// The details of an `add` or `edit` among `fields`, through the gate.
    private func details(_ fields: [String]) throws {
        for field in fields {
            switch SyncRegister(rawValue: field) {
            case .name: if let name { try FieldRules.name(name) }
            case .dose: try FieldRules.doseText(dose)
            case .group: try FieldRules.group(group)
            case .note: try FieldRules.note(note)
            case .perDose: if let perDose { try FieldRules.perDose(perDose) }
            case .lowDays: if let lowDays { try FieldRules.lowDays(lowDays) }
            case .repeatMinutes: if let repeatMinutes { try FieldRules.repeatMinutes(repeatMinutes) }
            case .urgent: continue
            case .archive, nil: continue
            }
        }
    }
}
