import DoseCore
import DoseExport
import Foundation

/// One change, as one line of a device's file `DIR/dosebar/DEVICE.jsonl` (DESIGN §10).
///
/// Every operation has a globally unique `id`, the `device` that made it and a hybrid logical
/// clock `stamp` (``SyncClock``). Medicines are named by a global id (`medicine`), never by a
/// local row id. The fields a kind uses:
///
/// | kind       | fields                                                             |
/// |------------|--------------------------------------------------------------------|
/// | `add`      | name, dose, group, note, per_dose, low_days, urgent, repeat, distinct_from, tracked_from |
/// | `edit`     | changed (the names of the details it changed: a rename is `["name"]`) and their new values |
/// | `archive`  | archived_on (absent: active again)                                 |
/// | `schedule` | effective, schedule, dose, per_dose, per_dose_times                |
/// | `stock`    | stock (an absolute value; absent: not tracked) — `refill --set`    |
/// | `refill`   | units (added)                                                      |
/// | `take`, `skip` | day, slot (`HH:MM`, absent for an as-needed dose), at, units, time_known, over_limit, tracked_from |
/// | `undo`     | target (the id of the `take`/`skip` it reverts), at                 |
/// | `purge`    | (medicine only): delete it and all its history, skip its later operations |
/// | `confirm`  | day, slot, confirms (the ids of the slot's `take`s taken twice on purpose) |
/// | `zone`     | at, name, first (no medicine): the person is in zone `name` from `at` on (DESIGN §3 "Where the person is"); `first`: a device's first entry, which reaches back to the beginning (the earliest one is the log's) |
///
/// A line of an unknown kind (a newer dosebar) is kept and waits, never applied.
///
/// `tracked_from` (DESIGN §3 Tracking start), Unix seconds like `at`: of an `add`, the instant the
/// medicine is tracked from (`null`: from its first schedule day; absent, a line of an older
/// dosebar: from the add's stamp); of a `take`/`skip` (an imported dose before the tracking start),
/// the medicine is tracked from that instant at the latest. Every device keeps the earliest it was
/// given, so all of them judge the same slots.
public struct SyncOperation: Encodable, Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case add, edit, archive, schedule, stock, refill, take, skip, undo, purge, confirm, zone
    }

    public var id: String
    public var device: String { didSet { readStamp() } }
    public var stamp: String { didSet { readStamp() } }
    public var kind: String { didSet { knownKind = Kind(rawValue: kind) } }
    public var medicine: String?
    public var name: String?
    public var dose: String?
    public var group: String?
    public var note: String?
    /// Amounts (`per_dose`, `stock`, `units`) are JSON numbers: whole values as integers (`1`, what
    /// an older dosebar reads), fractions as decimals to hundredths (`0.5`); see ``Amount``.
    public var perDose: Amount?
    /// Of a `schedule`: the amount of each dose time when they differ (`["20:00=0.5","22:30=1"]`,
    /// each entry in ``PerTimeDose``'s canonical form, amounts as exact decimal text); absent: one
    /// amount, `per_dose`, for every time. An older dosebar ignores it and uses `per_dose`.
    public var perDoseTimes: [String]?
    public var lowDays: Int?
    /// ``Medication/urgent``; absent on a line of an older dosebar (the medicine keeps its own).
    public var urgent: Bool?
    /// ``Medication/repeatMinutes`` (0: never); absent: the configuration's default, or the line of an older dosebar.
    public var repeatMinutes: Int?
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
    public var day: String? { didSet { dayDate = day.flatMap { LocalDate($0) } } }
    public var slot: String? { didSet { slotTime = slot.flatMap { LocalTime($0) } } }
    /// Unix seconds.
    public var at: Double?
    public var timeKnown: Bool?
    /// `true` on a take of an as-needed dose recorded with `--force` beyond its limits; absent otherwise.
    public var overLimit: Bool?
    public var target: String?
    /// Of a `confirm`: the take operations of one slot the person confirmed were all taken (a
    /// double dose, DESIGN §10).
    public var confirms: [String]?
    /// See the type's notes. Never a decoded value a line did not carry as a number or `null`: such a
    /// line is refused by the gate (``malformed``).
    public var trackedFrom: TrackingStart?
    /// Of a `zone`: the device's first entry of the log (true), not a change; absent otherwise.
    public var first: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, device, stamp, kind, medicine, name, dose, group, note, perDose = "per_dose", lowDays = "low_days", changed
        case perDoseTimes = "per_dose_times"
        case urgent, repeatMinutes = "repeat"
        case distinctFrom = "distinct_from"
        case archivedOn = "archived_on", effective, schedule, stock, units, day, slot, at, timeKnown = "time_known", overLimit = "over_limit", target, confirms
        case trackedFrom = "tracked_from"
        case first
    }

    /// The amount fields of a read line whose number has more than two decimals (`per_dose: 0.125`):
    /// left out of the operation and named here, so the gate refuses the line saying why. Never written.
    public var inexact: [String] = []
    /// The fields of a read line whose value is not of the form the field takes (`tracked_from: "x"`):
    /// left out and named here, so the gate refuses the line saying why. Never written.
    public var malformed: [String] = []

    /// The operation a line's object holds (``parse(_:reader:)``); throws when a field it reads
    /// has a value of another type, or a required one (`id`, `device`, `stamp`, `kind`) is absent.
    init(_ o: JSONObjectView) throws(JSONTypeMismatch) {
        let f = o.fields(Self.fieldTable)
        func required(_ value: String?) throws(JSONTypeMismatch) -> String {
            guard let value else { throw JSONTypeMismatch() }
            return value
        }
        func string(_ field: Field) throws(JSONTypeMismatch) -> String? { try f.string(field.rawValue) }
        id = try required(string(.id))
        device = try required(string(.device))
        stamp = try required(string(.stamp))
        kind = try required(string(.kind))
        knownKind = Kind(rawValue: kind)
        medicine = try string(.medicine)
        name = try string(.name)
        dose = try string(.dose)
        group = try string(.group)
        note = try string(.note)
        lowDays = try f.int(Field.lowDays.rawValue)
        urgent = try f.bool(Field.urgent.rawValue)
        repeatMinutes = try f.int(Field.repeatMinutes.rawValue)
        distinctFrom = try f.strings(Field.distinctFrom.rawValue)
        changed = try f.strings(Field.changed.rawValue)
        perDoseTimes = try f.strings(Field.perDoseTimes.rawValue)
        archivedOn = try string(.archivedOn)
        effective = try string(.effective)
        schedule = try f.object(Field.schedule.rawValue) { s throws(JSONTypeMismatch) in try SyncSchedule(s) }
        day = try string(.day)
        slot = try string(.slot)
        at = try f.double(Field.at.rawValue)
        timeKnown = try f.bool(Field.timeKnown.rawValue)
        overLimit = try f.bool(Field.overLimit.rawValue)
        target = try string(.target)
        confirms = try f.strings(Field.confirms.rawValue)
        first = try f.bool(Field.first.rawValue)
        if f.isNull(Field.trackedFrom.rawValue) {
            trackedFrom = .firstScheduleDay
        } else if f.contains(Field.trackedFrom.rawValue) {
            if let t = try? f.double(Field.trackedFrom.rawValue) {
                trackedFrom = .instant(t)
            } else {
                malformed.append(CodingKeys.trackedFrom.stringValue)
            }
        }
        func amount(_ field: Field) throws(JSONTypeMismatch) -> Amount? {
            if let n = try? f.int(field.rawValue) { return Amount(units: n) }
            guard let d = try f.double(field.rawValue) else { return nil }
            guard let a = Amount(exactly: d) else { inexact.append(field.key.stringValue); return nil }
            return a
        }
        perDose = try amount(.perDose)
        stock = try amount(.stock)
        units = try amount(.units)
        dayDate = day.flatMap { LocalDate($0) }
        slotTime = slot.flatMap { LocalTime($0) }
        readStamp()
    }

    /// `stamp` as a clock reading and its milliseconds (nil: malformed, or not of `device`), `day` and
    /// `slot` as a date and a time: read once, where the line is parsed (on another thread than the
    /// one that applies it: each was read there for every dose of another device's history). Kept
    /// in step with the fields they read; never written.
    public private(set) var clock: SyncClock?
    public private(set) var millis: Int64?
    public private(set) var dayDate: LocalDate?
    public private(set) var slotTime: LocalTime?

    private mutating func readStamp() {
        clock = SyncClock(stamp)
        millis = Self.stampMillis(stamp, device: device)
    }

    /// The keys ``init(_:)`` reads, by slot: a line's entries are walked once (``JSONObjectView/fields(_:)``)
    /// instead of a hash look-up for each of these (a take's line carries ten of the 25).
    enum Field: Int, CaseIterable {
        case id, device, stamp, kind, medicine, name, dose, group, note, perDose, lowDays, changed, distinctFrom
        case archivedOn, effective, schedule, stock, units, day, slot, at, timeKnown, overLimit, target, trackedFrom, confirms, first
        case urgent, repeatMinutes, perDoseTimes

        /// The field's name on the wire: its coding key's.
        var key: CodingKeys {
            switch self {
            case .id: .id
            case .device: .device
            case .stamp: .stamp
            case .kind: .kind
            case .medicine: .medicine
            case .name: .name
            case .dose: .dose
            case .group: .group
            case .note: .note
            case .perDose: .perDose
            case .lowDays: .lowDays
            case .changed: .changed
            case .distinctFrom: .distinctFrom
            case .archivedOn: .archivedOn
            case .effective: .effective
            case .schedule: .schedule
            case .stock: .stock
            case .units: .units
            case .day: .day
            case .slot: .slot
            case .at: .at
            case .timeKnown: .timeKnown
            case .overLimit: .overLimit
            case .target: .target
            case .trackedFrom: .trackedFrom
            case .confirms: .confirms
            case .first: .first
            case .urgent: .urgent
            case .repeatMinutes: .repeatMinutes
            case .perDoseTimes: .perDoseTimes
            }
        }
    }

    static let fieldTable = JSONKeyTable(Field.allCases.map(\.key.stringValue))

    public init(kind: Kind, medicine: String?) {
        id = ""; device = ""; stamp = ""; self.kind = kind.rawValue; knownKind = kind; self.medicine = medicine
        readStamp()
    }

    /// `kind` when this dosebar knows it, read once: the applier asks it several times a line.
    public private(set) var knownKind: Kind?

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
    /// lines share one `reader` (json-c, the one reader of sync lines: see ``JSONReader``).
    public static func parse(_ line: Substring, reader: JSONReader = JSONReader()) -> SyncOperation? {
        var copy = line
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), reader: reader) }
    }

    /// ``parse(_:reader:)`` of a line's bytes.
    public static func parse(_ line: UnsafeRawBufferPointer, reader: JSONReader) -> SyncOperation? {
        guard let op = reader.object(line, { o in try? SyncOperation(o) }) ?? nil,
              !op.id.isEmpty, !op.device.isEmpty, !op.stamp.isEmpty else { return nil }
        return op
    }
}
