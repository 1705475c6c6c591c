import DoseCore
import DoseStore
import Foundation

/// Applies other devices' operations inside one write transaction, by the merge rules of
/// ``SyncMerge`` (DESIGN §10):
///
/// - a medicine is known by its global id; an `add` of a name another device added is that
///   medicine (``SyncMerge/match(_:among:)``: the same data imported on two devices duplicates nothing);
/// - each detail (name, dose, group, note, per dose, low days), the archive day and each schedule
///   version (keyed by medicine and effective day) is a register (``SyncMerge/wins(_:over:)``);
/// - doses form a set (``SyncMerge/isSameDose(at:as:)``), and the slot's earliest live event is
///   the effective one, the others duplicates (``StoreWriter/resolveSlot(medicationID:day:slotTime:)``);
///   an as-needed dose is one per medicine and second;
/// - an undo names the operation it reverts (``SyncMerge/undo(of:undone:)``);
/// - stock is derived from the operations (``SyncStock``).
///
/// An operation naming something not here yet (a medicine, the dose an undo reverts) waits and is
/// tried again on every later read.
struct SyncApplier {
    let w: StoreWriter
    let today: LocalDate
    private(set) var touched = Set<Int64>()
    private(set) var earliest: LocalDate?

    init(w: StoreWriter, today: LocalDate) {
        self.w = w; self.today = today
    }

    /// Stores new operations and applies every waiting one that can be, in stamp order, until
    /// nothing more can. Returns how many were applied.
    mutating func apply(_ incoming: [SyncOperation]) throws -> Int {
        var clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
        for op in incoming.sorted(by: { SyncMerge.precedes(($0.stamp, $0.id), ($1.stamp, $1.id)) }) {
            try w.insertOperation(StoredOperation(id: op.id, device: op.device, stamp: op.stamp, kind: op.kind, medicine: op.medicine,
                                                  amount: op.amount, body: try op.line(), applied: false))
            if let seen = SyncClock(op.stamp) { clock.receive(seen) }
        }
        try w.setMeta(SyncMeta.clock, clock.state)
        var applied = 0
        var progress = true
        while progress {
            progress = false
            for stored in try w.reader.pendingOperations() {
                guard let op = SyncOperation.parse(Substring(stored.body)) else { continue }
                var attempt = self
                if try w.attempt({ try attempt.applyOne(op) }) {
                    self = attempt
                    try w.markApplied(operation: op.id)
                    applied += 1
                    progress = true
                }
            }
        }
        for id in touched.sorted() { try SyncStock.derive(medicationID: id, in: w) }
        if let earliest { try w.historyChanged(on: earliest, today: today) }
        return applied
    }

    private mutating func touch(_ id: Int64, _ day: LocalDate? = nil) {
        touched.insert(id)
        if let day { earliest = min(earliest ?? day, day) }
    }

    /// Applies one operation; false when it must wait.
    private mutating func applyOne(_ op: SyncOperation) throws -> Bool {
        guard let kind = op.knownKind, let gid = op.medicine else { return false }
        if kind == .add { return try add(op, gid) }
        guard let id = try w.reader.medicationID(gid: gid), var m = try w.reader.medication(id: id) else { return false }
        switch kind {
        case .add:
            return false
        case .edit:
            try details(op, &m)
        case .archive:
            let day = op.archivedOn.flatMap(LocalDate.init)
            if try later(op, id, "archive") {
                let before = m.archivedOn
                m.archivedOn = day
                try w.updateMedication(m)
                try w.setRegister(medicationID: id, field: "archive", stamp: op.stamp)
                // History changes from the earlier of the two days (an archive undone by a later stamp too).
                if let from = [before, day].compactMap({ $0 }).min() { touch(id, from) }
            }
        case .schedule:
            guard let text = op.effective, let effective = LocalDate(text), let schedule = op.schedule?.schedule else { return false }
            let field = SyncMerge.versionRegister(effective: effective)
            if try later(op, id, field) {
                try w.putVersion(medicationID: id, ScheduleVersion(effective: effective, schedule: schedule))
                try w.setRegister(medicationID: id, field: field, stamp: op.stamp)
                touch(id, min(effective, schedule.start))
            }
        case .stock, .refill:
            touch(id)
        case .take, .skip:
            return try dose(op, kind, m)
        case .undo:
            let eventID = try op.target.flatMap { try w.reader.eventID(operation: $0) }
            guard let eventID, let event = try w.reader.event(id: eventID) else { return false }
            switch SyncMerge.undo(of: eventID, undone: try w.reader.isUndone(eventID: eventID)) {
            case .wait: return false
            case .revert: _ = try w.insertUndo(of: event, at: Date(timeIntervalSince1970: op.at ?? event.at.timeIntervalSince1970))
            case .nothing: break
            }
            if let slot = event.slot { try w.resolveSlot(medicationID: event.medicationID, day: slot.date, slotTime: slot.time) }
            touch(event.medicationID, event.slot?.date ?? today)
        }
        return true
    }

