import Foundation

/// Computes the snapshot of one day at any instant of it (DESIGN §3–§4).
/// Pure: the plan, history, catalog and icons are inputs; it never reads the clock.
public struct SnapshotBuilder: Sendable {
    public let plan: DayPlan
    public let history: History
    public let catalog: Catalog
    public let icons: IconSet
    /// Active medicines (stock and low-stock rules).
    public let medications: [Medication]
    /// Slots taken on two devices (DESIGN §10): each not confirmed is a `double_dose` message.
    public let doubleDoses: [DoubleDose]

    public init(plan: DayPlan, history: History, medications: [Medication], catalog: Catalog = .english, icons: IconSet = .emoji,
                doubleDoses: [DoubleDose] = []) {
        self.plan = plan
        self.doubleDoses = doubleDoses
        self.history = history
        self.catalog = catalog
        self.icons = icons
        self.medications = medications.filter { $0.archivedOn.map { $0 > plan.date } ?? true }
        let zone = plan.zone
        stockLines = self.medications.compactMap { SnapshotBuilder.stock(of: $0, on: plan.date) }
        // The most urgent first (so the low-stock message names it), then by name: not by local row
        // id, which differs between machines that sync one history.
        .sorted { ($0.daysLeft ?? .max, $0.medication, $0.remaining) < ($1.daysLeft ?? .max, $1.medication, $1.remaining) }
        cycleLines = plan.cycles.map { c in
            Snapshot.Cycle(medication: c.medication.name, phase: c.position.phase, day: c.position.day, length: c.position.length,
                           next: c.turn.nextPhaseStart,
                           text: catalog.text("cycle.named", ["name": c.medication.name, "cycle": catalog.cycleDay(c.position, then: c.turn)]))
        }
        var troubled: [String: Int] = [:]
        for day in history.last(6) { for k in Set(day.troubled) { troubled[k, default: 0] += 1 } }
        pastTroubled = troubled
        slotScheduled = plan.slots.map { zone.local($0.instant) }
        slotEventAt = plan.slots.map { $0.event.map { zone.local($0.at) } }
        slotDoses = zip(plan.slots, slotScheduled).map { slot, scheduled in
            Snapshot.Dose(medication: slot.medication.name, medicationID: slot.key.medicationID, dose: slot.medication.dose,
                          // The person's day it is on: a slot on a zone of its own may be of another date there.
                          group: slot.medication.group, day: plan.date, scheduled: scheduled, status: .upcoming,
                          takenAt: nil, timeKnown: slot.event?.timeKnown != false, lateMinutes: nil)
        }
        slotLabels = plan.slots.map { slot in
            var line = zone.local(slot.instant).clock + SnapshotBuilder.keptClock(slot, zone: zone) + "  " + slot.medication.name
            if let dose = slot.medication.dose, !dose.isEmpty { line += " " + dose }
            return line
        }
        // Yesterday's slots still open after midnight, of medicines still in force today (DESIGN §4).
        carried = plan.carried.filter { slot in slot.medication.archivedOn.map { $0 > plan.date } ?? true }
        carriedScheduled = carried.map { zone.local($0.instant) }
        carriedEventAt = carried.map { $0.event.map { zone.local($0.at) } }
        carriedNames = carried.map { slot in
            catalog.text("slot.carried_name", ["name": slot.medication.name, "time": zone.local(slot.instant).clock])
        }
        carriedLabels = carried.map { slot in
            var line = catalog.text("slot.yesterday", ["time": zone.local(slot.instant).clock]) + "  " + slot.medication.name
            if let dose = slot.medication.dose, !dose.isEmpty { line += " " + dose }
            return line
        }
        // Every slot of yesterday that can be missed at an instant of today, archived medicines'
        // too (yesterday's summary counts them), by name then time: what `missed_yesterday` names.
        yesterdaysDoses = (plan.closedYesterday + plan.carried).map { slot in
            (slot, Message.Dose(name: slot.medication.name, time: zone.local(slot.instant).clock))
        }.sorted { ($0.dose.name, $0.slot.instant) < ($1.dose.name, $1.slot.instant) }
        // The bar line's stock warning: the most urgent low medicine (the tooltip lists every one).
        lowText = stockLines.first(where: \.low).map { s in
            if s.remaining <= .zero { return catalog.text("text.out", ["name": s.medication]) }
            guard let days = s.daysLeft else { return catalog.text("text.low_unknown", ["name": s.medication]) }
            return catalog.text("text.low", ["name": s.medication, "days": catalog.counted("confirm.days", days)])
        }
        var words: [SlotStatus: String] = [:]
        for status in SlotStatus.allCases { words[status] = catalog.status(status) }
        statusWords = words
        // Archived medicines included: a medicine archived since rested on the days before.
        pastWeek = SnapshotBuilder.pastWeek(history, medications: medications)
        restingToday = HistoryState.isResting(medications, on: plan.date)
        // The person changed zone during the day or the one before (DESIGN §3 "Where the person is").
        let moves = zone.changes(in: plan.dayStart.addingTimeInterval(-86400)..<plan.dayEnd)
        zoneMoves = moves.map { ($0, zone.name(at: $0.at.addingTimeInterval(-1))) }
        travelGaps = moves.flatMap { TravelGap.find(medications: self.medications, zone: zone, change: $0) }
        var resolved: [SlotKey: Date] = [:]
        if !travelGaps.isEmpty {
            for slot in plan.carried + plan.slots { if let e = slot.event { resolved[slot.key] = e.at } }
        }
        gapResolvedAt = resolved
    }

