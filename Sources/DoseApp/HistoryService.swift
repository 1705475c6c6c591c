import DoseCore
import DoseRuntime
import DoseStore
import Foundation

/// Loads past days for `history`, `stats` and `report`: every medicine (archived ones keep their
/// history) and the effective events of the range, judged by DoseCore's `HistoryLedger`.
public struct HistoryService {
    public let store: DoseStore
    public let context: AppContext

    public init(store: DoseStore, context: AppContext) {
        self.store = store; self.context = context
    }

    /// The ledger of `days` (clamped to end today) as of now.
    ///
    /// Finished days judged before come from the store's cache; the others are judged from their
    /// events and then kept (best effort: a database that cannot be written to is only read).
    public func ledger(_ days: ClosedRange<LocalDate>) throws -> HistoryLedger {
        let zone = context.zone, today = context.today
        let (medications, known, events, version) = try store.read { r -> ([Medication], [LocalDate: DayOutcome], [DoseEvent], Int) in
            let known = days.lowerBound < today
                ? try r.outcomes(days: days.lowerBound...min(days.upperBound, today.adding(days: -1)), zone: zone.fingerprint) : [:]
            // Only the days not cached need their events: from the first of them on.
            var first = days.lowerBound
            while first < today && first <= days.upperBound && known[first] != nil { first = first.adding(days: 1) }
            let medications = try r.medications(includeArchived: true)
            let events = first <= days.upperBound ? try r.events(days: DayPlan.eventDays(first...days.upperBound, medications: medications)) : []
            return (medications, known, events, try r.dataVersion())
        }
        let ledger = HistoryLedger(days: days, medications: medications, events: events, zone: zone, now: context.now, known: known,
                                   workers: Parallel.threads)
        if !ledger.fresh.isEmpty {
            // Only if nobody wrote in between: the outcomes were judged from what was read.
            _ = try? store.write { w in
                if try w.reader.dataVersion() == version { try w.saveOutcomes(ledger.fresh, zone: zone.fingerprint) }
            }
        }
        return ledger
    }

    /// Doses merged as duplicates (the same slot taken on two devices, DESIGN §10) on each day of
    /// `days`, for one medicine or all; days without any are absent.
    public func duplicates(_ days: ClosedRange<LocalDate>, medicationID: Int64?) throws -> [LocalDate: Int] {
        try store.read { try $0.duplicateCounts(days: days, medicationID: medicationID) }
    }

    /// The slots of `days` taken on two devices (DESIGN §10), confirmed or not, of one medicine or all.
    public func doubleDoses(_ days: ClosedRange<LocalDate>, medicationID: Int64?) throws -> [DoubleDose] {
        try store.read { r in
            try DoubleDoseService.read(r, days: days, medicationID: medicationID, medications: try r.medications(includeArchived: true))
        }
    }

    /// `history`: each day of `days` for `medication` (nil: every medicine) and the doses merged as
    /// duplicates on each (days without any are absent).
    public func days(_ days: ClosedRange<LocalDate>, medication: Medication?) throws -> (records: [DayRecord], duplicates: [LocalDate: Int]) {
        (try ledger(days).dayRecords(medicationID: medication?.id), try duplicates(days, medicationID: medication?.id))
    }

    /// The medicine a NAME argument means, archived ones included (their history is kept).
    public func medication(named name: String) throws -> Medication {
        let all = try store.read { try $0.medications(includeArchived: true) }
        return try DoseResolver.match(name, in: all, catalog: context.catalog, archived: true)
    }

    /// `--from`/`--to`/`--days` as a range ending no later than today: `days` (else `defaultDays`) back
    /// from `to` (else today) when `--from` is absent, `days` on from `from` when `--to` is. All three
    /// at once, a range that ends before it starts, or one that starts after today is a usage error.
    public func range(from: String?, to: String?, days: Int? = nil, defaultDays: Int) throws -> ClosedRange<LocalDate> {
        let today = context.today
        if from != nil && to != nil && days != nil {
            throw DosebarError.usage(context.catalog.text("usage.range_two"))
        }
        let first = try from.map { try InputParser.date($0, flag: "--from", today: today) }
        var end = try to.map { try InputParser.date($0, flag: "--to", today: today) } ?? today
        if let first, let days, to == nil { end = first.adding(days: days - 1) }
        let start = first ?? min(end, today).adding(days: -((days ?? defaultDays) - 1))
        guard start <= end else { throw DosebarError.usage(context.catalog.text("usage.range_order", ["from": start.description, "to": end.description])) }
        guard start <= today else { throw DosebarError.usage(context.catalog.text("usage.range_future", ["from": start.description, "today": today.description])) }
        return start...min(end, today)
    }
}
