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
    /// What a batch looks up for almost every dose, read once per batch: the local medicine of a
    /// global id (it never changes once linked), the last day with an event of each medicine before
    /// this batch, and the slots this batch gave a dose. A slot after that day that this batch gave
    /// none has none, and needs no look-up (another device's first file is mostly such doses).
    private var medicationIDs: [String: Int64] = [:]
    private var lastEventDay: [Int64: LocalDate?] = [:]
    private var dosedSlots = Set<DoseSlot>()
    /// Global ids a purge applied here deleted besides the one it named (names the same medicine got
    /// on other devices): this device announces them with purges of its own (``SyncService``).
    private(set) var purgedAlso: [String] = []

    /// A slot of a medicine's day, or (time nil) its as-needed doses of that day.
    private struct DoseSlot: Hashable {
        var medicationID: Int64
        var day: LocalDate
        var time: LocalTime?
    }

    /// What applying one operation did: the event a take or skip wrote or was found to be, and the
    /// slot whose doses to resolve once the operation is stored (it orders them by their operations).
    private struct Applied {
        var eventID: Int64?
        var resolve: SlotKey?
    }

    init(w: StoreWriter, today: LocalDate) {
        self.w = w; self.today = today
    }

    /// Applies each operation not stored yet that can be, in stamp order, and stores it (with its
    /// line while it waits); then every waiting one (of this read or an earlier one) that can be,
    /// until nothing more can. Returns how many were applied.
    mutating func apply(_ incoming: [SyncFolder.Line]) throws -> Int {
        var clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
        var applied = 0
        let inOrder = { (a: SyncFolder.Line, b: SyncFolder.Line) in SyncMerge.precedes((a.op.stamp, a.op.id), (b.op.stamp, b.op.id)) }
        // A device's file is in its stamp order: no sorted copy of hundreds of thousands of lines.
        let sorted = zip(incoming, incoming.dropFirst()).allSatisfy { !inOrder($1, $0) } ? incoming : incoming.sorted(by: inOrder)
        for line in sorted {
            let op = line.op
            // By id: a line read twice (appended twice after a crash, read again from a new folder)
            // is stored once, as is one that waits. Its line is kept only while it waits: once
            // applied, nothing reads another device's line again.
            guard try !w.reader.hasOperation(id: op.id) else { continue }
            // A purged medicine's operation (from a device that had not applied the purge yet) is
            // dropped, not stored: nothing of it comes back.
            if op.knownKind != .purge, let gid = op.medicine, try w.reader.isPurged(gid: gid) { continue }
            if let seen = SyncClock(op.stamp) { clock.receive(seen) }
            let done = try applyIfCan(op)
            try w.insertOperation(StoredOperation(id: op.id, device: op.device, stamp: op.stamp, kind: op.kind, medicine: op.medicine,
                                                  amount: op.amount, body: done == nil ? line.text : "", applied: done != nil,
                                                  eventID: done?.eventID))
            if let done { try resolve(done); applied += 1 }
        }
        try w.setMeta(SyncMeta.clock, clock.state)
        var progress = true
        while progress {
            progress = false
            for stored in try w.reader.pendingOperations() {
                guard let op = SyncOperation.parse(Substring(stored.body)), let done = try applyIfCan(op) else { continue }
                try w.markApplied(operation: op.id, eventID: done.eventID)
                try resolve(done)
                applied += 1
                progress = true
            }
        }
        for id in touched.sorted() { try SyncStock.derive(medicationID: id, in: w) }
        if let earliest { try w.historyChanged(on: earliest, today: today) }
        return applied
    }

    /// Applies one operation; nil (and nothing written) when it must wait.
    private mutating func applyIfCan(_ op: SyncOperation) throws -> Applied? {
        // A dose writes nothing before it knows it can apply, and its only write (the event) is one
        // statement: it needs no savepoint, which cost a tenth of applying a long history.
        if op.knownKind == .take || op.knownKind == .skip {
            do { return try applyOne(op) } catch DosebarError.badData { return nil }
        }
        var attempt = self
        var done: Applied?
        guard try w.attempt({ done = try attempt.applyOne(op); return done != nil }) else { return nil }
        self = attempt
        return done
    }

    /// Resolves the slot a dose was applied to, once its operation is stored.
    private func resolve(_ done: Applied) throws {
        guard let slot = done.resolve else { return }
        try w.resolveSlot(medicationID: slot.medicationID, day: slot.date, slotTime: slot.time)
    }

    private mutating func touch(_ id: Int64, _ day: LocalDate? = nil) {
        touched.insert(id)
        if let day { earliest = min(earliest ?? day, day) }
    }

    /// Applies one operation; nil when it must wait.
    private mutating func applyOne(_ op: SyncOperation) throws -> Applied? {
        guard let kind = op.knownKind, let gid = op.medicine else { return nil }
        if kind == .add { return try add(op, gid) ? Applied() : nil }
        if kind == .purge { try purge(gid); return Applied() }
        guard let id = try medicationID(gid: gid) else { return nil }
        // A dose needs the medicine's id only: the history of another device is mostly doses.
        if kind == .take || kind == .skip { return try dose(op, kind, medicationID: id) }
        guard var m = try w.reader.medication(id: id) else { return nil }
        switch kind {
        case .add, .take, .skip, .purge:
            return nil
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
            guard let text = op.effective, let effective = LocalDate(text), let schedule = op.schedule?.schedule else { return nil }
            let field = SyncMerge.versionRegister(effective: effective)
            if try later(op, id, field) {
                try w.putVersion(medicationID: id, ScheduleVersion(effective: effective, schedule: schedule))
                try w.setRegister(medicationID: id, field: field, stamp: op.stamp)
                touch(id, min(effective, schedule.start))
            }
        case .stock, .refill:
            touch(id)
        case .undo:
            let eventID = try op.target.flatMap { try w.reader.eventID(operation: $0) }
            guard let eventID, let event = try w.reader.event(id: eventID) else { return nil }
            switch SyncMerge.undo(of: eventID, undone: try w.reader.isUndone(eventID: eventID)) {
            case .wait: return nil
            case .revert: _ = try w.insertUndo(of: event, at: Date(timeIntervalSince1970: op.at ?? event.at.timeIntervalSince1970))
            case .nothing: break
            }
            if let slot = event.slot { try w.resolveSlot(medicationID: event.medicationID, day: slot.date, slotTime: slot.time) }
            touch(event.medicationID, event.slot?.date ?? today)
        }
        return Applied()
    }

    /// Deletes the medicine a purge names, if it is here, with every global id it has; remembers
    /// them all as purged (also one never seen here, so its operations arriving later are dropped).
    private mutating func purge(_ gid: String) throws {
        guard try !w.reader.isPurged(gid: gid) else { return }
        var gids = [gid]
        if let id = try w.reader.medicationID(gid: gid) {
            let others = try w.purgeMedication(id: id).filter { $0 != gid }
            try SyncJournal.writtenBelowNext(w)
            gids += others
            purgedAlso += others
            touched.remove(id)
            lastEventDay[id] = nil
            dosedSlots = dosedSlots.filter { $0.medicationID != id }
            medicationIDs = medicationIDs.filter { $0.value != id }
        }
        try w.rememberPurged(gids)
        try w.setMeta(SyncMeta.rewrite, "1")
    }

    private mutating func medicationID(gid: String) throws -> Int64? {
        if let id = medicationIDs[gid] { return id }
        let id = try w.reader.medicationID(gid: gid)
        medicationIDs[gid] = id
        return id
    }

    /// The taken or skipped events of a slot (``StoreReader/slotEvents(medicationID:day:slotTime:)``),
    /// looked up only when it may have some.
    private mutating func events(of slot: DoseSlot) throws -> [DoseEvent] {
        let last: LocalDate?
        if let known = lastEventDay[slot.medicationID] {
            last = known
        } else {
            last = try w.reader.lastEventDay(medicationID: slot.medicationID)
            lastEventDay[slot.medicationID] = .some(last)
        }
        let afterLast = last.map { $0 < slot.day } ?? true
        if afterLast && !dosedSlots.contains(slot) { return [] }
        return try w.reader.slotEvents(medicationID: slot.medicationID, day: slot.day, slotTime: slot.time)
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

    private mutating func dose(_ op: SyncOperation, _ kind: SyncOperation.Kind, medicationID id: Int64) throws -> Applied? {
        guard let dayText = op.day, let day = LocalDate(dayText), let at = op.at else { return nil }
        var time: LocalTime?
        if let slot = op.slot { guard let t = LocalTime(slot) else { return nil }; time = t }
        let eventKind: DoseEvent.Kind = kind == .take ? .taken : .skipped
        let slot = DoseSlot(medicationID: id, day: day, time: time)
        let slotEvents = try events(of: slot)
        let same = slotEvents.first { $0.kind == eventKind && SyncMerge.isSameDose(at: at, as: $0.at) }
        let eventID: Int64
        if let same {
            eventID = same.id
        } else {
            let instant = Date(timeIntervalSince1970: at)
            let event = DoseEvent(id: 0, medicationID: id, kind: eventKind,
                                  slot: time.map { SlotKey(medicationID: id, date: day, time: $0) },
                                  at: instant, loggedAt: instant, stockDelta: 0, timeKnown: op.timeKnown ?? true)
            eventID = try w.insertEvent(event, day: day)
            dosedSlots.insert(slot)
        }
        touch(id, day)
        // The first dose of a slot is its dose: nothing to resolve.
        guard let time, !slotEvents.isEmpty else { return Applied(eventID: eventID) }
        return Applied(eventID: eventID, resolve: SlotKey(medicationID: id, date: day, time: time))
    }
}