    /// Each travel gap with its message in the catalog's language and when its next dose was
    /// resolved (nil: not yet, or not in this plan): what the daemon's notice says.
    public var travelNotices: [(gap: TravelGap, text: String, resolvedAt: Date?)] {
        travelGaps.map { ($0, catalog.render($0.message(zone: plan.zone)).text, gapResolvedAt[$0.next]) }
    }

    /// Instants the messages change at besides the hours and the slots' own: a change of zone, a
    /// day after it (`zone_changed` ends), a travel gap's end.
    public var messageInstants: [Date] {
        zoneMoves.flatMap { [$0.change.at, $0.change.at.addingTimeInterval(86400)] }
            + travelGaps.map { $0.nextAt.addingTimeInterval(Double($0.window)) }
    }

    /// ` (22:00 Asia/Seoul)` for a slot on a zone of its own whose clock reads otherwise than the
    /// person's (`--keep-zone`: "08:00 here = 22:00 Asia/Seoul"), else nothing.
    static func keptClock(_ slot: PlannedSlot, zone: Zone) -> String {
        guard let kept = slot.medication.schedule(on: slot.key.date)?.keepZone,
              kept.identifier != zone.name(at: slot.instant) || slot.key.time != zone.local(slot.instant).time else { return "" }
        return " (" + slot.key.time.description + " " + kept.identifier + ")"
    }

    /// The 6 days before today, oldest first, from their summaries (a day without one had no
    /// slots) and the cycles' rest days: the same in every entry of the day.
    public static func pastWeek(_ history: History, medications: [Medication]) -> [Snapshot.WeekDay] {
        let summaries = Dictionary(history.last(6).map { ($0.date, $0) }) { _, newer in newer }
        return (1...6).reversed().map { back in
            let day = history.today.adding(days: -back)
            let summary = summaries[day] ?? DaySummary(date: day, total: 0, taken: 0, onTime: 0, skipped: 0, missed: 0)
            return Snapshot.WeekDay(day: day, state: HistoryState(summary, resting: HistoryState.isResting(medications, on: day)))
        }
    }

