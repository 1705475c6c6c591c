import DoseCore
import Foundation

/// Reads the data folder of the GTK app Dosage into an ``ImportPlan``: `dosage-treatments.json`
/// (`{version, lastUpdate, treatments[]}`, or `meds[]` in the older layout) and `dosage-history.json`
/// (`history[]`, or the older `history` object keyed by date). Written from the file format, not from
/// Dosage's code.
///
/// Treatments become medicines (frequency → schedule, `dosage[]` → times, `duration` → course,
/// `inventory` → stock); history entries become takes and skips of the slot at their time on their
/// day (code 1, 2: taken at `taken[0]`; 3: taken at the slot's time, time unknown; 0: skipped;
/// −1: missed, which dosebar records by the absence of an event).
public struct DosageReader {
    public static let treatmentsFile = "dosage-treatments.json"
    public static let historyFile = "dosage-history.json"

    public let context: AppContext

    public init(context: AppContext) { self.context = context }

    /// The folder to read: `dir` (or, when nil, Dosage's Flatpak data folder, else `$XDG_DATA_HOME`),
    /// or its `dosage/` subfolder, whichever holds `dosage-treatments.json`.
    public func folder(_ dir: String?) throws -> String {
        let env = context.env
        let home = env["HOME"] ?? NSHomeDirectory()
        let candidates: [String]
        if let dir {
            candidates = [dir]
        } else {
            let data = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
            candidates = [home + "/.var/app/io.github.diegopvlk.Dosage/data", data]
        }
        for c in candidates {
            for d in [c, c + "/dosage"] where FileManager.default.fileExists(atPath: d + "/" + Self.treatmentsFile) { return d }
        }
        throw DosebarError.io("no \(Self.treatmentsFile) in \(candidates.flatMap { [$0, $0 + "/dosage"] }.joined(separator: ", ")); "
            + "give Dosage's data folder: dosebar import dosage DIR")
    }

    /// Everything the folder holds, checked whole before anything is written.
    public func plan(folder: String) throws -> ImportPlan {
        let treatmentsRoot = try JSONField.read(folder + "/" + Self.treatmentsFile).object()
        let historyRoot = try JSONField.read(folder + "/" + Self.historyFile).object()
        let entries = try historyEntries(historyRoot)
        var plan = ImportPlan()

        // Treatments, under `treatments` (current) or `meds` (before version 1).
        let list = treatmentsRoot.has("treatments") ? treatmentsRoot["treatments"] : treatmentsRoot["meds"]
        guard !list.isAbsent else { throw treatmentsRoot["treatments"].fail("an array of treatments") }
        var kinds: [String: Recurrence] = [:]
        for t in try list.array() {
            let name = try Self.name(t["name"])
            let key = Medication.nameKey(name)
            let history = entries.filter { Medication.nameKey($0.name) == key }
            let (medication, notes) = try treatment(t, name: name, firstHistoryDay: history.map(\.day).min())
            if kinds[key] == nil {
                kinds[key] = medication.currentSchedule?.recurrence
                plan.medicines.append(.init(name: name, template: medication, origin: .treatment))
            }
            plan.noEquivalent += notes
        }

        // History: doses of a known treatment go to its slots; the others to an archived as-needed medicine.
        var orphans: [String: (name: String, first: LocalDate, last: LocalDate)] = [:]
        for e in entries {
            let key = Medication.nameKey(e.name)
            let asNeeded = kinds[key].map(\.isAsNeeded) ?? true
            if kinds[key] == nil {
                let o = orphans[key] ?? (e.name, e.day, e.day)
                orphans[key] = (o.name, min(o.first, e.day), max(o.last, e.day))
            }
            let slotInstant = context.zone.instant(e.day, e.time)
            switch e.code {
            case -1: plan.recordMissed(e.name, at: min(slotInstant, context.now))
            case 0: plan.doses.append(.init(name: e.name, kind: .skipped, slot: asNeeded ? .asNeeded : .nominal(e.day, e.time),
                                            at: min(e.at, context.now)))
            case 1, 2: plan.doses.append(.init(name: e.name, kind: .taken, slot: asNeeded ? .asNeeded : .nominal(e.day, e.time), at: e.at))
            default: plan.doses.append(.init(name: e.name, kind: .taken, slot: asNeeded ? .asNeeded : .nominal(e.day, e.time),
                                             at: min(slotInstant, context.now), timeKnown: false))
            }
        }
        for (_, o) in orphans.sorted(by: { $0.key < $1.key }) {
            let schedule = Schedule(recurrence: .asNeeded(maxPerDay: nil, minInterval: nil), times: [], start: o.first)
            let archived = min(o.last.adding(days: 1), context.today)
            let m = Medication(id: 0, name: o.name, archivedOn: archived,
                               versions: [ScheduleVersion(effective: o.first, schedule: schedule)])
            plan.medicines.append(.init(name: o.name, template: m, origin: .historyOnly))
        }
        return plan
    }

