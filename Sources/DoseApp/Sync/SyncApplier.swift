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
/// - a slot taken by two devices keeps both takes (``SyncMerge/doubleDose(_:confirmed:)``), until a
///   `confirm` names them all;
/// - stock is derived from the operations (``SyncStock``).
///
/// Every line passes the gate first (``SyncOperation/refusal()``): one that fails, or reuses an
/// operation id with other content, is skipped (kept in `sync_skipped`, so it is warned about
/// once) and never stops the lines after it. An operation stamped more than a day ahead of this
/// machine's clock is held: stored, not applied, its stamp not taken into the clock, until the
/// clock comes within a day of it. An operation naming something not here yet (a medicine, the
/// dose an undo reverts) waits and is tried again by ``retryWaiting()``; a new medicine's `add`
/// waits for a schedule of it, so a medicine never arrives without one.
///
/// One applier applies one batch (``SyncService`` commits every few thousand lines): what it
/// caches of the slots it gave doses keeps the cost of each dose independent of how many doses
/// the slot has, and the slots are resolved once, at the end of the batch.
struct SyncApplier {
    let w: StoreWriter
    let today: LocalDate
    /// This machine's clock: what is stamped more than ``holdMillis`` after it is held.
    let now: Date
    private(set) var touched = Set<Int64>()
    private(set) var earliest: LocalDate?
    /// The lines this batch skipped that were not skipped before: each is warned about once.
    private(set) var newlySkipped: [SkippedLine] = []
    /// What a batch looks up for almost every dose, read once per batch: the local medicine of a
    /// global id (it never changes once linked), the last day with an event of each medicine before
    /// this batch, and the doses of each slot it touched (a slot after that day that this batch gave
    /// none has none, and needs no look-up: another device's first file is mostly such doses).
    private var medicationIDs: [String: Int64] = [:]
    private var lastEventDay: [Int64: LocalDate?] = [:]
    /// The doses of those slots by slot, kind and second, and how many each slot has (a dictionary
    /// per slot was an allocation per dose of another device's first file).
    private var slotDoses: [SlotDose: Int64] = [:]
    private var slotCounts: [DoseSlot: Int] = [:]
    /// Slots whose doses to resolve once the batch is stored.
    private var toResolve = Set<SlotKey>()
    /// Medicines this batch has a schedule for (a new medicine's `add` waits for one).
    private var scheduled = Set<String>()
    /// Global ids a purge applied here deleted besides the one it named (names the same medicine got
    /// on other devices): this device announces them with purges of its own (``SyncService``).
    private(set) var purgedAlso: [String] = []

    /// An operation stamped more than this after this machine's clock (a day) is held.
    static let holdMillis: Int64 = 86_400_000

    /// A slot of a medicine's day, or (time nil) its as-needed doses of that day.
    private struct DoseSlot: Hashable {
        var medicationID: Int64
        var day: LocalDate
        var time: LocalTime?

        /// The fields mixed into one word, hashed once (each field hashed on its own was five of
        /// SipHash's rounds per look-up, several look-ups per dose); equality still compares them all.
        var mixed: Int {
            Int(truncatingIfNeeded: medicationID) &* 0x61C8_8646_80B5_83EB ^ day.dayNumber &* 1_441 ^ (time?.minuteOfDay ?? -1)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(mixed) }
    }

    /// A dose of a slot as the set of doses sees it: its kind and second (``SyncMerge/isSameDose(at:as:)``).
    private struct DoseKey: Hashable {
        var taken: Bool
        var second: Int64
    }

    private struct SlotDose: Hashable {
        var slot: DoseSlot
        var dose: DoseKey

        func hash(into hasher: inout Hasher) {
            hasher.combine(slot.mixed ^ Int(truncatingIfNeeded: dose.second) &* 0x2545_F491_4F6C_DD1D ^ (dose.taken ? 1 : 0))
        }
    }

    /// What applying one operation did: the event a take or skip wrote or was found to be, and
    /// whether that event keeps the operation (``SyncedDose``: then no row of `operation` is stored).
    private struct Applied {
        var eventID: Int64?
        var kept = false
    }