    /// Tooltip line heads per slot (`08:00  Aspirin 100 mg`) and status words: the same in every entry.
    private let slotLabels: [String]
    /// Each slot's scheduled instant and event instant with their offsets (a zone lookup each, done once).
    private let slotScheduled: [LocalInstant]
    private let slotEventAt: [LocalInstant?]
    /// Each slot's dose line with what does not depend on the instant filled in: an entry sets its
    /// status, take time and lateness (a copy per entry, not a line built from the medicine's fields).
    private let slotDoses: [Snapshot.Dose]
    private let statusWords: [SlotStatus: String]
    private let stockLines: [Snapshot.Stock]
    private let cycleLines: [Snapshot.Cycle]
    private let pastTroubled: [String: Int]
    private let pastWeek: [Snapshot.WeekDay]
    private let restingToday: Bool
    /// Yesterday's slots that may be open during the day, and what is shown of them.
    private let carried: [PlannedSlot]
    private let carriedScheduled: [LocalInstant]
    private let carriedEventAt: [LocalInstant?]
    /// `Yaz (yesterday 22:00)`: how messages and the bar name a carried slot.
    private let carriedNames: [String]
    /// `yesterday 22:00  Yaz 3 mg`: a carried slot's tooltip line head.
    private let carriedLabels: [String]
    /// Yesterday's slots closed or carried, each with how `missed_yesterday` names it.
    private let yesterdaysDoses: [(slot: PlannedSlot, dose: Message.Dose)]
    /// ` · Warfarin low (3 days)`: appended to the bar line when no dose is due or late; nil when no stock is low.
    private let lowText: String?
    /// The changes of zone of the day and the one before, each with the zone before it.
    private var zoneMoves: [(change: ZoneChange, was: String)] = []
    /// The medicines whose interval those changes moved (``TravelGap``), and when each next dose was resolved.
    public private(set) var travelGaps: [TravelGap] = []
    private var gapResolvedAt: [SlotKey: Date] = [:]

    /// Average scheduled units per day of a medicine's schedule in force on `date`; 0 for a schedule
    /// an older dosebar stored out of range (every 0 days, a cycle of 0/0, a per-dose below 1).
    /// A medicine's stock on `date` (DESIGN §3 Stock): what is left, the whole days it lasts, and
    /// whether that is low; nil when its stock is not tracked. The snapshot and a take's
    /// confirmation line both judge it here.
    public static func stock(of m: Medication, on date: LocalDate) -> Snapshot.Stock? {
        let m = m.on(date)
        guard let remaining = m.stock else { return nil }
        // In hundredths: a whole per-day amount divides exactly (3 ÷ (2 × 0.5) is 3 days, not 2.999…).
        let perDay = hundredthsPerDay(m, on: date)
        let daysLeft = perDay > 0 ? Int(saturating: (Double(remaining.hundredths) / perDay).rounded(.down)) : nil
        let low = daysLeft.map { $0 <= m.lowDays } ?? (remaining < m.perDose)
        return Snapshot.Stock(medication: m.name, remaining: remaining, daysLeft: daysLeft, low: low)
    }

    public static func unitsPerDay(_ m: Medication, on date: LocalDate) -> Double {
        hundredthsPerDay(m, on: date) / 100
    }

    /// ``unitsPerDay(_:on:)`` in hundredths of a unit (exact for a daily schedule).
    public static func hundredthsPerDay(_ m: Medication, on date: LocalDate) -> Double {
        let m = m.on(date)
        guard let s = m.schedule(on: date) ?? m.currentSchedule, m.perDose > 0 else { return 0 }
        // In Double: a per-dose of 2^63 - 1 times three doses a day must not overflow. Each time
        // with its own amount (`--per-dose 0.5,1`): a day uses their sum.
        let perDay = s.times.reduce(0.0) { $0 + Double(m.perDose(at: $1).hundredths) }
        switch s.recurrence {
        case .daily: return perDay
        case .weekdays(let d): return perDay * Double(d.count) / 7
        case .everyDays(let n): return n > 0 ? perDay / Double(n) : 0
        case .everyWeeks(let n): return n > 0 ? perDay / (7 * Double(n)) : 0
        case .everyMonths(let n): return n > 0 ? perDay / (30.44 * Double(n)) : 0
        case .cycle(let a, let r): return a > 0 && r >= 0 ? perDay * Double(a) / (Double(a) + Double(r)) : 0
        case .asNeeded: return 0
        }
    }