    // MARK: - Treatments

    private func treatment(_ t: JSONField, name: String, firstHistoryDay: LocalDate?) throws -> (Medication, [String]) {
        let catalog = context.catalog, zone = context.zone, today = context.today
        var notes: [String] = []
        let unit = try t["unit"].optionalString()?.trimmingCharacters(in: .whitespaces) ?? ""
        let note = try t["notes"].optionalString().flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let frequency = try t["frequency"].string()

        var doses: [(time: LocalTime, dose: Double)] = []
        if t.has("dosage") {
            for d in try t["dosage"].array() {
                let dose = d.has("dose") ? try d["dose"].number() : 1
                guard dose >= 0 else { throw d["dose"].fail("a dose of 0 or more") }
                doses.append((try d["time"].time(), dose))
            }
        }
        if frequency != "when-needed" && doses.isEmpty { throw t["dosage"].fail("at least one {time: [hour, minute], dose}") }

        // The course: `duration` when enabled, else from the first day of its history (or today).
        var start = min(firstHistoryDay ?? today, today)
        var until: LocalDate?
        let duration = t["duration"]
        if !duration.isAbsent, try duration.object()["enabled"].bool() {
            start = zone.date(of: try duration["start"].instant())
            if duration.has("end") { until = zone.date(of: try duration["end"].instant()) }
        }

        let recurrence: Recurrence
        switch frequency {
        case "daily":
            recurrence = .daily
        case "specific-days":
            var days = Set<Weekday>()
            for d in try t["days"].array() {
                let js = try d.int(0...6, "a weekday number from 0 (Sunday) to 6 (Saturday)")
                days.insert(Weekday(rawValue: js == 0 ? 7 : js)!)
            }
            if days.isEmpty { throw t["days"].fail("at least one weekday number from 0 (Sunday) to 6 (Saturday)") }
            recurrence = days.count == 7 ? .daily : .weekdays(days)
        case "day-of-month":
            let field = t.has("monthDay") ? t["monthDay"] : t["dayOfMonth"]
            let day = field.isAbsent ? start.day : try field.int(1...31, "a day of the month from 1 to 31")
            start = Self.latest(day: day, onOrBefore: start)
            recurrence = .everyMonths(1)
        case "cycle":
            let parts = try t["cycle"].array()
            guard parts.count == 3, let active = try? parts[0].int(1...366), let rest = try? parts[1].int(0...366),
                  let current = try? parts[2].int(1...(active + rest)) else {
                throw t["cycle"].fail("[active days, rest days, current day] with 1–366 active days, 0–366 rest days and the current day within the cycle")
            }
            // Day 1 of a cycle whose day `current` is today, moved back whole cycles to cover the course and its history.
            var anchor = today.adding(days: -(current - 1))
            while anchor > start { anchor = anchor.adding(days: -(active + rest)) }
            start = anchor
            recurrence = .cycle(active: active, rest: rest)
        case "when-needed":
            recurrence = .asNeeded(maxPerDay: nil, minInterval: nil)
        default:
            throw t["frequency"].fail("one of daily, specific-days, day-of-month, cycle, when-needed (got '\(frequency)')")
        }

        let times = recurrence.isAsNeeded ? [] : doses.map(\.time)
        let schedule = Schedule(recurrence: recurrence, times: times, window: context.config.window ?? Schedule.defaultWindow,
                                start: start, until: until)

        // The dose: one text when every time has the same amount; amounts are kept to hundredths (a
        // quarter tablet stays 0.25).
        let amounts = Set(doses.map(\.dose))
        var doseText: String?
        var perDose: Amount = 1
        if amounts.count == 1, let amount = amounts.first {
            doseText = [Self.format(amount), unit].filter { !$0.isEmpty }.joined(separator: " ")
            if let exact = Amount(exactly: amount), FieldRules.perDoseRange.contains(exact) { perDose = exact }
        } else if amounts.count > 1 {
            let list = doses.map { "\($0.time) \(Self.format($0.dose))" }.joined(separator: ", ")
            notes.append(catalog.text("import.ne.doses", ["name": name, "doses": list + (unit.isEmpty ? "" : " " + unit)]))
        }

        var stock: Amount?
        var lowDays = 7
        let inventory = t["inventory"]
        if !inventory.isAbsent, try inventory.object()["enabled"].bool() {
            let current = try inventory["current"].number()
            guard current >= 0 else { throw inventory["current"].fail("a stock of 0 or more") }
            // To hundredths (rounded down past them), at most the maximum.
            stock = min(Amount(exactly: current) ?? Amount(hundredths: Int(saturating: (current * 100).rounded(.down))), RefillService.maximum)
            let perDay = doses.reduce(0) { $0 + $1.dose }
            if inventory.has("reminder") {
                let reminder = try inventory["reminder"].number()
                if !recurrence.isAsNeeded && perDay > 0 {
                    lowDays = min(Int(saturating: (reminder / perDay).rounded(.up)), FieldRules.lowDaysRange.upperBound)
                } else if reminder > 0 {
                    notes.append(catalog.text("import.ne.reminder", ["name": name, "units": Self.format(reminder), "unit": unit]))
                }
            }
            if inventory.has("refill"), try inventory["refill"].number() > 0 {
                notes.append(catalog.text("import.ne.refill", ["name": name, "amount": Self.format(try inventory["refill"].number())]))
            }
        }
        let m = Medication(id: 0, name: name, dose: doseText, note: note, stock: stock, perDose: perDose, lowDays: max(lowDays, 0),
                           versions: [ScheduleVersion(effective: min(start, today), schedule: schedule)])
        return (m, notes)
    }