    /// Per device, the highest stamp of its doses kept in events, as this batch leaves it: a line
    /// stamped after it is looked up in `operation` only.
    private var highWater: [String: String] = [:]
    /// The purged global ids (`sync_purged`), read once per transaction: asked of every line, they
    /// change only through ``purge(_:)``, which adds to them.
    private var purgedGids: Set<String>?
    private var highWaterLoaded = false
    /// Every id in `operation` while this batch applies, when there are few (at most half as many
    /// as the batch's lines: reading them costs less than the look-ups they spare): a dose stamped
    /// after its device's high-water whose id is not here is not stored, and is not looked up
    /// (``applyLine(_:file:clock:)``). Kept whole: ``applyLine(_:file:clock:)`` is the applier's one
    /// insert into `operation`, and adds its id here. (A purge deletes rows: a set that still holds
    /// an id only sends that line to the look-up.)
    private var operationIDs: Set<String>?
    private var raised = Set<String>()
    /// The device of the dose before and its high-water, raised here and put into ``highWater``
    /// when another device's dose comes (``settleHighWater()``): a file's lines are one device's,
    /// and hashing its id for every dose weighed on the thread that applies another device's history.
    private var recentWater: (device: String, stamp: String?, raised: Bool)?

    init(w: StoreWriter, today: LocalDate, now: Date) {
        self.w = w; self.today = today; self.now = now
    }

    private var nowMillis: Int64 {
        let ms = now.timeIntervalSince1970 * 1000
        return ms.isFinite ? Int64(max(0, min(ms, 9e15))) : 0
    }

    /// Whether an operation stamped at `millis` is held (more than a day ahead of this clock).
    func isHeld(_ millis: Int64) -> Bool { millis > nowMillis + Self.holdMillis }

    /// Keeps a line as skipped; remembered to be warned about when it was not skipped before.
    mutating func skip(_ line: SkippedLine) throws {
        if try w.insertSkipped(line) { newlySkipped.append(line) }
    }

    /// Applies the lines of `file` (and keeps its `problems`, the lines that are not its device's
    /// operations, as skipped): each line that passes the gate, is not stored yet and can apply,
    /// in stamp order, and stores it (with its line while it waits or is held). Returns how many
    /// were applied. Call ``finish()`` after.
    mutating func apply(_ incoming: [SyncFolder.Line], file: String, problems: [SyncFolder.Problem] = []) throws -> Int {
        for p in problems { try skip(SkippedLine(file: file, line: p.number, hash: p.hash, op: p.id, reason: p.reason)) }
        var clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
        var applied = 0
        try loadHighWater()
        operationIDs = try w.reader.operationIDs(atMost: incoming.count / 2)
        // The gate first (asked as the lines were parsed): a line with a malformed stamp takes no
        // part in the order. The lines are named by index from here on, and read in place through
        // the buffer: a line copied is some twenty strings retained and released, and the array's
        // subscript copied each line the order was checked on, twice a line.
        try incoming.withUnsafeBufferPointer { lines in
            var valid: [Int] = []
            valid.reserveCapacity(lines.count)
            // A dose a line at most: grown once, not rehashed at every doubling.
            slotDoses.reserveCapacity(slotDoses.count + lines.count)
            slotCounts.reserveCapacity(slotCounts.count + lines.count)
            for i in lines.indices {
                if let reason = lines[i].refusal {
                    try skip(SkippedLine(file: file, line: lines[i].number, hash: lines[i].hash, op: lines[i].op.id, reason: reason))
                } else {
                    valid.append(i)
                }
            }
            // A schedule held (stamped more than a day ahead) does not count: its medicine would arrive without one.
            for i in valid where lines[i].op.knownKind == .schedule {
                let op = lines[i].op
                if let gid = op.medicine, let millis = op.millis, !isHeld(millis) {
                    scheduled.insert(gid)
                }
            }
            let inOrder = { (a: Int, b: Int) in
                SyncMerge.precedes((lines[a].op.stamp, lines[a].op.id), (lines[b].op.stamp, lines[b].op.id))
            }
            // A device's file is in its stamp order: no sorted copy of hundreds of thousands of lines.
            let sorted = zip(valid, valid.dropFirst()).allSatisfy { !inOrder($1, $0) } ? valid : valid.sorted(by: inOrder)
            for i in sorted {
                if try applyLine(lines[i], file: file, clock: &clock) { applied += 1 }
            }
        }
        try w.setMeta(SyncMeta.clock, clock.state)
        try storeHighWater()
        return applied
    }

