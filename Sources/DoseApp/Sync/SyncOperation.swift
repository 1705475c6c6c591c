import DoseCore
import Foundation

/// One change, as one line of a device's file `DIR/dosebar/DEVICE.jsonl` (DESIGN §10).
///
/// Every operation has a globally unique `id`, the `device` that made it and a hybrid logical
/// clock `stamp` (``SyncClock``). Medicines are named by a global id (`medicine`), never by a
/// local row id. The fields a kind uses:
///
/// | kind       | fields                                                             |
/// |------------|--------------------------------------------------------------------|
/// | `add`      | name, dose, group, note, per_dose, low_days, distinct_from, tracked_from |
/// | `edit`     | changed (the names of the details it changed: a rename is `["name"]`) and their new values |
/// | `archive`  | archived_on (absent: active again)                                 |
/// | `schedule` | effective, schedule                                                |
/// | `stock`    | stock (an absolute value; absent: not tracked) — `refill --set`    |
/// | `refill`   | units (added)                                                      |
/// | `take`, `skip` | day, slot (`HH:MM`, absent for an as-needed dose), at, units, time_known, over_limit, tracked_from |
/// | `undo`     | target (the id of the `take`/`skip` it reverts), at                 |
/// | `purge`    | (medicine only): delete it and all its history, skip its later operations |
///
/// A line of an unknown kind (a newer dosebar) is kept and waits, never applied.
///
/// `tracked_from` (DESIGN §3 Tracking start), Unix seconds like `at`: of an `add`, the instant the
/// medicine is tracked from (`null`: from its first schedule day; absent, a line of an older
/// dosebar: from the add's stamp); of a `take`/`skip` (an imported dose before the tracking start),
/// the medicine is tracked from that instant at the latest. Every device keeps the earliest it was
/// given, so all of them judge the same slots.
public struct SyncOperation: Codable, Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case add, edit, archive, schedule, stock, refill, take, skip, undo, purge
    }

    public var id: String
    public var device: String
    public var stamp: String
    public var kind: String
    public var medicine: String?
    public var name: String?
    public var dose: String?
    public var group: String?
    public var note: String?
    /// Amounts (`per_dose`, `stock`, `units`) are JSON numbers: whole values as integers (`1`, what
    /// an older dosebar reads), fractions as decimals to hundredths (`0.5`); see ``Amount``.
    public var perDose: Amount?
    public var lowDays: Int?
    /// Of an `add`: the medicines of its name the adding device had (removed or renamed away), by
    /// global id: the new medicine is none of them.
    public var distinctFrom: [String]?
    /// Of an `edit`: which details it changed (absent: all of them).
    public var changed: [String]?
    public var archivedOn: String?
    public var effective: String?
    public var schedule: SyncSchedule?
    public var stock: Amount?
    public var units: Amount?
    public var day: String?
    public var slot: String?
    /// Unix seconds.
    public var at: Double?
    public var timeKnown: Bool?
    /// `true` on a take of an as-needed dose recorded with `--force` beyond its limits; absent otherwise.
    public var overLimit: Bool?
    public var target: String?
    /// See the type's notes. Never a decoded value a line did not carry as a number or `null`: such a
    /// line is refused by the gate (``malformed``).
    public var trackedFrom: TrackingStart?

    enum CodingKeys: String, CodingKey {
        case id, device, stamp, kind, medicine, name, dose, group, note, perDose = "per_dose", lowDays = "low_days", changed
        case distinctFrom = "distinct_from"
        case archivedOn = "archived_on", effective, schedule, stock, units, day, slot, at, timeKnown = "time_known", overLimit = "over_limit", target
        case trackedFrom = "tracked_from"
    }

    /// The amount fields of a read line whose number has more than two decimals (`per_dose: 0.125`):
    /// left out of the operation and named here, so the gate refuses the line saying why. Never written.
    public var inexact: [String] = []
    /// The fields of a read line whose value is not of the form the field takes (`tracked_from: "x"`):
    /// left out and named here, so the gate refuses the line saying why. Never written.
    public var malformed: [String] = []

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        device = try c.decode(String.self, forKey: .device)
        stamp = try c.decode(String.self, forKey: .stamp)
        kind = try c.decode(String.self, forKey: .kind)
        medicine = try c.decodeIfPresent(String.self, forKey: .medicine)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        dose = try c.decodeIfPresent(String.self, forKey: .dose)
        group = try c.decodeIfPresent(String.self, forKey: .group)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        lowDays = try c.decodeIfPresent(Int.self, forKey: .lowDays)
        distinctFrom = try c.decodeIfPresent([String].self, forKey: .distinctFrom)
        changed = try c.decodeIfPresent([String].self, forKey: .changed)
        archivedOn = try c.decodeIfPresent(String.self, forKey: .archivedOn)
        effective = try c.decodeIfPresent(String.self, forKey: .effective)
        schedule = try c.decodeIfPresent(SyncSchedule.self, forKey: .schedule)
        day = try c.decodeIfPresent(String.self, forKey: .day)
        slot = try c.decodeIfPresent(String.self, forKey: .slot)
        at = try c.decodeIfPresent(Double.self, forKey: .at)
        timeKnown = try c.decodeIfPresent(Bool.self, forKey: .timeKnown)
        overLimit = try c.decodeIfPresent(Bool.self, forKey: .overLimit)
        target = try c.decodeIfPresent(String.self, forKey: .target)
        if c.contains(.trackedFrom) {
            if try c.decodeNil(forKey: .trackedFrom) {
                trackedFrom = .firstScheduleDay
            } else if let t = try? c.decode(Double.self, forKey: .trackedFrom) {
                trackedFrom = .instant(t)
            } else {
                malformed.append(CodingKeys.trackedFrom.stringValue)
            }
        }
        for key in [CodingKeys.perDose, .stock, .units] {
            let (value, exact) = try Self.amount(c, key)
            if !exact { inexact.append(key.stringValue) }
            switch key {
            case .perDose: perDose = value
            case .stock: stock = value
            default: units = value
            }
        }
    }

    /// A whole number (today's devices write these), or a decimal to hundredths; a number with
    /// more decimals is not exact (its value left out).
    private static func amount(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> (Amount?, exact: Bool) {
        if let n = try? c.decodeIfPresent(Int.self, forKey: key) { return (Amount(units: n), true) }
        guard let d = try c.decodeIfPresent(Double.self, forKey: key) else { return (nil, true) }
        guard let a = Amount(exactly: d) else { return (nil, false) }
        return (a, true)
    }

    public init(kind: Kind, medicine: String?) {
        id = ""; device = ""; stamp = ""; self.kind = kind.rawValue; self.medicine = medicine
    }

    public var knownKind: Kind? { Kind(rawValue: kind) }

    /// The wire names of a medicine's details (``SyncRegister/details``).
    public static let details = SyncRegister.details.map(\.rawValue)

    /// The amount stock derivation reads, in hundredths (the `operation.amount` column): the stock
    /// value, the refill's or the dose's units.
    var amount: Int? {
        switch knownKind {
        case .stock: stock?.hundredths
        case .refill, .take: units?.hundredths
        default: nil
        }
    }

    /// The file line, without its newline: compact JSON with sorted keys. The operations of one
    /// change share one `encoder` (``lineEncoder()``).
    public func line(encoder: JSONEncoder = lineEncoder()) throws -> String {
        String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The encoder of ``line(encoder:)``: sorted keys, `/` not escaped.
    public static func lineEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Parses one line; nil when it is not a whole operation (a torn or foreign line). A file's
    /// lines share one `decoder`.
    public static func parse(_ line: Substring, decoder: JSONDecoder = JSONDecoder()) -> SyncOperation? {
        parse(Data(line.utf8), decoder: decoder)
    }

    /// ``parse(_:decoder:)`` of a line's bytes (a slice of a file read whole).
    public static func parse(_ line: Data, decoder: JSONDecoder) -> SyncOperation? {
        guard let op = try? decoder.decode(SyncOperation.self, from: line),
              !op.id.isEmpty, !op.device.isEmpty, !op.stamp.isEmpty else { return nil }
        return op
    }
}
