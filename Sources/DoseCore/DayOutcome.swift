import Foundation

/// The judged outcome of one finished day, without names: every slot with its final status, the
/// as-needed doses, the medicines resting in a cycle and those with a schedule in force.
///
/// What the history ledger computes for a day, in a compact form the store can keep, so that a
/// year of `history`, `stats` or `report` reads 365 of these instead of judging every day again.
/// A finished day's outcome changes only when its history does (a back-dated dose, an edit with
/// an earlier `--effective`, an import), and then the store drops it with the streak summaries.
public struct DayOutcome: Sendable, Hashable {
    /// A slot and its outcome: a ``SlotRecord`` without the medicine's name and dose.
    public struct Slot: Sendable, Hashable {
        public var medicationID: Int64
        public var time: LocalTime
        public var scheduled: LocalInstant
        public var status: SlotStatus
        public var takenAt: LocalInstant?
        public var lateMinutes: Int?
        public var timeUnknown: Bool
        /// Skipped after it had closed as missed (``PlannedSlot/decidedAfterClose``).
        public var decidedAfterClose = false
    }

    /// An as-needed dose.
    public struct Extra: Sendable, Hashable {
        public var medicationID: Int64
        public var takenAt: LocalInstant
        /// Recorded with `--force` beyond a limit.
        public var overLimit = false
        /// Imported without the time it was taken (at its slot's time).
        public var timeUnknown = false
    }

    public var date: LocalDate
    /// In time order, as the ledger lists them.
    public var slots: [Slot] = []
    public var asNeeded: [Extra] = []
    /// Medicines in the rest phase of a cycle that day.
    public var resting: [Int64] = []
    /// Medicines with a schedule in force that day (whether or not a dose fell on it).
    public var inForce: [Int64] = []

    public init(date: LocalDate) { self.date = date }
}

// MARK: - Bytes

extension DayOutcome {
    /// The format's version: an outcome in another one is ignored (recomputed), never misread.
    static let formatVersion: UInt8 = 4

    /// The outcome as bytes for the store.
    public var bytes: [UInt8] {
        var w = ByteWriter()
        w.put(DayOutcome.formatVersion)
        w.put(Int64(date.dayNumber))
        w.put(Int64(slots.count))
        for s in slots {
            w.put(s.medicationID)
            w.put(Int64(s.time.minuteOfDay))
            w.put(s.scheduled)
            w.put(UInt8(SlotStatus.allCases.firstIndex(of: s.status)!))
            // Flags: 1 time not known, 2 skipped after it closed (version 4).
            w.put((s.timeUnknown ? 1 as UInt8 : 0) | (s.decidedAfterClose ? 2 : 0))
            w.put(s.takenAt != nil ? 1 as UInt8 : 0)
            if let t = s.takenAt { w.put(t) }
            w.put(s.lateMinutes != nil ? 1 as UInt8 : 0)
            if let l = s.lateMinutes { w.put(Int64(l)) }
        }
        w.put(Int64(asNeeded.count))
        // Flags: 1 over the limit, 2 time not known (version 3).
        for a in asNeeded { w.put(a.medicationID); w.put(a.takenAt); w.put((a.overLimit ? 1 as UInt8 : 0) | (a.timeUnknown ? 2 : 0)) }
        w.put(Int64(resting.count))
        for id in resting { w.put(id) }
        w.put(Int64(inForce.count))
        for id in inForce { w.put(id) }
        return w.bytes
    }

    /// Reads what ``bytes`` wrote; nil for anything else (another version, a truncated or foreign blob).
    public init?(bytes: [UInt8]) {
        guard let outcome = bytes.withUnsafeBytes({ DayOutcome(raw: $0) }) else { return nil }
        self = outcome
    }

    /// ``init(bytes:)`` over memory the caller owns for the duration of the call (a database blob).
    public init?(raw: UnsafeRawBufferPointer) {
        var r = ByteReader(raw)
        guard r.byte() == DayOutcome.formatVersion, let day = r.int() else { return nil }
        self.init(date: LocalDate(dayNumber: day))
        guard let n = r.count() else { return nil }
        slots.reserveCapacity(n)
        for _ in 0..<n {
            guard let id = r.int64(), let minute = r.int(), (0..<1440).contains(minute), let scheduled = r.instant(),
                  let code = r.byte(), Int(code) < SlotStatus.allCases.count, let flags = r.byte(), flags < 4, let hasTaken = r.byte()
            else { return nil }
            var takenAt: LocalInstant?
            if hasTaken == 1 { guard let t = r.instant() else { return nil }; takenAt = t }
            guard let hasLate = r.byte() else { return nil }
            var late: Int?
            if hasLate == 1 { guard let l = r.int() else { return nil }; late = l }
            slots.append(Slot(medicationID: id, time: LocalTime(minuteOfDay: minute), scheduled: scheduled, status: SlotStatus.allCases[Int(code)],
                              takenAt: takenAt, lateMinutes: late, timeUnknown: flags & 1 != 0, decidedAfterClose: flags & 2 != 0))
        }
        guard let extras = r.count() else { return nil }
        for _ in 0..<extras {
            guard let id = r.int64(), let at = r.instant(), let over = r.byte() else { return nil }
            guard over < 4 else { return nil }
            asNeeded.append(Extra(medicationID: id, takenAt: at, overLimit: over & 1 != 0, timeUnknown: over & 2 != 0))
        }
        guard let restingCount = r.count() else { return nil }
        for _ in 0..<restingCount { guard let id = r.int64() else { return nil }; resting.append(id) }
        guard let inForceCount = r.count() else { return nil }
        for _ in 0..<inForceCount { guard let id = r.int64() else { return nil }; inForce.append(id) }
        guard r.atEnd else { return nil }
    }
}

/// Little-endian fixed-width fields.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func put(_ v: UInt8) { bytes.append(v) }
    mutating func put(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func put(_ v: LocalInstant) {
        withUnsafeBytes(of: v.date.timeIntervalSince1970.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        put(Int64(v.offset))
    }
}

private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func word() -> UInt64? {
        guard index + 8 <= bytes.count else { return nil }
        defer { index += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    mutating func int64() -> Int64? { word().map { Int64(bitPattern: $0) } }
    mutating func int() -> Int? { int64().map { Int($0) } }
    /// A count that fits what is left (a damaged blob cannot ask for a huge allocation).
    mutating func count() -> Int? { int().flatMap { $0 >= 0 && $0 <= bytes.count ? $0 : nil } }

    mutating func instant() -> LocalInstant? {
        guard let bits = word(), let offset = int() else { return nil }
        return LocalInstant(date: Date(timeIntervalSince1970: Double(bitPattern: bits)), offset: offset)
    }
}