    /// Applies one line of ``apply(_:file:problems:)``: whether it was applied. Borrowed: a line
    /// copied is some twenty strings retained and released.
    private mutating func applyLine(_ line: borrowing SyncFolder.Line, file: String, clock: inout SyncClock) throws -> Bool {
        // By id: a line read twice (appended twice after a crash, read again from a new folder)
        // is stored once, as is one that waits. The same id with other content is refused: the
        // first version stays, on every device that reads the lines in the same order.
        // A dose stamped after its device's high-water is not looked up in the events: if it
        // reuses an id one keeps, their index refuses its event (``SyncedDose/IDTaken``, below).
        let isDose = line.op.knownKind == .take || line.op.knownKind == .skip
        let stored: Int64??
        if isDose {
            let water = highWater(of: line.op.device)
            if let ids = operationIDs, !ids.contains(line.op.id), water.map({ line.op.stamp > $0 }) ?? true {
                stored = nil
            } else {
                stored = try w.reader.operationHash(id: line.op.id, stamp: line.op.stamp, highWater: water)
            }
        } else {
            stored = try w.reader.operationHash(id: line.op.id)
        }
        if let stored {
            if let stored, stored != line.hash {
                try skip(SkippedLine(file: file, line: line.number, hash: line.hash, op: line.op.id, reason: Self.reused(line.op.id)))
            }
            return false
        }
        // A purged medicine's operation (from a device that had not applied the purge yet) is
        // dropped, not stored: nothing of it comes back.
        if line.op.knownKind != .purge, let gid = line.op.medicine, try isPurged(gid) { return false }
        guard let stamp = line.op.clock, let millis = line.op.millis else { return false }
        var done: Applied?
        if !isHeld(millis) {
            clock.receive(stamp)
            do {
                done = try applyIfCan(line.op, hash: line.hash)
            } catch is SyncedDose.IDTaken {
                // Stamped otherwise than the first line of its id: other content.
                try skip(SkippedLine(file: file, line: line.number, hash: line.hash, op: line.op.id, reason: Self.reused(line.op.id)))
                return false
            } catch let v as FieldRules.Violation {
                // The store's gate refused a write the line's gate let through: nothing was written.
                try skip(SkippedLine(file: file, line: line.number, hash: line.hash, op: line.op.id, reason: v.description))
                return false
            } catch let e as DosebarError {
                guard case .internal(let why) = e else { throw e }
                try skip(SkippedLine(file: file, line: line.number, hash: line.hash, op: line.op.id, reason: why))
                return false
            }
        }
        if done?.kept == true { return true }
        // Its line is kept only while it waits: once applied, nothing reads another device's line again.
        try w.insertOperation(StoredOperation(id: line.op.id, device: line.op.device, stamp: line.op.stamp, kind: line.op.kind,
                                              medicine: line.op.medicine, amount: line.op.amount, body: done == nil ? line.text : "", applied: done != nil,
                                              eventID: done?.eventID, hash: line.hash,
                                              origin: done == nil ? "\(file):\(line.number)" : nil))
        operationIDs?.insert(line.op.id)
        return done != nil
    }

    /// Whether `gid` was purged (``purgedGids``).
    private mutating func isPurged(_ gid: String) throws -> Bool {
        if let purgedGids { return purgedGids.contains(gid) }
        let all = try w.reader.purgedGids()
        purgedGids = all
        return all.contains(gid)
    }

    private mutating func loadHighWater() throws {
        guard !highWaterLoaded else { return }
        highWater = try w.reader.syncHighWater()
        highWaterLoaded = true
    }

    /// The high-water of `device`'s doses as this batch leaves it so far.
    private mutating func highWater(of device: String) -> String? {
        if let recentWater, recentWater.device == device { return recentWater.stamp }
        settleHighWater()
        let stamp = highWater[device]
        recentWater = (device, stamp, false)
        return stamp
    }

    /// Raises `device`'s high-water to `stamp` when it is later.
    private mutating func raiseHighWater(of device: String, to stamp: String) {
        if stamp > highWater(of: device) ?? "" { recentWater = (device, stamp, true) }
    }

