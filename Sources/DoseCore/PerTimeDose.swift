/// The amount of one dose time, for a medicine whose doses differ by time of day
/// (`--at 20:00,22:30 --per-dose 0.5,1`: half a tablet at eight, one at half past ten).
public struct TimedAmount: Hashable, Sendable, CustomStringConvertible {
    public var time: LocalTime
    public var amount: Amount
    public init(time: LocalTime, amount: Amount) {
        self.time = time; self.amount = amount
    }

    /// `20:00=0.5`: one entry of the stored and synced form (``PerTimeDose/text(_:)``).
    public var description: String { "\(time)=\(amount)" }
}

/// Amounts per dose time: pairing what was typed, and the one strict text form the database
/// (`schedule_version.per_dose_times`) and sync lines (`per_dose_times`) hold.
///
/// A list is *canonical* when it has two or more entries, its times strictly increase (sorted,
/// unique, as `Schedule.times`), every amount is within `FieldRules.perDoseRange`, and the amounts
/// are not all equal (one amount for every time is the plain `per_dose`, no list).
public enum PerTimeDose {
    /// Why amounts cannot be paired with times.
    public enum Refusal: Error, Equatable, Sendable {
        /// More than one amount, and not one for each time.
        case count(amounts: Int, times: Int)
        /// One time given twice with two different amounts.
        case conflict(LocalTime)
    }

    /// Pairs `amounts` with `times`, both in the order typed (`--per-dose 1,0.5 --at 22:30,20:00`
    /// gives 20:00 0.5 and 22:30 1). One amount is every time's; otherwise there must be one per
    /// time. A time typed twice with the same amount counts once; with two amounts it is refused.
    /// Returns the amount of the earliest time (the medicine's `per_dose`) and the list, nil when
    /// every time has the same amount.
    public static func pair(_ amounts: [Amount], with times: [LocalTime]) throws(Refusal) -> (perDose: Amount, perTime: [TimedAmount]?) {
        guard let only = amounts.first else { throw .count(amounts: 0, times: times.count) }
        if amounts.count == 1 { return (only, nil) }
        guard amounts.count == times.count else { throw .count(amounts: amounts.count, times: times.count) }
        var byTime: [LocalTime: Amount] = [:]
        for (time, amount) in zip(times, amounts) {
            if let earlier = byTime[time], earlier != amount { throw .conflict(time) }
            byTime[time] = amount
        }
        let list = byTime.map { TimedAmount(time: $0.key, amount: $0.value) }.sorted { $0.time < $1.time }
        return (list[0].amount, collapsed(list))
    }

    /// `list`, or nil when it says one amount for every time (or has fewer than two times).
    public static func collapsed(_ list: [TimedAmount]) -> [TimedAmount]? {
        guard list.count >= 2, Set(list.map(\.amount)).count > 1 else { return nil }
        return list
    }

    /// The stored form: `20:00=0.5,22:30=1`.
    public static func text(_ list: [TimedAmount]) -> String {
        list.map(\.description).joined(separator: ",")
    }

    /// The list a stored or synced text holds, when it is in the canonical form exactly (nothing
    /// else is read: no spaces, no `0.50`, no unsorted or repeated time); nil otherwise.
    public static func parse(_ text: String) -> [TimedAmount]? {
        entries(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// ``parse(_:)`` of the entries one by one (a sync line's array).
    public static func entries(_ items: [String]) -> [TimedAmount]? {
        guard items.count <= FieldRules.timesRange.upperBound else { return nil }
        var list: [TimedAmount] = []
        for item in items {
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let time = LocalTime(String(parts[0])),
                  let amount = try? Amount.parse(String(parts[1])) else { return nil }
            let entry = TimedAmount(time: time, amount: amount)
            guard entry.description == item else { return nil }
            list.append(entry)
        }
        return isCanonical(list) ? list : nil
    }

    /// Whether `list` is in the canonical form (see the type's notes).
    public static func isCanonical(_ list: [TimedAmount]) -> Bool {
        guard list.count >= 2, list.count <= FieldRules.timesRange.upperBound else { return false }
        for (a, b) in zip(list, list.dropFirst()) where !(a.time < b.time) { return false }
        guard list.allSatisfy({ FieldRules.perDoseRange.contains($0.amount) }) else { return false }
        return collapsed(list) != nil
    }
}

extension Dosing {
    /// The amount of the dose at `time`: its own when the dose differs by time, else `perDose`
    /// (also for an as-needed dose, a take with no slot, or a time the list does not name).
    public func amount(at time: LocalTime?) -> Amount {
        guard let perTime, let time, let entry = perTime.first(where: { $0.time == time }) else { return perDose }
        return entry.amount
    }

    /// The units the doses at `times` use together (a day's doses): each time's own amount.
    public func sum(over times: [LocalTime]) -> Amount {
        times.reduce(Amount.zero) { $0 + amount(at: $1) }
    }
}

extension Medication {
    /// The amount of its dose at `time` as of the dose's day: call it on ``on(_:)`` of that day
    /// (a slot's `medication` is). Nil time: an as-needed dose or a take with no slot.
    public func perDose(at time: LocalTime?) -> Amount {
        Dosing(text: dose, perDose: perDose, perTime: perDoseTimes).amount(at: time)
    }
}
