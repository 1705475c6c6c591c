import Foundation

/// What a `take` or `skip` recorded, in the words of its confirmation line (DESIGN §2): which slot
/// (and its day when not today), when, how early or late, what is left, and a warning when the
/// stock is low or empty. Pure: every fact is an input.
///
///     Took Yaz (yesterday's 22:00 dose) at 00:30, 2h 30m late · 12 left (12 days)
///     Took Ibuprofen at 14:00 (2 of 3 today)
///     Skipped Magnesium (21:00 dose)
public struct DoseConfirmation: Sendable {
    public var kind: DoseEvent.Kind
    /// The medicine, with its stock as it is after the dose (nil: stock not tracked).
    public var medication: Medication
    /// The scheduled dose; nil for an as-needed dose.
    public var slot: PlannedSlot?
    /// When it was taken or skipped.
    public var at: Date
    /// An as-needed dose: how many that day, this one included.
    public var takenToday: Int?
    public var maxPerDay: Int?
    /// Recorded with `--force` beyond a limit.
    public var overLimit: Bool

    public init(kind: DoseEvent.Kind, medication: Medication, slot: PlannedSlot?, at: Date, takenToday: Int? = nil,
                maxPerDay: Int? = nil, overLimit: Bool = false) {
        self.kind = kind; self.medication = medication; self.slot = slot; self.at = at
        self.takenToday = takenToday; self.maxPerDay = maxPerDay; self.overLimit = overLimit
    }

    /// A stock amount in words. The one place a confirmation writes units, so that fractional
    /// stock (hundredths) changes one line.
    public static func amountText(_ amount: Amount) -> String { amount.description }

    /// `12 on hand · 24 days`, with ` · low: refill soon` when low (no days for an empty stock or one
    /// no schedule uses by the day): what `refill` and `add --stock` say a medicine holds, judged on
    /// `date` as the snapshot judges it. Nil when its stock is not tracked.
    public static func onHand(_ m: Medication, on date: LocalDate, catalog: Catalog) -> String? {
        guard let stock = SnapshotBuilder.stock(of: m, on: date) else { return nil }
        var text = catalog.text("stock.on_hand", ["amount": amountText(stock.remaining)])
        if let days = stock.daysLeft, stock.remaining > .zero {
            text += catalog.text("stock.days", ["days": catalog.counted("confirm.days", days)])
        }
        if stock.low { text += catalog.text("confirm.low") }
        return text
    }

    /// The line, in `catalog`'s language; `today` decides whether a day is named.
    public func line(_ catalog: Catalog, zone: Zone, today: LocalDate) -> String {
        var args = ["name": medication.name, "dose": medication.dose.map { $0.isEmpty ? "" : " " + $0 } ?? "",
                    "when": when(at, catalog, zone: zone, today: today)]
        if let slot {
            let time = zone.local(slot.instant).clock
            args["slot"] = slot.key.date == today ? time
                : slot.key.date == today.adding(days: -1) ? catalog.text("confirm.slot.yesterday", ["time": time])
                : catalog.text("confirm.slot.date", ["time": time, "date": slot.key.date.description])
        }
        if kind == .skipped { return catalog.text("confirm.skipped", args) }
        var line: String
        if let slot {
            args["timing"] = timing(slot, catalog)
            line = catalog.text("confirm.took", args)
        } else {
            var count = takenToday.map { n in
                maxPerDay.map { catalog.text("confirm.count_max", ["count": String(n), "max": String($0)]) }
                    ?? catalog.text("confirm.count", ["count": String(n)])
            } ?? ""
            if overLimit { count += catalog.text("confirm.over_limit") }
            args["count"] = count
            line = catalog.text(count.isEmpty ? "confirm.took_as_needed" : "confirm.took_as_needed_count", args)
        }
        return line + stock(catalog, on: zone.date(of: at))
    }

    /// `00:30` today, else `2026-11-20 00:30`.
    private func when(_ instant: Date, _ catalog: Catalog, zone: Zone, today: LocalDate) -> String {
        let clock = zone.local(instant).clock
        let day = zone.date(of: instant)
        return day == today ? clock : catalog.text("confirm.slot.date", ["time": clock, "date": day.description])
    }

    /// `, 2h 30m late`, `, 1h 10m early`, or nothing within the window (the slot's own rule).
    private func timing(_ slot: PlannedSlot, _ catalog: Catalog) -> String {
        var judged = slot
        judged.event = DoseEvent(id: 0, medicationID: slot.key.medicationID, kind: .taken, slot: slot.key, at: at, loggedAt: at)
        let minutes = Int(saturating: (abs(at.timeIntervalSince(slot.instant)) / 60).rounded(.down))
        switch judged.status(at: at) {
        case .takenLate: return catalog.text("confirm.late", ["duration": catalog.minutes(minutes)])
        case .takenEarly: return catalog.text("confirm.early", ["duration": catalog.minutes(minutes)])
        default: return ""
        }
    }

    /// ` · 12 left (12 days)`, with ` · low: refill soon` when low, ` · none left` when empty;
    /// nothing when stock is not tracked or for a skip.
    private func stock(_ catalog: Catalog, on day: LocalDate) -> String {
        // As the snapshot judges it (DESIGN §3 Stock).
        guard let stock = SnapshotBuilder.stock(of: medication, on: day) else { return "" }
        let left = stock.remaining
        if left <= .zero { return catalog.text("confirm.none_left") }
        var text = stock.daysLeft.map { catalog.text("confirm.left_days", ["amount": Self.amountText(left), "days": catalog.counted("confirm.days", $0)]) }
            ?? catalog.text("confirm.left", ["amount": Self.amountText(left)])
        if stock.low { text += catalog.text("confirm.low") }
        return text
    }
}