    /// Puts the recent device's high-water into ``highWater``.
    private mutating func settleHighWater() {
        if let recentWater, recentWater.raised, let stamp = recentWater.stamp {
            highWater[recentWater.device] = stamp
            raised.insert(recentWater.device)
        }
        recentWater = nil
    }

    private mutating func storeHighWater() throws {
        settleHighWater()
        for device in raised.sorted() { if let stamp = highWater[device] { try w.raiseHighWater(device: device, stamp: stamp) } }
        raised.removeAll()
    }

    /// Applies every waiting operation (of this read or an earlier one) that can be now, and every
    /// held one the clock came within a day of, until nothing more can. Returns how many were
    /// applied. Call ``finish()`` after.
    mutating func retryWaiting() throws -> Int {
        var clock = try w.reader.meta(SyncMeta.clock).flatMap(SyncClock.init) ?? SyncClock(millis: 0, counter: 0)
        var applied = 0
        try loadHighWater()
        var progress = true
        while progress {
            progress = false
            for stored in try w.reader.pendingOperations() {
                guard let op = SyncOperation.parse(Substring(stored.body)) else { continue }
                // One stored to wait before the gate (an older dosebar) that it refuses now: skipped.
                if let reason = op.refusal() {
                    let (file, line) = Self.origin(stored.origin)
                    try skip(SkippedLine(file: file ?? stored.device, line: line, hash: stored.hash ?? LineHash.of(stored.body),
                                         op: op.id, reason: reason))
                    try w.deleteWaiting(operation: op.id)
                    continue
                }
                guard let stamp = op.clock, let millis = op.millis,
                      !isHeld(millis) else { continue }
                let done: Applied?
                do {
                    done = try applyIfCan(op, hash: stored.hash ?? LineHash.of(stored.body))
                } catch is SyncedDose.IDTaken {
                    // It waited beside an event that keeps its id (it was stamped after the high-water).
                    let (file, line) = Self.origin(stored.origin)
                    try skip(SkippedLine(file: file ?? stored.device, line: line, hash: stored.hash ?? LineHash.of(stored.body), op: op.id,
                                         reason: Self.reused(op.id)))
                    try w.deleteWaiting(operation: op.id)
                    continue
                } catch is FieldRules.Violation {
                    continue
                } catch let e as DosebarError {
                    guard case .internal = e else { throw e }
                    continue
                }
                guard let done else { continue }
                clock.receive(stamp)
                // A dose its event keeps needs its row no more.
                if done.kept { try w.deleteWaiting(operation: op.id) } else { try w.markApplied(operation: op.id, eventID: done.eventID) }
                applied += 1
                progress = true
            }
        }
        if applied > 0 { try w.setMeta(SyncMeta.clock, clock.state) }
        try storeHighWater()
        return applied
    }

    /// `FILE:LINE` split.
    /// Why a line that reuses an operation id with other content is skipped.
    private static func reused(_ id: String) -> String {
        "operation \(id) was already received with other content; the first version is kept"
    }

