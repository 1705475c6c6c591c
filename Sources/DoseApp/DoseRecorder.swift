import DoseCore
import DoseStore
import Foundation

/// Records takes and skips, whoever asks: `take`/`skip` on the command line (and so a bar click)
/// and a notification's "Taken"/"Skip". The dose is decided inside one write transaction (so
/// parallel clicks never take the same dose twice), then `write` appends the event and moves stock.
public struct DoseRecorder {
    public let context: AppContext
    public let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context; self.store = store
    }

    /// One recorded event, for the confirmation line.
    public struct Recorded: Sendable {
        public var kind: DoseEvent.Kind
        public var medication: Medication
        /// The scheduled dose; nil for an as-needed dose.
        public var slot: PlannedSlot?
        public var at: Date
        /// The facts of its confirmation line (stock after the dose, as-needed count).
        public var confirmation: DoseConfirmation
    }

    /// `take`/`skip` of `names` (every open dose when empty) at `at` (default now); `slot`: the dose
    /// `--slot [DATE ]HH:MM` names (its date defaults to the day of `at`, else today).
    /// `force`: an as-needed dose beyond its limits is recorded, marked `over_limit`, instead of refused.
    /// `origin`: where the command came from (DESIGN §2), kept with each event.
    public func record(_ kind: DoseEvent.Kind, names: [String], at: Date?, next: Bool, force: Bool = false,
                       slot: (date: LocalDate?, time: LocalTime)? = nil, origin: DoseEvent.Origin? = nil) throws -> [Recorded] {
        let now = context.now, zone = context.zone
        if let at, at > now.addingTimeInterval(60) {
            throw DosebarError.badData(context.catalog.text("usage.at_future", ["when": zone.local(at).iso8601]))
        }
        let when = at ?? now
        let day = slot?.date ?? zone.date(of: when)
        // A dose of a day to come is not taken yet: naming one is a typo more often than a plan.
        if let named = slot?.date, named > zone.date(of: when) {
            throw DosebarError.badData(context.catalog.text("error.slot_future", ["date": named.description, "time": slot!.time.description]))
        }
        return try context.change(store) { scope -> [Recorded] in
            let w = scope.writer
            let all = try w.reader.medications(includeArchived: true)
            let active = all.filter { $0.archivedOn == nil }
            // The day before too: its slots still open after midnight are taken as last night's (DESIGN §2).
            let plan = DayPlan(date: day, medications: active,
                               events: try w.reader.events(days: DayPlan.eventDays(day.adding(days: -1)...day, medications: active)), zone: zone)
            // The next day's slots matter only to a named medicine with nothing open or to come today.
            var following: DayPlan?
            let nextDay = { () throws -> DayPlan? in
                if following == nil {
                    let next = day.adding(days: 1)
                    following = DayPlan(date: next, medications: active,
                                        events: try w.reader.events(days: DayPlan.eventDays(next...next, medications: active)), zone: zone, carry: false)
                }
                return following
            }
            let targets = try DoseResolver.targets(names: names, taking: kind == .taken, plan: plan, following: nextDay,
                                                   medications: all, at: at, now: now, next: next, force: force,
                                                   slot: slot?.time, catalog: context.catalog)
            let journal = try scope.journal()
            let logged = try w.reader.actionInstant(now: context.now)
            var recorded: [Recorded] = []
            for target in targets {
                var r = try write(kind, target, at: when, logged: logged, day: zone.date(of: when), origin: origin, in: w, journal)
                if r.slot == nil, let item = plan.asNeeded.first(where: { $0.medication.id == r.medication.id }) {
                    // This dose, the day's earlier ones and those recorded before it in this command.
                    let before = recorded.filter { $0.slot == nil && $0.medication.id == r.medication.id }.count
                    r.confirmation.takenToday = item.taken.filter { $0 <= when }.count + before + 1
                    r.confirmation.maxPerDay = item.maxPerDay
                }
                recorded.append(r)
            }
            // The earliest day whose history changed: a carried slot belongs to yesterday.
            scope.historyChanged(on: recorded.map { $0.slot?.key.date ?? zone.date(of: when) }.min() ?? day)
            return recorded
        }
    }

    /// A notification's answer on exactly the doses it named: each slot still unresolved gets the
    /// event at now; slots resolved meanwhile (a bar click, a terminal) are left alone.
    @discardableResult
    public func record(_ kind: DoseEvent.Kind, slots: [SlotKey], origin: DoseEvent.Origin = .notification) throws -> [Recorded] {
        let zone = context.zone
        return try context.change(store) { scope -> [Recorded] in
            let w = scope.writer
            let meds = try w.reader.medications(includeArchived: false)
            let journal = try scope.journal()
            let logged = try w.reader.actionInstant(now: context.now)
            var recorded: [Recorded] = []
            for day in Set(slots.map(\.date)).sorted() {
                let plan = DayPlan(date: day, medications: meds, events: try w.reader.events(days: DayPlan.eventDays(day...day, medications: meds)),
                                   zone: zone, carry: false)
                for key in slots where key.date == day {
                    guard let slot = (plan.slots + plan.untracked).first(where: { $0.key == key }), slot.event == nil else { continue }
                    recorded.append(try write(kind, .slot(slot), at: context.now, logged: logged, day: day, origin: origin, in: w, journal))
                }
                scope.historyChanged(on: day)
            }
            return recorded
        }
    }

    /// The one place a take or skip is written: a take moves stock by the dose (never below 0),
    /// and the event remembers how much so undo can give it back.
    private func write(_ kind: DoseEvent.Kind, _ target: DoseResolver.Target, at when: Date, logged: Date, day: LocalDate,
                       origin: DoseEvent.Origin?, in w: StoreWriter, _ journal: SyncJournal?) throws -> Recorded {
        let (m, slot, overLimit): (Medication, PlannedSlot?, Bool) = switch target {
        case .slot(let s): (s.medication, s, false)
        case .extra(let m, let over): (m.on(day), nil, over)
        }
        var delta = Amount.zero
        let stored = try w.reader.stock(medicationID: m.id)
        if kind == .taken, let stored {
            // The dose of its time (`--per-dose 0.5,1`); an as-needed dose: the one amount.
            let take = Stock.take(from: stored, perDose: m.perDose(at: slot?.key.time))
            delta = take.used
            // With sync on, the journal derives the stock from the operations: set once, by it.
            if let journal { journal.stockAfterTake(medicationID: m.id, take.after) } else { try w.setStock(medicationID: m.id, take.after) }
        }
        let event = DoseEvent(id: 0, medicationID: m.id, kind: kind, slot: slot?.key, at: when, loggedAt: logged,
                              stockDelta: delta, overLimit: overLimit, origin: origin)
        let id = try w.insertEvent(event, day: slot?.key.date ?? day)
        try journal?.dose(event, eventID: id, day: slot?.key.date ?? day, medication: m)
        var after = m
        after.stock = stored.map { Stock.clamped($0) - delta }
        return Recorded(kind: kind, medication: m, slot: slot, at: when,
                        confirmation: DoseConfirmation(kind: kind, medication: after, slot: slot, at: when, overLimit: overLimit))
    }
}

extension DoseRecorder.Recorded {
    /// The confirmation line (DESIGN §2), built by ``DoseConfirmation``.
    public func line(_ catalog: Catalog, zone: Zone, today: LocalDate) -> String {
        confirmation.line(catalog, zone: zone, today: today)
    }
}