    /// The snapshot as of `t`, valid until `validUntil`. `complete: false` leaves out what only
    /// the snapshot in force is shown with (`tooltip`, and every message after the first): the
    /// other timeline entries are written without them (DESIGN §4), so they are not computed.
    public func snapshot(at t: Date, validUntil: Date, complete: Bool = true) -> Snapshot {
        let zone = plan.zone
        let tally = tally(at: t)
        let counts = tally.counts
        let state = dayState(counts, carried: tally)
        let yesterday = yesterday(at: t)
        let streak = streak(counts, yesterday: yesterday)
        let adherence = adherence(tally, yesterday: yesterday)
        let asNeeded = asNeeded(at: t)
        var past = pastWeek
        if let y = yesterday, !past.isEmpty {
            past[past.count - 1].state = HistoryState(total: y.summary.total, taken: y.summary.taken, skipped: y.summary.skipped,
                                                      missed: y.summary.missed, resting: past[past.count - 1].state == .rest)
            if y.open > 0 { past[past.count - 1].state = .pending }
        }
        let week = past + [Snapshot.WeekDay(day: plan.date, state: HistoryState(
            total: counts.total, taken: counts.taken, skipped: counts.skipped, missed: counts.missed,
            resting: restingToday, isToday: true))]
        let nextLine = tally.next.first.map { first in
            Snapshot.Next(medication: tally.next.map(\.medication.name).joined(separator: ", "), scheduled: zone.local(first.instant))
        }
        var messages = messages(tally, at: t, state: state, streak: streak.current, yesterday: yesterday)
        // An entry that is not complete shows only the first message: the suggestions, near the
        // end of the rule list, matter to it only when nothing before them matched.
        if complete || messages.isEmpty { messages += suggestions(troubled: tally.troubled) }
        if state == .none { messages.append(Message(MessageID.nothingToday, .info)) }
        if messages.isEmpty { messages.append(Message(MessageID.nothingToday, .info)) }
        let rendered = complete ? messages.map(catalog.render) : [catalog.render(messages[0])]

        let text = barText(state: state, counts: counts, late: tally.lateSlots, due: tally.dueSlots, next: tally.next,
                           streak: streak.current)
        let tooltip = complete
            ? tooltipText(doses: tally.doses, labels: tally.labels, asNeeded: asNeeded, messages: rendered, streak: streak, adherence: adherence,
                          week: week) : ""
        let resolved = counts.taken + counts.skipped
        return Snapshot(
            at: zone.local(t), validUntil: zone.local(validUntil), day: plan.date, timezone: zone.identifier,
            state: state, counts: counts, progress: counts.total == 0 ? 0 : resolved * 100 / counts.total,
            doses: tally.doses, asNeeded: asNeeded, next: nextLine,
            streak: streak, adherence: adherence, stock: stockLines, cycle: cycleLines, week: week,
            message: rendered[0], messages: rendered, text: text, tooltip: tooltip)
    }

    /// Today's slots judged at one instant: counts, the dose lines, and what the rules need.
    private struct Tally {
        var counts = Snapshot.Counts()
        var doses: [Snapshot.Dose] = []
        /// Late and due slots, carried ones first, each with how messages name it.
        var lateSlots: [(Named, Int)] = []
        var dueSlots: [Named] = []
        var carriedLate = 0, carriedDue = 0
        /// Tooltip line heads of `doses`.
        var labels: [String] = []
        /// Every upcoming slot at the earliest upcoming instant.
        var next: [PlannedSlot] = []
        var onTimeToday = 0, takenToday = 0, knownToday = 0
        /// Indexes of today's slots taken late, late now or missed.
        var troubled: [Int] = []
    }

    /// A slot and the name messages give it (`Yaz`, or `Yaz (yesterday 22:00)` when carried).
    private struct Named {
        var slot: PlannedSlot
        var name: String
    }

