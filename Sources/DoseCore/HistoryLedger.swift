import Dispatch
import Foundation

/// A day's state in history (DESIGN §3 History), first that applies.
public enum HistoryState: String, Sendable, CaseIterable {
    /// No slots that day (`rest` when a cycle was resting).
    case none, rest
    /// Complete: every slot taken or skipped, at least one taken.
    case done
    /// Every slot skipped.
    case skipped
    /// No slot taken, at least one missed.
    case missed
    /// Some taken, some missed.
    case partial
    /// Today until it is complete; a past day while one of its slots is still open (a 22:00 dose
    /// not yet taken at 00:30).
    case pending

    /// The state of a day from its counts (`resting`: a cycle rested that day). Slots neither taken,
    /// skipped nor missed are still open: the day is pending.
    public init(total: Int, taken: Int, skipped: Int, missed: Int, resting: Bool, isToday: Bool = false) {
        if total == 0 { self = resting ? .rest : .none; return }
        let complete = missed == 0 && taken > 0 && taken + skipped == total
        if complete { self = .done; return }
        if isToday || taken + skipped + missed < total { self = .pending; return }
        if skipped == total { self = .skipped; return }
        if taken == 0 && missed > 0 { self = .missed; return }
        // Some taken, some missed (a finished day has no unresolved slot left).
        self = .partial
    }

    /// The state of a finished day from its cached summary.
    public init(_ summary: DaySummary, resting: Bool, isToday: Bool = false) {
        self.init(total: summary.total, taken: summary.taken, skipped: summary.skipped, missed: summary.missed,
                  resting: resting, isToday: isToday)
    }

    /// Whether any of `medications` is in the rest phase of a cycle on `date` (and none has slots that day
    /// is the caller's business).
    public static func isResting(_ medications: [Medication], on date: LocalDate) -> Bool {
        medications.contains { m in
            guard let s = m.schedule(on: date), s.start <= date, s.until.map({ date <= $0 }) ?? true else { return false }
            return s.cyclePosition(on: date)?.phase == .rest
        }
    }
}

/// One scheduled dose of a past day (or today) with its outcome: a row of `report --format csv`.
public struct SlotRecord: Sendable, Hashable {
    public var date: LocalDate
    public var medicationID: Int64
    public var medication: String
    public var dose: String?
    public var scheduled: LocalInstant
    /// The slot's daily time as scheduled (`08:00`), before any DST move.
    public var time: LocalTime
    /// Final for past days; for today, the status now (`upcoming`, `due` and `late` are not outcomes yet).
    public var status: SlotStatus
    /// When it was taken (nil unless `taken*`).
    public var takenAt: LocalInstant?
    /// For `taken_late`: minutes from scheduled to taken; for `missed`: to its cut-off (C − T).
    public var lateMinutes: Int?
    /// Taken, but the record it was imported from did not say when (`takenAt` is the scheduled time).
    public var timeUnknown = false
    /// Skipped after it had closed as missed (`decided_after_close`).
    public var decidedAfterClose = false
    /// Taken on two devices (DESIGN §10): both takes kept, confirmed or not (``DoubleDose``).
    public var doubleDose = false
}

/// An as-needed dose: a row of `report --format csv` with status `as_needed`.
public struct AsNeededRecord: Sendable, Hashable {
    public var date: LocalDate
    public var medicationID: Int64
    public var medication: String
    public var dose: String?
    public var takenAt: LocalInstant
    /// Recorded with `--force` beyond `--max-per-day`/`--min-interval` (DESIGN §2).
    public var overLimit = false
    /// Imported without the time it was taken: `time_known` false in the report.
    public var timeUnknown = false
}