    /// The latest date on or before `date` that is day `day` of its month (a month without that day is passed over).
    static func latest(day: Int, onOrBefore date: LocalDate) -> LocalDate {
        var (y, m, _) = date.components
        while true {
            if day <= LocalDate.daysIn(year: y, month: m), let d = LocalDate(year: y, month: m, day: day), d <= date { return d }
            m -= 1
            if m == 0 { m = 12; y -= 1 }
        }
    }

    /// `1`, `0.5`, `2.25`: an amount without a trailing `.0`.
    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x)
    }

    static func name(_ field: JSONField) throws -> String {
        let name = try field.string().trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw field.fail("a name of 1 to 100 characters without line breaks")
        }
        return name
    }

    // MARK: - History

    struct Entry {
        var name: String
        var day: LocalDate
        var time: LocalTime
        var at: Date
        var code: Int
    }

    /// `history` as an array (current) or as an object keyed by date (older): each entry
    /// `{name, unit, time: [h, m], dose, taken: [epoch ms, code]}`.
    private func historyEntries(_ root: JSONField) throws -> [Entry] {
        let history = root["history"]
        var out: [Entry] = []
        if history.isAbsent { return [] }
        if history.value is [String: Any] {
            for key in history.keys {
                let day = LocalDate(String(key.prefix(10)))
                for e in try history[key].array() { out.append(try entry(e, day: day)) }
            }
        } else {
            for e in try history.array() { out.append(try entry(e, day: nil)) }
        }
        return out
    }

    private func entry(_ e: JSONField, day keyDay: LocalDate?) throws -> Entry {
        _ = try e.object()
        let name = try Self.name(e["name"])
        let time = try e["time"].time()
        let taken = e["taken"]
        guard let parts = try? taken.array(), parts.count == 2 else { throw taken.fail("[epoch milliseconds, status code]") }
        let at = try parts[0].instant()
        let code = try parts[1].int(-1...3, "a status code: -1 missed, 0 skipped, 1 confirmed, 2 auto-confirmed, 3 confirmed at an unknown time")
        if code != -1 && at > context.now.addingTimeInterval(60) {
            throw parts[0].fail("a time in the past (this one is \(context.zone.local(at).iso8601))")
        }
        return Entry(name: name, day: keyDay ?? context.zone.date(of: at), time: time, at: at, code: code)
    }
}