    private func tally(at t: Date) -> Tally {
        var tally = Tally()
        tally.doses.reserveCapacity(plan.slots.count + carried.count)
        // Carried slots first, while open (DESIGN §4): resolved or closed, they are history.
        for (index, slot) in carried.enumerated() {
            let status = slot.status(at: t)
            guard status == .due || status == .late else { continue }
            tally.counts.carried += 1
            let named = Named(slot: slot, name: carriedNames[index])
            var lateMinutes: Int?
            if status == .late {
                let m = slot.lateMinutes(at: t)
                lateMinutes = m
                tally.lateSlots.append((named, m))
                tally.carriedLate += 1
            } else {
                tally.dueSlots.append(named)
                tally.carriedDue += 1
            }
            tally.labels.append(carriedLabels[index])
            tally.doses.append(Snapshot.Dose(
                medication: slot.medication.name, medicationID: slot.key.medicationID, dose: slot.medication.dose,
                group: slot.medication.group, day: plan.date.adding(days: -1), scheduled: carriedScheduled[index], status: status,
                takenAt: nil, lateMinutes: lateMinutes))
        }
        for index in plan.slots.indices {
            let status = plan.slots[index].status(at: t)
            tally.counts.total += 1
            var lateMinutes: Int?
            switch status {
            case .upcoming:
                tally.counts.upcoming += 1
                if tally.next.isEmpty || tally.next[0].instant == plan.slots[index].instant { tally.next.append(plan.slots[index]) }
            case .due:
                tally.counts.due += 1
                tally.dueSlots.append(Named(slot: plan.slots[index], name: plan.slots[index].medication.name))
            case .late:
                tally.counts.late += 1
                let m = plan.slots[index].lateMinutes(at: t)
                lateMinutes = m
                tally.lateSlots.append((Named(slot: plan.slots[index], name: plan.slots[index].medication.name), m))
                tally.troubled.append(index)
            case .missed:
                tally.counts.missed += 1; tally.knownToday += 1
                tally.troubled.append(index)
            case .taken: tally.counts.taken += 1; tally.takenToday += 1; tally.onTimeToday += 1; tally.knownToday += 1
            case .takenEarly: tally.counts.taken += 1; tally.takenToday += 1; tally.knownToday += 1
            case .takenLate:
                tally.counts.taken += 1; tally.takenToday += 1; tally.knownToday += 1
                tally.troubled.append(index)
            case .skipped: tally.counts.skipped += 1; tally.knownToday += 1
            }
            var dose = slotDoses[index]
            dose.status = status
            if status.isTaken { dose.takenAt = slotEventAt[index] } else { dose.timeKnown = true }
            dose.lateMinutes = lateMinutes
            tally.labels.append(slotLabels[index])
            tally.doses.append(dose)
        }
        return tally
    }

    /// The day state (DESIGN §3), first that applies.
    private func dayState(_ counts: Snapshot.Counts, carried tally: Tally) -> DayState {
        let resolved = counts.taken + counts.skipped
        let pending = counts.upcoming + counts.due + counts.late + counts.carried > 0
        if !plan.hasMedications && counts.carried == 0 { return .empty }
        if counts.late + tally.carriedLate > 0 { return .late }
        if counts.due + tally.carriedDue > 0 { return .due }
        if counts.missed > 0 && !pending { return .missed }
        if counts.total > 0 && resolved == counts.total { return .done }
        if counts.upcoming > 0 { return .upcoming }
        if cycleLines.contains(where: { $0.phase == .rest }) { return .rest }
        return .none
    }

    /// The streak through today: yesterday's carried on when today is complete, 0 when today broke it.
    /// Yesterday as of `t` when one of its slots may still be open after midnight: its summary with
    /// those slots judged at `t`, and how many are open (the day is pending then). Nil when nothing of
    /// yesterday can change today (its cached summary is final).
    private func yesterday(at t: Date) -> (summary: DaySummary, open: Int)? {
        guard !carried.isEmpty else { return nil }
        var y = history.yesterday ?? DaySummary(date: plan.date.adding(days: -1), total: 0, taken: 0, onTime: 0, skipped: 0, missed: 0)
        var open = 0
        func count(_ status: SlotStatus, _ sign: Int) {
            switch status {
            case .taken: y.taken += sign; y.onTime += sign
            case .takenEarly, .takenLate: y.taken += sign
            case .skipped: y.skipped += sign
            case .missed: y.missed += sign
            case .upcoming, .due, .late: break
            }
        }
        let known = history.yesterday != nil
        for slot in carried {
            if known { count(slot.status(at: .distantFuture), -1) } else { y.total += 1 }
            let now = slot.status(at: t)
            if now.isKnown { count(now, 1) } else { open += 1 }
        }
        return (y, open)
    }