    private mutating func add(_ op: SyncOperation, _ gid: String) throws -> Bool {
        if let id = try w.reader.medicationID(gid: gid), var m = try w.reader.medication(id: id) {
            try details(op, &m)
            return true
        }
        guard let name = op.name else { return false }
        let add = SyncMerge.MedicineAdd(gid: gid, nameKey: Medication.nameKey(name), device: op.device, stamp: op.stamp,
                                        distinctFrom: op.distinctFrom ?? [])
        switch SyncMerge.match(add, among: try w.reader.knownMedicines(nameKey: add.nameKey, gids: add.distinctFrom)) {
        case .wait:
            return false
        case .same(let id):
            guard var m = try w.reader.medication(id: id) else { return false }
            try w.linkMedicine(gid: gid, medicationID: m.id, name: name, device: op.device, stamp: op.stamp)
            try details(op, &m)
            return true
        case .new:
            break
        }
        var m = Medication(id: 0, name: name, versions: [])
        fill(op, &m)
        let id = try w.insertMedication(m)
        try w.linkMedicine(gid: gid, medicationID: id, name: name, device: op.device, stamp: op.stamp)
        for field in SyncOperation.details { try w.setRegister(medicationID: id, field: field, stamp: op.stamp) }
        return true
    }

    /// Each detail the operation carries is a register of its own.
    private mutating func details(_ op: SyncOperation, _ m: inout Medication) throws {
        var won: [String] = []
        for field in op.changed ?? SyncOperation.details where try later(op, m.id, field) { won.append(field) }
        guard !won.isEmpty else { return }
        fill(op, &m, won)
        try w.updateMedication(m)
        for field in won { try w.setRegister(medicationID: m.id, field: field, stamp: op.stamp) }
        touch(m.id)
    }

    private func fill(_ op: SyncOperation, _ m: inout Medication, _ fields: [String] = SyncOperation.details) {
        for field in fields {
            switch field {
            case "name": if let name = op.name { m.name = name }
            case "dose": m.dose = op.dose
            case "group": m.group = op.group
            case "note": m.note = op.note
            case "per_dose": m.perDose = op.perDose ?? m.perDose
            case "low_days": m.lowDays = op.lowDays ?? m.lowDays
            default: continue
            }
        }
    }

    private func later(_ op: SyncOperation, _ id: Int64, _ field: String) throws -> Bool {
        SyncMerge.wins(op.stamp, over: try w.reader.register(medicationID: id, field: field))
    }

    private mutating func dose(_ op: SyncOperation, _ kind: SyncOperation.Kind, _ m: Medication) throws -> Bool {
        guard let dayText = op.day, let day = LocalDate(dayText), let at = op.at else { return false }
        var time: LocalTime?
        if let slot = op.slot { guard let t = LocalTime(slot) else { return false }; time = t }
        let eventKind: DoseEvent.Kind = kind == .take ? .taken : .skipped
        let same = try w.reader.slotEvents(medicationID: m.id, day: day, slotTime: time)
            .first { $0.kind == eventKind && SyncMerge.isSameDose(at: at, as: $0.at) }
        let eventID: Int64
        if let same {
            eventID = same.id
        } else {
            let instant = Date(timeIntervalSince1970: at)
            let event = DoseEvent(id: 0, medicationID: m.id, kind: eventKind,
                                  slot: time.map { SlotKey(medicationID: m.id, date: day, time: $0) },
                                  at: instant, loggedAt: instant, stockDelta: 0, timeKnown: op.timeKnown ?? true)
            eventID = try w.insertEvent(event, day: day)
        }
        try w.linkEvent(operation: op.id, eventID: eventID)
        if let time { try w.resolveSlot(medicationID: m.id, day: day, slotTime: time) }
        touch(m.id, day)
        return true
    }
}
