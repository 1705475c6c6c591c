import DoseCore
import DoseStore
import Foundation

/// Records every change as an operation, in the write transaction that makes the change — but
/// only once sync was initialised: ``open(_:_:)`` is nil otherwise and nothing changes.
///
/// The services call it after they wrote; ``finish()`` then keeps the clock and derives the stock
/// of the medicines touched from the operations (``SyncStock``), so a device's stock is what every
/// device computes. Every journal opened must be finished.
public final class SyncJournal {
    let w: StoreWriter
    let now: Date
    public let device: String
    private var clock: SyncClock
    private var touched = Set<Int64>()
    private var stamped = false
    private var ids = OperationIDs()
    /// Global ids of local medicines, once looked up (a medicine keeps its first one).
    private var gids: [Int64: String] = [:]
    /// One for the transaction: `sync init` writes an operation per dose of the whole history.
    private let encoder = SyncOperation.lineEncoder()

    init(w: StoreWriter, now: Date, device: String) throws {
        self.w = w; self.now = now; self.device = device
        clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
    }

    /// The journal of this transaction, or nil when sync was never initialised (one `meta` read).
    public static func open(_ w: StoreWriter, _ context: AppContext) throws -> SyncJournal? {
        guard let device = try w.reader.meta(SyncMeta.device) else { return nil }
        return try SyncJournal(w: w, now: context.now, device: device)
    }

    /// Stamps and stores one of this device's operations (applied: it is already in the tables),
    /// with the event a take or skip wrote.
    @discardableResult
    func append(_ op: SyncOperation, eventID: Int64? = nil, notBefore: Double? = nil) throws -> SyncOperation {
        var op = op
        // A dose is stamped no earlier than it was taken (a clock set back since, `sync init` of a
        // history at an earlier DOSEBAR_NOW): other devices judge its instant against its stamp.
        if let at = notBefore, at.isFinite, at > 0, at < 1e10 { clock.receive(SyncClock(millis: Int64(at * 1000), counter: 0)) }
        clock.tick(now: now)
        op.id = ids.next(clock)
        op.device = device
        op.stamp = clock.stamp(device: device)
        stamped = true
        let body = try op.line(encoder: encoder)
        try w.insertOperation(StoredOperation(id: op.id, device: device, stamp: op.stamp, kind: op.kind, medicine: op.medicine,
                                              amount: op.amount, body: body, applied: true, eventID: eventID, hash: LineHash.of(body)))
        return op
    }

    /// The medicine's global id, making one (with its `add`) for a medicine that has none.
    func gid(of m: Medication) throws -> String {
        if let gid = gids[m.id] { return gid }
        let gid = try w.reader.gid(medicationID: m.id) ?? added(m, stock: false)
        gids[m.id] = gid
        return gid
    }

    // MARK: - Changes

    /// A new medicine: `add`, a `schedule` per version, its stock (unless `stock` is false) and archive.
    @discardableResult
    public func added(_ m: Medication, stock: Bool = true) throws -> String {
        let gid = UUID().uuidString.lowercased()
        var op = details(.add, gid, m)
        op.trackedFrom = TrackingStart(m.trackedFrom)
        let others = try w.reader.gids(nameKey: Medication.nameKey(m.name), besides: m.id)
        op.distinctFrom = others.isEmpty ? nil : others
        let add = try append(op)
        try w.linkMedicine(gid: gid, medicationID: m.id, name: m.name, device: device, stamp: add.stamp)
        for register in SyncRegister.details { try w.setRegister(medicationID: m.id, field: register.rawValue, stamp: add.stamp) }
        for v in m.versions { try scheduled(m.id, gid, v) }
        if stock, m.stock != nil { try stockSet(m, to: m.stock) }
        if m.archivedOn != nil { try archived(m) }
        return gid
    }

    /// `edit`: the details that changed (a rename among them), stock and archive when they changed,
    /// the schedule versions it wrote (a new schedule, or the versions a dose change gave a dose).
    public func edited(from old: Medication, to new: Medication, versions: [ScheduleVersion]) throws {
        let gid = try gid(of: new)
        let changed = SyncRegister.details.filter { $0.differs(old, new) }
        if !changed.isEmpty {
            var op = details(.edit, gid, new)
            op.changed = changed.map(\.rawValue)
            let stored = try append(op)
            for register in changed { try w.setRegister(medicationID: new.id, field: register.rawValue, stamp: stored.stamp) }
        }
        if old.stock != new.stock { try stockSet(new, to: new.stock) }
        if old.archivedOn != new.archivedOn { try archived(new) }
        for v in versions { try scheduled(new.id, gid, v) }
    }

    /// `remove` (or an edit that archived): the archive day.
    public func archived(_ m: Medication) throws {
        var op = SyncOperation(kind: .archive, medicine: try gid(of: m))
        op.archivedOn = m.archivedOn?.description
        let stored = try append(op)
        try w.setRegister(medicationID: m.id, field: SyncRegister.archive.rawValue, stamp: stored.stamp)
    }

    /// `resume`: active again (`archive` without a day), with the schedule versions that keep the
    /// days it was archived free of doses and schedule it again from today.
    public func resumed(_ m: Medication, versions: [ScheduleVersion]) throws {
        try archived(m)
        let gid = try gid(of: m)
        for v in versions { try scheduled(m.id, gid, v) }
    }

    /// `purge`: one operation per global id the medicine had (it names nothing else), remembered
    /// as purged. Every device applying it deletes the medicine and rewrites its own file without it.
    public func purged(gids: [String]) throws {
        try Self.writtenBelowNext(w)
        for gid in gids { try append(SyncOperation(kind: .purge, medicine: gid)) }
        try w.rememberPurged(gids)
        try w.setMeta(SyncMeta.rewrite, "1")
    }