    private func streak(_ counts: Snapshot.Counts, yesterday: (summary: DaySummary, open: Int)?) -> Snapshot.Streak {
        let resolved = counts.taken + counts.skipped
        let todayComplete = counts.total > 0 && resolved == counts.total && counts.taken > 0
        let todayState: Snapshot.Streak.Today
        if counts.missed > 0 { todayState = .broken }
        else if counts.total == 0 || (resolved == counts.total && counts.taken == 0) { todayState = .none }
        else if todayComplete { todayState = .done }
        else { todayState = .pending }
        var through = history.streakThroughYesterday, best = history.bestBeforeToday
        if let y = yesterday {
            // A pending yesterday neither breaks nor extends: the streak stands where the day before left it.
            let before = history.dayBeforeYesterday
            let chained = before?.streak ?? 0
            through = y.open > 0 ? chained : y.summary.isBroken ? 0 : y.summary.isComplete ? chained + 1 : chained
            best = max(before?.best ?? 0, through)
        }
        let current = todayState == .broken ? 0 : through + (todayComplete ? 1 : 0)
        return Snapshot.Streak(current: current, best: max(best, current), today: todayState)
    }

    /// Percent taken over 7 and 30 days and percent on time over 30, today's known outcomes included.
    private func adherence(_ tally: Tally, yesterday: (summary: DaySummary, open: Int)?) -> Snapshot.Adherence {
        func percent(_ a: Int, _ b: Int) -> Int? { b == 0 ? nil : Int(saturating: (Double(a) * 100 / Double(b)).rounded()) }
        var taken7 = tally.takenToday, known7 = tally.knownToday, taken30 = tally.takenToday, known30 = tally.knownToday
        var onTime30 = tally.onTimeToday
        let week = history.today.adding(days: -6)
        for stored in history.recent {
            let d = yesterday.map { $0.summary.date == stored.date ? $0.summary : stored } ?? stored
            let known = d.taken + d.skipped + d.missed
            taken30 += d.taken; known30 += known; onTime30 += d.onTime
            if d.date >= week { taken7 += d.taken; known7 += known }
        }
        return Snapshot.Adherence(days7: percent(taken7, known7), days30: percent(taken30, known30),
                                  onTime: percent(onTime30, taken30))
    }

    /// Each as-needed medicine with today's count and when the next dose is allowed.
    private func asNeeded(at t: Date) -> [Snapshot.AsNeeded] {
        plan.asNeeded.map { item -> Snapshot.AsNeeded in
            let taken = item.taken.filter { $0 <= t }
            var nextAllowed: Date?
            if let max = item.maxPerDay, taken.count >= max { nextAllowed = plan.dayEnd }
            else if let gap = item.minInterval, let last = taken.last, last.addingTimeInterval(Double(gap)) > t {
                nextAllowed = last.addingTimeInterval(Double(gap))
            }
            return Snapshot.AsNeeded(medication: item.medication.name, takenToday: taken.count, maxPerDay: item.maxPerDay,
                                     nextAllowed: nextAllowed.map(plan.zone.local),
                                     text: asNeededLine(item.medication.name, taken: taken.count, max: item.maxPerDay, next: nextAllowed))
        }
    }