/// One day of `history --json`.
public struct DayRecord: Sendable, Hashable {
    public var day: LocalDate
    public var state: HistoryState
    public var total = 0, taken = 0, onTime = 0, late = 0, early = 0, skipped = 0, missed = 0
    /// Slots taken at a time nobody recorded (imported), among `taken`.
    public var timeUnknown = 0
    /// As-needed doses recorded with `--force` beyond a limit that day.
    public var overLimit = 0
    /// Doses skipped after they had closed as missed, among `skipped` (`decided_after_close`).
    public var decidedAfterClose = 0
}

/// What `stats` says of a set of slots (DESIGN §2): counts of known outcomes, and percent as in §3 Adherence.
public struct Figures: Sendable, Hashable {
    public var taken = 0, onTime = 0, late = 0, early = 0, skipped = 0, missed = 0
    /// Sum of the minutes late of the doses taken late.
    public var lateMinutesTotal = 0

    public init() {}

    /// Slots whose outcome is known.
    public var known: Int { taken + skipped + missed }
    /// Percent of known slots taken; nil when none is known.
    public var adherence: Int? { Figures.percent(taken, known) }
    /// Percent of taken slots taken within their window; nil when none was taken.
    public var onTimePercent: Int? { Figures.percent(onTime, taken) }
    /// Mean minutes late of the doses taken late (rounded); nil when none was.
    public var meanLateMinutes: Int? { late == 0 ? nil : Int(saturating: (Double(lateMinutesTotal) / Double(late)).rounded()) }

    /// `a` out of `b` in percent, rounded to the nearest integer (the snapshot's rule).
    public static func percent(_ a: Int, _ b: Int) -> Int? { b == 0 ? nil : Int(saturating: (Double(a) * 100 / Double(b)).rounded()) }

    /// Adds another set of slots' figures.
    public mutating func add(_ other: Figures) {
        taken += other.taken; onTime += other.onTime; late += other.late; early += other.early
        skipped += other.skipped; missed += other.missed; lateMinutesTotal = lateMinutesTotal.saturatingAdding(other.lateMinutesTotal)
    }

    /// Counts one slot (only known outcomes count).
    public mutating func add(_ slot: SlotRecord) {
        switch slot.status {
        case .taken: taken += 1; onTime += 1
        case .takenEarly: taken += 1; early += 1
        case .takenLate: taken += 1; late += 1; lateMinutesTotal = lateMinutesTotal.saturatingAdding(slot.lateMinutes ?? 0)
        case .skipped: skipped += 1
        case .missed: missed += 1
        case .upcoming, .due, .late: break
        }
    }
}

/// The outcome of every slot of a range of days, judged by the schedule in force on each day,
/// archived medicines included: what `history`, `stats` and `report` show (DESIGN §3).
/// Pure: the clock's instant and the zone are inputs.
public struct HistoryLedger: Sendable {
    public let days: ClosedRange<LocalDate>
    public let today: LocalDate
    public let zone: Zone
    /// Every slot of the range in time order.
    public private(set) var slots: [SlotRecord] = []
    public private(set) var asNeeded: [AsNeededRecord] = []
    /// Medicines that had a schedule on some day of the range (archived ones included), by name.
    public private(set) var medications: [Medication] = []
    /// Per day, which medicines were resting in a cycle.
    private var resting: [LocalDate: Set<Int64>] = [:]
    /// Per medicine, the first and last day of the range it had a schedule in force.
    private var inForce: [Int64: ClosedRange<LocalDate>] = [:]

