import DoseCore
import DoseExport

extension HistoryService {
    /// The `days` before `current`, as many as it has (what `stats` compares it with).
    public static func previous(_ current: ClosedRange<LocalDate>) -> ClosedRange<LocalDate> {
        let days = current.upperBound - current.lowerBound + 1
        return current.lowerBound.adding(days: -days)...current.lowerBound.adding(days: -1)
    }

    /// `stats`: the figures of `current` and of as many days just before it (``previous(_:)``),
    /// overall and per medicine that has slots in `current`; only `medication` when given.
    public func stats(_ current: ClosedRange<LocalDate>, medication: Medication?) throws -> HistoryJSON.Stats {
        let previous = Self.previous(current)
        let ledger = try ledger(previous.lowerBound...current.upperBound)
        let shown = ledger.medications(in: current).filter { medication == nil || $0.id == medication!.id }
        let now = ledger.figuresByMedication(days: current), before = ledger.figuresByMedication(days: previous)
        let mostLate = ledger.mostLateSlots(days: current)
        return HistoryJSON.Stats(
            days: current.upperBound - current.lowerBound + 1, from: current.lowerBound, to: current.upperBound,
            overall: Self.total(now, of: medication?.id),
            previous: Self.total(before, of: medication?.id),
            medications: shown.map { m in
                (name: m.name, mostLateSlot: mostLate[m.id], figures: now[m.id] ?? Figures(), previous: before[m.id] ?? Figures())
            })
    }

    /// One medicine's figures, or every medicine's together (every slot belongs to one medicine).
    static func total(_ figures: [Int64: Figures], of id: Int64?) -> Figures {
        if let id { return figures[id] ?? Figures() }
        var sum = Figures()
        for f in figures.values { sum.add(f) }
        return sum
    }
}
