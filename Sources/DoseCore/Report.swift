import Foundation

/// The doctor's report of whole local days (DESIGN §3 Reports): what `report` writes as CSV,
/// JSON or HTML, every figure taken from the same ledger as `history` and `stats`.
public struct Report: Sendable {
    /// One medicine of the report with its schedule (the one in force on the last day) and figures.
    public struct Line: Sendable {
        public var medication: Medication
        public var schedule: Schedule?
        public var figures: Figures
        /// As-needed doses taken in the period.
        public var asNeeded: Int
        /// The daily time most often taken late or missed (`stats`' `most_late_slot`).
        public var mostLateSlot: LocalTime?
        /// The doses in force over the period with their days: more than one when the dose changed
        /// in it (`medication` holds the last one's).
        public var doses: [(days: ClosedRange<LocalDate>, dosing: Dosing)] = []
    }

    /// One week (Monday first) of the weekly adherence chart; `days` is its part inside the period.
    public struct Week: Sendable {
        public var days: ClosedRange<LocalDate>
        public var figures: Figures
    }

    public let from: LocalDate
    public let to: LocalDate
    public let timezone: String
    public let lines: [Line]
    public let overall: Figures
    public let days: [DayRecord]
    public let slots: [SlotRecord]
    public let asNeeded: [AsNeededRecord]
    public let weeks: [Week]
    /// Where each dose came from (the JSON rows' `origin`); empty unless the caller read the events.
    public var origins = Origins()

    /// Where the doses of a report came from (DESIGN §2), from the events in force: a slot's by the
    /// event that resolved it (the earliest, when sync brought two), an as-needed dose's by its
    /// medicine and the second it was taken. Nil for a missed slot and an event older than the record.
    public struct Origins: Sendable {
        private var slots: [SlotKey: (at: Date, origin: DoseEvent.Origin)] = [:]
        private var doses: [Int64: [Int64: DoseEvent.Origin]] = [:]

        public init() {}

        public init(events: [DoseEvent]) {
            for e in events where e.kind != .undone {
                guard let origin = e.origin else { continue }
                if let slot = e.slot {
                    if let known = slots[slot], known.at <= e.at { continue }
                    slots[slot] = (e.at, origin)
                } else if e.kind == .taken {
                    doses[e.medicationID, default: [:]][DoseEvent.second(of: e.at)] = origin
                }
            }
        }

        public func of(_ s: SlotRecord) -> DoseEvent.Origin? {
            guard s.status.isResolved else { return nil }
            return slots[SlotKey(medicationID: s.medicationID, date: s.date, time: s.time)]?.origin
        }

        public func of(_ d: AsNeededRecord) -> DoseEvent.Origin? {
            doses[d.medicationID]?[DoseEvent.second(of: d.takenAt.date)]
        }
    }

    /// The slots taken on two devices in the period, in slot order (``DoubleDose``), of the medicine.
    public let doubleDoses: [TakenTwice]

    /// The changes of zone within the period (the person travelled), in instant order: the report
    /// names each (DESIGN §3 "Where the person is").
    public let zoneChanges: [ZoneMove]

    /// A change of zone as the report names it: when, on the new zone's clock, and from where to where.
    public struct ZoneMove: Sendable, Equatable {
        public var at: LocalInstant
        public var from: String
        public var to: String
    }

    /// A slot taken on two devices as the report lists it: each take as `device HH:MM`.
    public struct TakenTwice: Sendable, Equatable {
        public var date: LocalDate
        public var time: LocalTime
        public var medication: String
        public var takes: [String]
        public var confirmed: Bool
    }

    /// The report of `ledger`, of one medicine when `medicationID` is given; `doubleDoses`: the
    /// slots of the period taken on two devices (marked on their rows, and listed).
    public init(_ ledger: HistoryLedger, medicationID: Int64? = nil, doubleDoses: [DoubleDose] = []) {
        from = ledger.days.lowerBound
        to = ledger.days.upperBound
        // The zone the period ended in: a later flight does not change a past period's report.
        let zone = ledger.zone
        let periodStart = zone.startOfDay(from), periodEnd = zone.endOfDay(to)
        timezone = zone.name(at: periodEnd.addingTimeInterval(-1))
        zoneChanges = zone.changes(in: periodStart..<periodEnd).map { c in
            ZoneMove(at: LocalInstant(date: c.at, offset: c.timeZone.secondsFromGMT(for: c.at)),
                     from: zone.name(at: c.at.addingTimeInterval(-1)), to: c.name)
        }
        let figures = ledger.figuresByMedication(), counts = ledger.asNeededCounts(), mostLate = ledger.mostLateSlots()
        lines = ledger.medications.filter { medicationID == nil || $0.id == medicationID }.map { m in
            Line(medication: m.on(ledger.days.upperBound), schedule: m.schedule(on: ledger.days.upperBound) ?? m.currentSchedule,
                 figures: figures[m.id] ?? Figures(), asNeeded: counts[m.id] ?? 0, mostLateSlot: mostLate[m.id],
                 doses: m.dosings(in: ledger.days))
        }
        overall = ledger.figures(medicationID: medicationID)
        days = ledger.dayRecords(medicationID: medicationID)
        let twice = doubleDoses.filter { medicationID == nil || $0.slot.medicationID == medicationID }
        var slots = medicationID.map { id in ledger.slots.filter { $0.medicationID == id } } ?? ledger.slots
        if !twice.isEmpty {
            let keys = Set(twice.map(\.slot))
            for i in slots.indices where keys.contains(SlotKey(medicationID: slots[i].medicationID, date: slots[i].date, time: slots[i].time)) {
                slots[i].doubleDose = true
            }
        }
        self.slots = slots
        self.doubleDoses = twice.map {
            TakenTwice(date: $0.slot.date, time: $0.slot.time, medication: $0.medication, takes: $0.takeTexts(zone: zone), confirmed: $0.confirmed)
        }
        asNeeded = medicationID.map { id in ledger.asNeeded.filter { $0.medicationID == id } } ?? ledger.asNeeded
        // Monday-first weeks cut at the period's ends, filled in one pass over the slots.
        let firstMonday = from.adding(days: 1 - from.weekday.rawValue)
        var weeks: [Week] = []
        var start = from
        while start <= to {
            let sunday = start.adding(days: 7 - start.weekday.rawValue)
            weeks.append(Week(days: start...min(sunday, to), figures: Figures()))
            start = sunday.adding(days: 1)
        }
        for slot in slots { weeks[(slot.date - firstMonday) / 7].figures.add(slot) }
        self.weeks = weeks
    }

    /// The doses taken late or missed, in time order (the report's list for the doctor).
    public var troubled: [SlotRecord] { slots.filter { $0.status == .takenLate || $0.status == .missed || $0.decidedAfterClose } }
}