    /// Judges `days` (clamped to end today) at `now`. `events` are the effective events of the days
    /// not in `known`; `known` holds outcomes of finished days judged before (the store's cache).
    /// Many days to judge are shared out among `workers`.
    public init(days: ClosedRange<LocalDate>, medications: [Medication], events: [DoseEvent], zone: Zone, now: Date,
                known: [LocalDate: DayOutcome] = [:], workers: any Workers = SameThread()) {
        let today = zone.date(of: now)
        self.today = today
        self.zone = zone
        let last = min(days.upperBound, today)
        self.days = days.lowerBound...max(days.lowerBound, last)
        // A medicine archived on day D leaves D's plan, but what was already taken or skipped on D
        // stays in history (DESIGN §2 `remove`): plan D with it, then drop its unresolved slots.
        var archivedOn: [Int64: LocalDate] = [:]
        let planned = medications.map { m -> Medication in
            guard let day = m.archivedOn else { return m }
            archivedOn[m.id] = day
            var m = m
            m.archivedOn = day.adding(days: 1)
            return m
        }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }   // the order DayPlan keeps at equal instants: no sort per day
        var byDay: [LocalDate: [DoseEvent]] = [:]
        for e in events { byDay[e.slot?.date ?? zone.date(of: e.at), default: []].append(e) }
        var missing: [LocalDate] = []
        var d = self.days.lowerBound
        while d <= self.days.upperBound && d <= today {
            if d == today || known[d] == nil { missing.append(d) }
            d = d.adding(days: 1)
        }
        // Days are independent: many are judged in parts side by side, then joined in order.
        let parts = missing.count < 120 ? 1 : min(4, max(1, workers.width))
        let archived = archivedOn, grouped = byDay, toJudge = missing
        // A medicine on a zone of its own (`--keep-zone`) has slots of the dates around a day in it.
        let around = planned.contains { $0.keepsZone } ? Array(-DayPlan.keptReach - 1...DayPlan.keptReach) : [0]
        let judgedParts = workers.map(parts: parts) { k in
            toJudge[toJudge.count * k / parts ..< toJudge.count * (k + 1) / parts].map { day in
                HistoryLedger.judge(DayPlan(date: day, medications: planned,
                                            events: around.count == 1 ? grouped[day] ?? [] : around.flatMap { grouped[day.adding(days: $0)] ?? [] },
                                            zone: zone, byName: true,
                                            courseEnds: archived),
                                    archivedOn: archived, now: now)
            }
        }
        var judged: [LocalDate: DayOutcome] = [:]
        for part in judgedParts { for outcome in part { judged[outcome.date] = outcome } }
        // Only settled days go to the cache: yesterday's 22:00 dose may still be open after midnight,
        // and its outcome is not final until its cut-off (DESIGN §3).
        fresh = judged.values.filter { $0.date < today && $0.slots.allSatisfy { $0.status.isKnown } }.sorted { $0.date < $1.date }

        let byID = MedicationTable(medications)
        var inForce: [Int64: ClosedRange<LocalDate>] = [:]
        slots.reserveCapacity(judged.values.reduce(0) { $0 + $1.slots.count } + known.values.reduce(0) { $0 + $1.slots.count })
        d = self.days.lowerBound
        while d <= self.days.upperBound && d <= today {
            guard let outcome = judged[d] ?? known[d] else { d = d.adding(days: 1); continue }
            for s in outcome.slots {
                guard let m = byID[s.medicationID] else { continue }
                slots.append(SlotRecord(date: d, medicationID: m.id, medication: m.name, dose: m.dosing(on: d).text, scheduled: s.scheduled,
                                        time: s.time, status: s.status, takenAt: s.takenAt, lateMinutes: s.lateMinutes,
                                        timeUnknown: s.timeUnknown, decidedAfterClose: s.decidedAfterClose))
            }
            for a in outcome.asNeeded {
                guard let m = byID[a.medicationID] else { continue }
                asNeeded.append(AsNeededRecord(date: d, medicationID: m.id, medication: m.name, dose: m.dosing(on: d).text, takenAt: a.takenAt,
                                               overLimit: a.overLimit, timeUnknown: a.timeUnknown))
            }
            if !outcome.resting.isEmpty { resting[d] = Set(outcome.resting) }
            for id in outcome.inForce { inForce[id] = (inForce[id]?.lowerBound ?? d)...d }
            d = d.adding(days: 1)
        }
        self.inForce = inForce
        self.medications = medications.filter { inForce[$0.id] != nil }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// Medicines by id: an array for the small ids a database hands out (no hashing for each of a
    /// year's slots), a dictionary beyond.
    private struct MedicationTable {
        private var dense: [Medication?] = []
        private var sparse: [Int64: Medication] = [:]