    private static func origin(_ text: String?) -> (String?, Int) {
        guard let text, let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return (nil, 0) }
        return (String(text[..<colon]), line)
    }

    /// Resolves the slots this batch gave doses (their operations stored), derives the stock of
    /// the medicines it touched and drops the history it changed.
    /// With `deferStock`, the touched medicines are only remembered (``SyncMeta/stockPending``): a long
    /// file's batches would otherwise each read every stock operation of every medicine again.
    mutating func finish(deferStock: Bool = false) throws {
        for slot in toResolve.sorted(by: { ($0.medicationID, $0.date, $0.time) < ($1.medicationID, $1.date, $1.time) }) {
            try w.resolveSlot(medicationID: slot.medicationID, day: slot.date, slotTime: slot.time)
        }
        toResolve.removeAll()
        if deferStock {
            try SyncStock.remember(touched, in: w)
        } else {
            for id in touched.sorted() { try SyncStock.derive(medicationID: id, in: w) }
        }
        if let earliest { try w.historyChanged(on: earliest, today: today) }
    }

    /// Applies one operation; nil (and nothing written) when it must wait.
    private mutating func applyIfCan(_ op: SyncOperation, hash: Int64) throws -> Applied? {
        // A dose writes nothing before it knows it can apply, and its only write (the event) is one
        // statement: it needs no savepoint (their cost: Benchmarks/README.md).
        if op.knownKind == .take || op.knownKind == .skip {
            do { return try applyOne(op, hash: hash) } catch DosebarError.badData { return nil }
        }
        var attempt = self
        var done: Applied?
        guard try w.attempt({ done = try attempt.applyOne(op, hash: hash); return done != nil }) else { return nil }
        self = attempt
        return done
    }

    private mutating func touch(_ id: Int64, _ day: LocalDate? = nil) {
        touched.insert(id)
        if let day { earliest = min(earliest ?? day, day) }
    }

    /// Applies one operation; nil when it must wait.
    private mutating func applyOne(_ op: SyncOperation, hash: Int64) throws -> Applied? {
        if op.knownKind == .zone {
            guard let at = op.at, let name = op.name else { return nil }
            let instant = Date(timeIntervalSince1970: at)
            if try w.addZone(.init(at: instant, zone: name, first: op.first == true), op: op.id) {
                // The days from the one before the change are judged again in the log it makes (this
                // applier knows no zone: two days before its UTC date holds in every zone).
                let day = LocalDate(dayNumber: Int(max(0, min(at, 1e11)) / 86_400)).adding(days: -2)
                earliest = min(earliest ?? day, day)
            }
            return Applied()
        }
        guard let kind = op.knownKind, let gid = op.medicine else { return nil }
        if kind == .add { return try add(op, gid) ? Applied() : nil }
        if kind == .purge { try purge(gid); return Applied() }
        guard let id = try medicationID(gid: gid) else { return nil }
        // A dose needs the medicine's id only: the history of another device is mostly doses.
        if kind == .take || kind == .skip { return try dose(op, kind, medicationID: id, hash: hash) }
        guard var m = try w.reader.medication(id: id) else { return nil }
        switch kind {
        case .add, .take, .skip, .purge, .zone:
            return nil
        case .edit:
            try details(op, &m)
        case .archive:
            let day = op.archivedOn.flatMap { LocalDate($0) }
            if try later(op, id, .archive) {
                let before = m.archivedOn
                m.archivedOn = day
                try w.updateMedication(m)
                try w.setRegister(medicationID: id, field: SyncRegister.archive.rawValue, stamp: op.stamp)
                // History changes from the earlier of the two days (an archive undone by a later stamp too).
                // (And the day before: its last slots' cut-off depends on the next slot, DESIGN §3.)
                if let from = [before, day].compactMap({ $0 }).min() { touch(id, from.adding(days: -1)) }
            }
        case .schedule:
            guard let text = op.effective, let effective = LocalDate(text), let schedule = op.schedule?.schedule else { return nil }
            let field = SyncMerge.versionRegister(effective: effective)
            if try later(op, id, field) {
                // A line of an older dosebar has no `per_dose`: the version keeps the medicine's dose.
                try w.putVersion(medicationID: id, ScheduleVersion(effective: effective, schedule: schedule,
                                                                   dosing: op.perDose.map {
                                                                       Dosing(text: op.dose, perDose: $0, perTime: op.perDoseTimes.flatMap(PerTimeDose.entries))
                                                                   }))
                try w.setRegister(medicationID: id, field: field, stamp: op.stamp)
                touch(id, min(effective, schedule.start).adding(days: -1))
            }
        case .stock, .refill:
            touch(id)
        case .confirm:
            // A set: the takes it names are confirmed whether they are here yet or not.
            try w.confirmTakes(op.confirms ?? [])
        case .undo:
            let eventID = try op.target.flatMap { try w.reader.eventID(operation: $0) }
            guard let eventID, let event = try w.reader.event(id: eventID) else { return nil }
            switch SyncMerge.undo(of: eventID, undone: try w.reader.isUndone(eventID: eventID)) {
            case .wait: return nil
            case .revert: _ = try w.insertUndo(of: event, at: Date(timeIntervalSince1970: op.at ?? event.at.timeIntervalSince1970),
                                                      origin: .device)
            case .nothing: break
            }
            if let slot = event.slot { toResolve.insert(slot) }
            touch(event.medicationID, event.slot?.date ?? today)
        }
        return Applied()
    }

    /// Deletes the medicine a purge names, if it is here, with every global id it has; remembers
    /// them all as purged (also one never seen here, so its operations arriving later are dropped).
    private mutating func purge(_ gid: String) throws {
        guard try !isPurged(gid) else { return }
        var gids = [gid]
        if let id = try w.reader.medicationID(gid: gid) {
            let others = try w.purgeMedication(id: id).filter { $0 != gid }
            try SyncJournal.writtenBelowNext(w)
            gids += others
            purgedAlso += others
            touched.remove(id)
            lastEventDay[id] = nil
            slotDoses = slotDoses.filter { $0.key.slot.medicationID != id }
            slotCounts = slotCounts.filter { $0.key.medicationID != id }
            toResolve = toResolve.filter { $0.medicationID != id }
            medicationIDs = medicationIDs.filter { $0.value != id }
        }
        try w.rememberPurged(gids)
        purgedGids?.formUnion(gids)
        try w.setMeta(SyncMeta.rewrite, "1")
    }

    private mutating func medicationID(gid: String) throws -> Int64? {
        if let id = medicationIDs[gid] { return id }
        let id = try w.reader.medicationID(gid: gid)
        medicationIDs[gid] = id
        return id
    }

    /// How many doses a slot has, its doses (``StoreReader/slotEvents(medicationID:day:slotTime:)``)
    /// by kind and second in ``slotDoses``: looked up once per batch and only when it may have some.
    /// A slot found without doses is not kept in ``slotCounts``: its first dose stores its count
    /// (stored twice, it was hashed twice), and a look-up again finds none again.
    private mutating func loadDoses(of slot: DoseSlot) throws -> Int {
        if let count = slotCounts[slot] { return count }
        let last: LocalDate?
        if let known = lastEventDay[slot.medicationID] {
            last = known
        } else {
            last = try w.reader.lastEventDay(medicationID: slot.medicationID)
            lastEventDay[slot.medicationID] = .some(last)
        }
        var count = 0
        if let last, slot.day <= last {
            for e in try w.reader.slotEvents(medicationID: slot.medicationID, day: slot.day, slotTime: slot.time)
            where e.kind != .undone {
                let key = SlotDose(slot: slot, dose: DoseKey(taken: e.kind == .taken, second: Self.second(e.at.timeIntervalSince1970)))
                if slotDoses[key] == nil { slotDoses[key] = e.id; count += 1 }
            }
        }
        if count > 0 { slotCounts[slot] = count }
        return count
    }

    /// The whole second of an instant (``DoseEvent/second(_:)``).
    private static func second(_ at: Double) -> Int64 { DoseEvent.second(at) }

    private mutating func add(_ op: SyncOperation, _ gid: String) throws -> Bool {
        if let id = try w.reader.medicationID(gid: gid), var m = try w.reader.medication(id: id) {
            try details(op, &m)
            try track(id, from: Self.trackingStart(op))
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
            // The same medicine added on two devices: tracked from the earlier add on both.
            try track(m.id, from: Self.trackingStart(op))
            return true
        case .new:
            // A new medicine arrives with a schedule, never without one: its add waits for it.
            guard try scheduled.contains(gid) || w.reader.hasPendingSchedule(gid: gid, notAfter: nowMillis + Self.holdMillis) else {
                return false
            }
        }
        var m = Medication(id: 0, name: name, trackedFrom: withinGate(Self.trackingStart(op)), versions: [])
        fill(op, &m)
        let id = try w.insertMedication(m)
        try w.linkMedicine(gid: gid, medicationID: id, name: name, device: op.device, stamp: op.stamp)
        for register in SyncRegister.details { try w.setRegister(medicationID: id, field: register.rawValue, stamp: op.stamp) }
        return true
    }

    /// The tracking start an `add` gives its medicine: its `tracked_from`, else (a line of an older
    /// dosebar) the instant of its stamp, which the gate found well-formed.
    static func trackingStart(_ op: SyncOperation) -> Date? {
        if let start = op.trackedFrom { return start.date }
        return op.millis.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Tracking of medicine `id` starts no later than `start` (nil: from its first schedule day);
    /// history changes from the day before it (this applier knows no zone). A start the store's gate
    /// refuses (its clock behind this one) moves nothing, and stops nothing: a dose needs no savepoint.
    private mutating func track(_ id: Int64, from start: Date?) throws {
        let moved: Bool
        do { moved = try w.trackFrom(medicationID: id, noLaterThan: withinGate(start)) } catch is FieldRules.Violation { return }
        guard moved else { return }
        let day = start.map { LocalDate(dayNumber: Int(max(0, min($0.timeIntervalSince1970, 1e11)) / 86_400) - 1) }
        touch(id, day ?? LocalDate(dayNumber: 0))
    }

    /// An instant the line's gate let through (up to an hour after its stamp, itself up to a day
    /// after this clock) no later than the store's gate allows (a day after this clock).
    private func withinGate(_ start: Date?) -> Date? {
        start.map { min($0, now.addingTimeInterval(FieldRules.futureAllowance)) }
    }

    /// Each detail the operation carries is a register of its own.
    private mutating func details(_ op: SyncOperation, _ m: inout Medication) throws {
        var won: [SyncRegister] = []
        for register in op.changedRegisters where try later(op, m.id, register) { won.append(register) }
        guard !won.isEmpty else { return }
        fill(op, &m, won)
        try w.updateMedication(m)
        for register in won { try w.setRegister(medicationID: m.id, field: register.rawValue, stamp: op.stamp) }
        touch(m.id)
    }

    private func fill(_ op: SyncOperation, _ m: inout Medication, _ registers: [SyncRegister] = SyncRegister.details) {
        for register in registers {
            switch register {
            case .name: if let name = op.name { m.name = name }
            case .dose: m.dose = op.dose
            case .group: m.group = op.group
            case .note: m.note = op.note
            case .perDose: m.perDose = op.perDose ?? m.perDose
            case .lowDays: m.lowDays = op.lowDays ?? m.lowDays
            case .urgent: m.urgent = op.urgent ?? m.urgent
            case .repeatMinutes: m.repeatMinutes = op.repeatMinutes ?? m.repeatMinutes
            case .archive: continue
            }
        }
    }

    private func later(_ op: SyncOperation, _ id: Int64, _ register: SyncRegister) throws -> Bool {
        try later(op, id, register.rawValue)
    }

    /// Whether `op` wins the register named `field` (a ``SyncRegister`` or a schedule version's).
    private func later(_ op: SyncOperation, _ id: Int64, _ field: String) throws -> Bool {
        SyncMerge.wins(op.stamp, over: try w.reader.register(medicationID: id, field: field))
    }

    private mutating func dose(_ op: SyncOperation, _ kind: SyncOperation.Kind, medicationID id: Int64, hash: Int64) throws -> Applied? {
        guard op.day != nil, let day = op.dayDate, let at = op.at else { return nil }
        var time: LocalTime?
        if op.slot != nil { guard let t = op.slotTime else { return nil }; time = t }
        let eventKind: DoseEvent.Kind = kind == .take ? .taken : .skipped
        let slot = DoseSlot(medicationID: id, day: day, time: time)
        var count = try loadDoses(of: slot)
        let key = SlotDose(slot: slot, dose: DoseKey(taken: kind == .take, second: Self.second(at)))
        let eventID: Int64
        var kept = false
        // A slot without doses has none of this second: another device's first file is mostly such.
        if count > 0, let same = slotDoses[key] {
            eventID = same
        } else {
            let instant = Date(timeIntervalSince1970: at)
            let event = DoseEvent(id: 0, medicationID: id, kind: eventKind,
                                  slot: time.map { SlotKey(medicationID: id, date: day, time: $0) },
                                  at: instant, loggedAt: instant, stockDelta: 0, timeKnown: op.timeKnown ?? true,
                                  overLimit: op.overLimit ?? false)
            // The event keeps the operation (``SyncedDose``): no row of `operation` for it.
            eventID = try w.insertEvent(event, day: day, synced: SyncedDose(id: op.id, device: op.device, stamp: op.stamp,
                                                                            units: kind == .take ? op.amount : nil, hash: hash))
            kept = true
            raiseHighWater(of: op.device, to: op.stamp)
            slotDoses[key] = eventID
            count += 1
            slotCounts[slot] = count
        }
        touch(id, day)
        // An imported dose before the medicine's tracking start moved it on the device that imported it.
        if case .instant(let t) = op.trackedFrom { try track(id, from: Date(timeIntervalSince1970: t)) }
        // The first dose of a slot is its dose: nothing to resolve.
        if let time, count > 1 { toResolve.insert(SlotKey(medicationID: id, date: day, time: time)) }
        return Applied(eventID: eventID, kept: kept)
    }
}