    /// The message rules of DESIGN §3, in priority order (the move suggestions come after).
    private func messages(_ tally: Tally, at t: Date, state: DayState, streak current: Int,
                          yesterday: (summary: DaySummary, open: Int)?) -> [Message] {
        var messages: [Message] = []
        if state == .empty { messages.append(Message(MessageID.empty, .info)) }
        let maxLate = tally.lateSlots.map(\.1).max() ?? 0
        if !tally.lateSlots.isEmpty {
            let (id, sev): (String, Severity) = switch LateGrade(minutes: maxLate) {
            case .late: (MessageID.late, .warning)
            case .twoHours: (MessageID.late2h, .warning)
            case .fourHours: (MessageID.late4h, .critical)
            }
            messages.append(Message(id, sev, ["names": .list(uniqueNames(tally.lateSlots.map(\.0))), "late": .minutes(maxLate)]))
        }
        // A dose taken twice outranks all but a late one (DESIGN §3 Messages): by slot, so every
        // device lists them in one order.
        for d in doubleDoses.filter({ !$0.confirmed }).sorted(by: { ($0.slot.date, $0.slot.time, $0.medication) < ($1.slot.date, $1.slot.time, $1.medication) }) {
            messages.append(d.message(today: plan.date, zone: plan.zone))
        }
        if !tally.dueSlots.isEmpty {
            messages.append(Message(MessageID.dueNow, .warning, ["names": .list(uniqueNames(tally.dueSlots))]))
        }
        // Named from the plan; a plan without yesterday's slots (planned without `carry`) leaves
        // only the summary's count to say.
        let missed = yesterdaysDoses.filter { $0.slot.status(at: t) == .missed }.map(\.dose)
        let counted = (yesterday?.summary ?? history.yesterday)?.missed ?? 0
        if !missed.isEmpty || counted > 0 {
            messages.append(Message(MessageID.missedYesterday, .warning,
                                    ["count": .number(missed.isEmpty ? counted : missed.count), "doses": .doses(missed)]))
        }
        for move in zoneMoves where t >= move.change.at && t < move.change.at.addingTimeInterval(86400) {
            messages.append(Message(MessageID.zoneChanged, .info, ["zone": .text(move.change.name), "was": .text(move.was),
                                                                   "time": .text(plan.zone.local(move.change.at).clock)]))
        }
        for gap in travelGaps where gap.stands(at: t, resolvedAt: gapResolvedAt[gap.next]) {
            messages.append(gap.message(zone: plan.zone))
        }
        for s in stockLines where s.low {
            messages.append(Message(MessageID.lowStock, .warning, ["name": .text(s.medication), "days": .number(s.daysLeft ?? 0)]))
        }
        if state == .done {
            let milestone = [7, 30, 100, 365].contains(current)
            messages.append(Message(milestone ? MessageID.allDoneMilestone : MessageID.allDone, .good, ["streak": .number(current)]))
        }
        for c in plan.cycles where c.position.phase == .rest {
            let resumes = plan.date.adding(days: c.position.length - c.position.day + 1).weekday
            messages.append(Message(MessageID.restDay, .info, ["name": .text(c.medication.name), "day": .number(c.position.day),
                                                               "length": .number(c.position.length), "weekday": .weekday(resumes)]))
        }
        if let first = tally.next.first {
            messages.append(Message(MessageID.nextUp, .info, ["names": .list(uniqueNames(tally.next)),
                                                              "time": .text(plan.zone.local(first.instant).clock)]))
        }
        return messages
    }

    /// The pattern rule: a time taken late or missed on 3 or more of the last 7 days.
    private func suggestions(troubled: [Int]) -> [Message] {
        let troubledToday = Set(troubled.map { plan.slots[$0].key.daily.description })
        var messages: [Message] = []
        var seen = Set<String>()
        for slot in plan.slots {
            let k = slot.key.daily.description
            guard seen.insert(k).inserted else { continue }
            let n = (pastTroubled[k] ?? 0) + (troubledToday.contains(k) ? 1 : 0)
            if n >= 3 {
                messages.append(Message(MessageID.moveSuggestion, .info, ["name": .text(slot.medication.name),
                                                                          "time": .text(slot.key.time.description), "count": .number(n)]))
            }
        }
        return messages
    }

    /// Each medicine once, as the first of its slots names it.
    private func uniqueNames(_ slots: [Named]) -> [String] {
        var seen = Set<Int64>()
        return slots.compactMap { seen.insert($0.slot.key.medicationID).inserted ? $0.name : nil }
    }