        init(_ medications: [Medication]) {
            for m in medications {
                if m.id >= 0 && m.id < 65_536 {
                    if dense.count <= Int(m.id) { dense += [Medication?](repeating: nil, count: Int(m.id) + 1 - dense.count) }
                    if dense[Int(m.id)] == nil { dense[Int(m.id)] = m }
                } else if sparse[m.id] == nil {
                    sparse[m.id] = m
                }
            }
        }

        subscript(id: Int64) -> Medication? {
            id >= 0 && id < Int64(dense.count) ? dense[Int(id)] : sparse[id]
        }
    }

    /// The finished days this ledger judged itself (not given as `known`), in order: for the store's cache.
    public private(set) var fresh: [DayOutcome] = []

    /// The outcome of the day of `plan` as of `now` (final once the day is over).
    static func judge(_ plan: DayPlan, archivedOn: [Int64: LocalDate], now: Date) -> DayOutcome {
        let d = plan.date
        var outcome = DayOutcome(date: d)
        var seen = Set<Int64>()
        func see(_ id: Int64) { if seen.insert(id).inserted { outcome.inForce.append(id) } }
        for slot in plan.slots {
            if archivedOn[slot.key.medicationID] == d && slot.event.map({ $0.at > now }) ?? true { continue }
            let status = slot.status(at: now)
            var late: Int?
            if status == .takenLate, let e = slot.event { late = slot.lateMinutes(at: e.at) }
            if status == .missed { late = slot.lateMinutes(at: slot.cutoff) }
            outcome.slots.append(DayOutcome.Slot(
                medicationID: slot.key.medicationID, time: slot.key.time, scheduled: plan.local(slot.instant), status: status,
                takenAt: status.isTaken ? slot.event.map { plan.local($0.at) } : nil, lateMinutes: late,
                timeUnknown: status.isTaken && slot.event.map { !$0.timeKnown } == true,
                decidedAfterClose: status == .skipped && slot.decidedAfterClose))
            see(slot.key.medicationID)
        }
        for entry in plan.asNeeded {
            if archivedOn[entry.medication.id] == d && entry.taken.isEmpty { continue }
            see(entry.medication.id)
            for at in entry.taken where at <= now {
                outcome.asNeeded.append(DayOutcome.Extra(medicationID: entry.medication.id, takenAt: plan.local(at),
                                                         overLimit: plan.overLimit[entry.medication.id]?.contains(at) == true,
                                                         timeUnknown: plan.timeUnknown[entry.medication.id]?.contains(at) == true))
            }
        }
        // A scheduled medicine's extra doses (``DayPlan/extras``) are listed with the as-needed ones: doses
        // taken, outside every slot, so adherence counts each slot once.
        for entry in plan.extras {
            for at in entry.taken where at <= now {
                see(entry.medication.id)
                outcome.asNeeded.append(DayOutcome.Extra(medicationID: entry.medication.id, takenAt: plan.local(at),
                                                         timeUnknown: plan.timeUnknown[entry.medication.id]?.contains(at) == true))
            }
        }
        for c in plan.cycles where archivedOn[c.medication.id] != d {
            see(c.medication.id)
            if c.position.phase == .rest { outcome.resting.append(c.medication.id) }
        }
        return outcome
    }

    /// The medicines that had a schedule in force on some day of `range`, by name.
    public func medications(in range: ClosedRange<LocalDate>) -> [Medication] {
        medications.filter { inForce[$0.id].map { $0.overlaps(range) } ?? false }
    }

