import Foundation
import ArgumentParser
import DoseCore

/// Descriptive and stock flags shared by `add` and `edit`.
struct MedicationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("What one dose is, e.g. \"100 mg\" or \"2 tablets\".", valueName: "text"))
    var dose: String?

    @Option(name: .long, help: ArgumentHelp("A group to sort it under, e.g. morning.", valueName: "name"))
    var group: String?

    @Option(name: .long, help: ArgumentHelp("Units on hand (enables stock tracking); to hundredths, e.g. 9.75.", valueName: "N"),
            transform: Amount.argument("--stock", FieldRules.stockRange))
    var stock: Amount?

    @Option(name: .customLong("per-dose"), help: ArgumentHelp(
        "Units one dose uses (default 1); 0.5 is half a tablet. One amount per time of --at, in its order, when they differ: 0.5,1.",
        valueName: "N[,N…]"),
            transform: Amount.list("--per-dose", FieldRules.perDoseRange))
    var perDose: [Amount]?

    @Option(name: .customLong("low-days"), help: ArgumentHelp("Warn when this many days of stock are left (default 7).", valueName: "N"))
    var lowDays: Int?

    @Option(name: .long, help: ArgumentHelp("A free-text note.", valueName: "text"))
    var note: String?

    @Flag(inversion: .prefixedNo, help: "Critical notifications from the first reminder (--no-urgent: normal).")
    var urgent: Bool?

    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Show an unanswered reminder again every DURATION (1m to 24h, e.g. 10m) until taken, skipped, snoozed or closed; off: never (default: [notify] repeat, else off).",
        valueName: "duration|off"))
    var repeatEvery: String?

    /// `--repeat` in minutes (0: off), nil when not given.
    var repeatMinutes: Int? {
        get throws { try repeatEvery.map { try InputParser.repeatMinutes($0) } }
    }

    func validate() throws {
        if let lowDays, !FieldRules.lowDaysRange.contains(lowDays) {
            throw ValidationError("--low-days: give a number from \(FieldRules.lowDaysRange.lowerBound) to \(FieldRules.lowDaysRange.upperBound)")
        }
        // A usage error here, in validation, is ArgumentParser's to report (exit 64).
        do { _ = try repeatMinutes } catch let e as DosebarError { throw ValidationError(e.description) }
        for (flag, value) in [("--dose", dose), ("--group", group), ("--note", note)] {
            if let value { try TextRules.text(value, flag: flag, max: flag == "--note" ? FieldRules.typedNoteMax : FieldRules.shortTextMax) }
        }
    }

    /// Applies the given flags to `m` (``validate()`` refused a `--repeat` that does not parse).
    /// `times`: the dose times in the order typed (`--at`), else the schedule's, that `--per-dose`
    /// amounts pair with; a list that does not pair is a usage error.
    func apply(to m: inout Medication, times: [LocalTime]) throws {
        if let dose { m.dose = dose.isEmpty ? nil : dose }
        if let group { m.group = group.isEmpty ? nil : group }
        if let note { m.note = note.isEmpty ? nil : note }
        if let stock { m.stock = stock }
        if let perDose {
            do {
                (m.perDose, m.perDoseTimes) = try PerTimeDose.pair(perDose, with: times)
            } catch .count(let amounts, let count) {
                throw DosebarError.usage(Catalog.english.text("usage.per_dose_count", ["count": String(amounts), "times": String(count)]))
            } catch .conflict(let time) {
                throw DosebarError.usage(Catalog.english.text("usage.per_dose_conflict", ["time": time.description]))
            }
        }
        if let lowDays { m.lowDays = lowDays }
        if let urgent { m.urgent = urgent }
        if let minutes = (try? repeatMinutes) ?? nil { m.repeatMinutes = minutes }
    }

    /// A new dose text or amount: a dose version from `edit --effective` on.
    var changesDose: Bool { dose != nil || perDose != nil }

    var changesSomething: Bool {
        dose != nil || group != nil || stock != nil || perDose != nil || lowDays != nil || note != nil || urgent != nil
            || repeatEvery != nil
    }
}