    /// After a purge deleted operations: `sync.written` (the `seq` of the last own operation in the
    /// file) no higher than the highest left. A new operation's `seq` is the highest plus one, so
    /// with the deleted last ones it would come again at or below the mark and never be written.
    static func writtenBelowNext(_ w: StoreWriter) throws {
        let top = try w.reader.lastOperationSeq()
        if let written = try w.reader.meta(SyncMeta.written).flatMap(Int64.init), written > top {
            try w.setMeta(SyncMeta.written, String(top))
        }
    }

    /// `refill --set` (or a stock given to add/edit): an absolute value.
    public func stockSet(_ m: Medication, to value: Amount?) throws {
        var op = SyncOperation(kind: .stock, medicine: try gid(of: m))
        op.stock = value
        try append(op)
        touched.insert(m.id)
    }

    /// `refill N`.
    public func refilled(_ m: Medication, units: Amount) throws {
        var op = SyncOperation(kind: .refill, medicine: try gid(of: m))
        op.units = units
        try append(op)
        touched.insert(m.id)
    }

    /// A take or skip written as event `eventID`; a take uses `units` of stock (the medicine's
    /// units per dose; 0 for an imported dose, which moves no stock). `resolve` false: the slot
    /// has no other device's dose (`sync init`, before any was applied), nothing to resolve.
    /// `trackedFrom`: the dose moved the medicine's tracking start to this instant (an import).
    public func dose(_ e: DoseEvent, eventID: Int64, day: LocalDate, medication m: Medication, units: Amount? = nil,
                     resolve: Bool = true, trackedFrom: Date? = nil) throws {
        var op = SyncOperation(kind: e.kind == .taken ? .take : .skip, medicine: try gid(of: m))
        op.day = day.description
        op.slot = e.slot?.time.description
        op.at = e.at.timeIntervalSince1970
        op.units = e.kind == .taken ? (units ?? m.perDose(at: e.slot?.time)) : nil
        op.timeKnown = e.timeKnown ? nil : false
        op.overLimit = e.overLimit ? true : nil
        op.trackedFrom = trackedFrom.map { .instant($0.timeIntervalSince1970) }
        try append(op, eventID: eventID, notBefore: op.at)
        if resolve, let slot = e.slot { try w.resolveSlot(medicationID: m.id, day: slot.date, slotTime: slot.time) }
        touched.insert(m.id)
    }

    /// An undo of event `e` (already written): names the operation it reverts.
    public func undone(_ e: DoseEvent) throws {
        guard let target = try w.reader.operation(eventID: e.id),
              let m = try w.reader.medication(id: e.medicationID) else { return }
        var op = SyncOperation(kind: .undo, medicine: try gid(of: m))
        op.target = target
        op.at = now.timeIntervalSince1970
        try append(op)
        if let slot = e.slot { try w.resolveSlot(medicationID: m.id, day: slot.date, slotTime: slot.time) }
        touched.insert(m.id)
    }

    /// `confirm`: the takes of `slot` (a double dose) were all taken on purpose.
    public func confirmed(_ m: Medication, slot: SlotKey, takes: [String]) throws {
        var op = SyncOperation(kind: .confirm, medicine: try gid(of: m))
        op.day = slot.date.description
        op.slot = slot.time.description
        op.confirms = takes.sorted()
        try append(op)
    }

    /// `zone`: the person is in `zone` from `at` on (an entry of the zone log, DESIGN §3).
    public func zoneChanged(_ entry: StoreReader.ZoneEntry) throws {
        var op = SyncOperation(kind: .zone, medicine: nil)
        op.at = entry.at.timeIntervalSince1970
        op.name = entry.zone
        op.first = entry.first ? true : nil
        let written = try append(op)
        try w.addZone(entry, op: written.id)
    }

    /// A take's stock as the service computed it, written only when the operations derive none
    /// (``finish()``): with sync on, the stock is computed once, by the derivation.
    private var computed: [Int64: Amount?] = [:]

    /// The stock a take left medicine `id` with, by the service's own arithmetic: kept unless the
    /// operations derive it (they do whenever a stock was ever set or refilled).
    public func stockAfterTake(medicationID id: Int64, _ value: Amount?) {
        computed[id] = value
        touched.insert(id)
    }

    /// Keeps the clock and derives the stock of every medicine touched (call once, last).
    public func finish() throws {
        if stamped { try w.setMeta(SyncMeta.clock, clock.state) }
        for id in touched.sorted() where try !SyncStock.derive(medicationID: id, in: w) {
            if let value = computed[id] { try w.setStock(medicationID: id, value) }
        }
        touched.removeAll()
        computed.removeAll()
    }

    // MARK: - Helpers

    private func details(_ kind: SyncOperation.Kind, _ gid: String, _ m: Medication) -> SyncOperation {
        var op = SyncOperation(kind: kind, medicine: gid)
        op.name = m.name; op.dose = m.dose; op.group = m.group; op.note = m.note
        op.perDose = m.perDose; op.lowDays = m.lowDays
        op.urgent = m.urgent; op.repeatMinutes = m.repeatMinutes
        return op
    }

    private func scheduled(_ id: Int64, _ gid: String, _ v: ScheduleVersion) throws {
        var op = SyncOperation(kind: .schedule, medicine: gid)
        op.effective = v.effective.description
        op.schedule = SyncSchedule(v.schedule)
        // The version's own dose (a line without `per_dose` keeps the medicine's).
        op.dose = v.dosing?.text
        op.perDose = v.dosing?.perDose
        op.perDoseTimes = v.dosing?.perTime?.map(\.description)
        let stored = try append(op)
        try w.setRegister(medicationID: id, field: SyncMerge.versionRegister(effective: v.effective), stamp: stored.stamp)
    }
}