    private func uniqueNames(_ slots: [PlannedSlot]) -> [String] {
        var seen = Set<Int64>()
        return slots.compactMap { seen.insert($0.key.medicationID).inserted ? $0.medication.name : nil }
    }

    private func barText(state: DayState, counts: Snapshot.Counts, late: [(Named, Int)], due: [Named],
                         next: [PlannedSlot], streak: Int) -> String {
        var args: [String: String] = ["done": String(counts.taken + counts.skipped), "total": String(counts.total),
                                      "streak": String(streak)]
        let key: String
        switch state {
        case .empty: key = "text.empty"
        case .none: key = "text.none"
        case .rest:
            key = "text.rest"
            if let c = cycleLines.first(where: { $0.phase == .rest }) { args["day"] = String(c.day); args["length"] = String(c.length) }
        case .done: key = "text.done"
        case .missed: key = "text.missed"
        case .late:
            key = "text.late"
            args["names"] = uniqueNames(late.map(\.0)).joined(separator: catalog.listSeparator)
            args["late"] = catalog.minutes(late.map(\.1).max() ?? 0)
        case .due:
            key = "text.due"
            args["names"] = uniqueNames(due).joined(separator: catalog.listSeparator)
        case .upcoming:
            key = "text.upcoming"
            args["names"] = uniqueNames(next).joined(separator: catalog.listSeparator)
            args["time"] = next.first.map { plan.zone.local($0.instant).clock } ?? ""
        }
        let line = icons[state] + " " + catalog.text(key, args)
        // A medicine running out shows on the line itself unless a dose due or late needs it (DESIGN §3 Messages).
        switch state {
        case .late, .due, .empty: return line
        case .none, .rest, .done, .missed, .upcoming: return lowText.map { line + $0 } ?? line
        }
    }

    /// `Ibuprofen (as needed): 1/3 today · next from 15:30`; `· no more today` once the day's maximum is taken.
    private func asNeededLine(_ name: String, taken: Int, max: Int?, next: Date?) -> String {
        var args = ["name": name, "count": String(taken)]
        args["max"] = max.map(String.init)
        var line = catalog.text(max == nil ? "as_needed.count" : "as_needed.count_max", args)
        if let next {
            line += " · " + (next >= plan.dayEnd ? catalog.text("as_needed.none_left")
                                                 : catalog.text("as_needed.next", ["time": plan.zone.local(next).clock]))
        }
        return line
    }

    private func tooltipText(doses: [Snapshot.Dose], labels: [String], asNeeded: [Snapshot.AsNeeded], messages: [RenderedMessage],
                             streak: Snapshot.Streak, adherence: Snapshot.Adherence, week: [Snapshot.WeekDay]) -> String {
        var lines: [String] = []
        lines.reserveCapacity(doses.count + asNeeded.count + 6)
        for (i, d) in doses.enumerated() {
            var line = labels[i] + "  " + (statusWords[d.status] ?? d.status.rawValue)
            if let at = d.takenAt { line += " " + at.clock }
            lines.append(line)
        }
        if doses.isEmpty { lines.append(catalog.text("tooltip.none")) }
        lines.append(contentsOf: asNeeded.map(\.text))
        // A rest day's line is its `rest_day` message, below.
        lines.append(contentsOf: cycleLines.filter { $0.phase == .active }.map(\.text))
        lines.append("")
        lines.append(contentsOf: messages.map(\.text))
        lines.append(catalog.text("tooltip.streak", ["current": String(streak.current), "best": String(streak.best)]))
        if adherence.days7 != nil || adherence.days30 != nil {
            lines.append(catalog.text("tooltip.adherence", ["days7": adherence.days7.map { "\($0)%" } ?? "–",
                                                            "days30": adherence.days30.map { "\($0)%" } ?? "–"]))
        }
        lines.append(WeekStrip.line(week, catalog: catalog, icons: icons))
        return lines.joined(separator: "\n")
    }
}