    /// One record per day of the range (of one medicine when given).
    public func dayRecords(medicationID: Int64? = nil) -> [DayRecord] {
        var out: [DayRecord] = []
        var index = 0
        var forced: [LocalDate: Int] = [:]
        for a in asNeeded where a.overLimit && (medicationID == nil || a.medicationID == medicationID) { forced[a.date, default: 0] += 1 }
        var d = days.lowerBound
        while d <= days.upperBound {
            var r = DayRecord(day: d, state: .none)
            r.overLimit = forced[d] ?? 0
            var figures = Figures()
            while index < slots.count && slots[index].date == d {
                let s = slots[index]
                index += 1
                guard medicationID == nil || s.medicationID == medicationID else { continue }
                r.total += 1
                figures.add(s)
                if s.timeUnknown { r.timeUnknown += 1 }
                if s.decidedAfterClose { r.decidedAfterClose += 1 }
            }
            r.taken = figures.taken; r.onTime = figures.onTime; r.late = figures.late; r.early = figures.early
            r.skipped = figures.skipped; r.missed = figures.missed
            let rests = resting[d] ?? []
            r.state = HistoryState(total: r.total, taken: r.taken, skipped: r.skipped, missed: r.missed,
                                   resting: medicationID.map { rests.contains($0) } ?? !rests.isEmpty, isToday: d == today)
            out.append(r)
            d = d.adding(days: 1)
        }
        return out
    }

    /// The figures of the slots on `days` (of one medicine when given).
    public func figures(medicationID: Int64? = nil, days range: ClosedRange<LocalDate>? = nil) -> Figures {
        var f = Figures()
        for s in slots where (medicationID == nil || s.medicationID == medicationID) && (range?.contains(s.date) ?? true) {
            f.add(s)
        }
        return f
    }

    /// The figures of every medicine on `days`, in one pass over the slots (counted in an array by id:
    /// no hashing for each of a year's slots).
    public func figuresByMedication(days range: ClosedRange<LocalDate>? = nil) -> [Int64: Figures] {
        var dense: [Figures?] = []
        var out: [Int64: Figures] = [:]
        for s in slots where range?.contains(s.date) ?? true {
            let id = s.medicationID
            guard id >= 0 && id < 65_536 else { out[id, default: Figures()].add(s); continue }
            let i = Int(id)
            if i >= dense.count { dense += [Figures?](repeating: nil, count: i + 1 - dense.count) }
            if dense[i] == nil { dense[i] = Figures() }
            dense[i]!.add(s)
        }
        for (i, f) in dense.enumerated() { if let f { out[Int64(i)] = f } }
        return out
    }

    /// The daily time of a medicine most often taken late or missed in `days` (`08:00`), the earliest on a tie;
    /// nil when none was (the finding of the `move_suggestion` message, over the whole range).
    public func mostLateSlot(medicationID: Int64, days range: ClosedRange<LocalDate>? = nil) -> LocalTime? {
        mostLateSlots(days: range)[medicationID]
    }

    /// ``mostLateSlot(medicationID:days:)`` of every medicine that has one, in one pass over the slots.
    public func mostLateSlots(days range: ClosedRange<LocalDate>? = nil) -> [Int64: LocalTime] {
        var count: [Int64: [LocalTime: Int]] = [:]
        for s in slots where (s.status == .takenLate || s.status == .missed) && (range?.contains(s.date) ?? true) {
            count[s.medicationID, default: [:]][s.time, default: 0] += 1
        }
        return count.compactMapValues { times in
            times.max { ($0.value, $1.key.minuteOfDay) < ($1.value, $0.key.minuteOfDay) }?.key
        }
    }

    /// The number of as-needed doses of a medicine in `days`.
    public func asNeededCount(medicationID: Int64, days range: ClosedRange<LocalDate>? = nil) -> Int {
        asNeededCounts(days: range)[medicationID] ?? 0
    }

    /// ``asNeededCount(medicationID:days:)`` of every medicine that has any, in one pass.
    public func asNeededCounts(days range: ClosedRange<LocalDate>? = nil) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        for a in asNeeded where range?.contains(a.date) ?? true { out[a.medicationID, default: 0] += 1 }
        return out
    }
}
