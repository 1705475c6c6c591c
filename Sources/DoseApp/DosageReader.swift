import DoseCore
import Foundation

/// Reads the data folder of the GTK app Dosage into an ``ImportPlan``: `dosage-treatments.json`
/// (`{version, lastUpdate, treatments[]}`, or `meds[]` in the older layout) and `dosage-history.json`
/// (`history[]`, or the older `history` object keyed by date). Written from the file format, not from
/// Dosage's code.
///
/// Treatments become medicines (frequency → schedule, `dosage[]` → times, `duration` → course,
/// `inventory` → stock); history entries become takes and skips of the slot at their time on their
/// day (code 1: taken at `taken[0]`; 2 auto-confirmed and 3: taken at the slot's time, time unknown;
/// 0: skipped; −1: missed, which dosebar records by the absence of an event).
public struct DosageReader {
    public static let treatmentsFile = "dosage-treatments.json"
    public static let historyFile = "dosage-history.json"

    public let context: AppContext
    /// The zone the history was made in (`--zone`); by default this machine's.
    public let zone: Zone
    private let zoneGiven: Bool

    public init(context: AppContext, zone: Zone? = nil) {
        self.context = context
        self.zone = zone ?? context.zone
        zoneGiven = zone != nil
    }

    /// The folder to read: `dir` (or, when nil, Dosage's Flatpak data folder, else its Snap one, else `$XDG_DATA_HOME`),
    /// or its `dosage/` subfolder, whichever holds `dosage-treatments.json`.
    public func folder(_ dir: String?) throws -> String {
        let env = context.env
        let home = env["HOME"] ?? NSHomeDirectory()
        let candidates: [String]
        if let dir {
            candidates = [dir]
        } else {
            let data = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
            // Flatpak, then Snap (snap `dosage-tracker`: its XDG_DATA_HOME is $SNAP_USER_DATA/.local/share), then ours.
            candidates = [home + "/.var/app/io.github.diegopvlk.Dosage/data", home + "/snap/dosage-tracker/current/.local/share", data]
        }
        for c in candidates {
            for d in [c, c + "/dosage"] where FileManager.default.fileExists(atPath: d + "/" + Self.treatmentsFile) { return d }
        }
        throw DosebarError.io("no \(Self.treatmentsFile) in \(candidates.flatMap { [$0, $0 + "/dosage"] }.joined(separator: ", ")); "
            + "give Dosage's data folder: dosebar import dosage DIR")
    }

    /// Everything the folder holds, checked whole before anything is written; `progress` counts
    /// the history's entries as they are read (its days, for Dosage's history by date).
    public func plan(folder: String, progress: WorkProgress = .silent) throws -> ImportPlan {
        let treatmentsRoot = try JSONField.read(folder + "/" + Self.treatmentsFile).object()
        let historyRoot = try JSONField.read(folder + "/" + Self.historyFile).object()
        var names = Names()
        var plan = ImportPlan()
        let (entries, laterToday) = try historyEntries(historyRoot, &names, progress)
        defer { progress.end() }
        if !zoneGiven { try checkZone(entries) }
        // Each name's key once (Unicode normalisation per entry was a twentieth of a 3-year import).
        var keyOf: [String: String] = [:]
        func nameKey(_ name: String) -> String {
            if let k = keyOf[name] { return k }
            let k = Medication.nameKey(name)
            keyOf[name] = k
            return k
        }
        var byKey: [String: [Entry]] = [:]
        for e in entries { byKey[nameKey(e.name), default: []].append(e) }

        // Treatments, under `treatments` (current) or `meds` (Dosage 1.0–1.4: fields under `info` or
        // `_info`, `_name`, `_unit`; or all on the item).
        let list = treatmentsRoot.has("treatments") ? treatmentsRoot["treatments"] : treatmentsRoot["meds"]
        guard !list.isAbsent else { throw treatmentsRoot["treatments"].fail("an array of treatments") }
        let lastUpdate = try Self.isoInstant(treatmentsRoot["lastUpdate"])
        var kinds: [String: Recurrence] = [:]
        for item in try list.array() {
            _ = try item.object()
            let name = try names.name(item.has("name") || !item.has("_name") ? item["name"] : item["_name"])
            let t = Treatment(item: item.named(Self.label("treatment", name, item.path)))
            let key = Medication.nameKey(name)
            let history = byKey[key] ?? []
            let updated = try Self.isoInstant(t["lastUpdate"]) ?? lastUpdate
            var (medication, notes) = try treatment(t, name: name, firstHistoryDay: history.map(\.day).min(), lastUpdate: updated)
            if medication.versions.count == 1, !(medication.currentSchedule?.recurrence.isAsNeeded ?? true) {
                medication.versions = Self.versions(medication.versions[0], history)
            }
            if kinds[key] == nil {
                kinds[key] = medication.currentSchedule?.recurrence
                plan.medicines.append(.init(name: name, template: medication, origin: .treatment))
            }
            plan.noEquivalent += notes
        }
        plan.noEquivalent += names.notes(context.catalog)
        if laterToday > 0 {
            plan.noEquivalent.append(context.catalog.text("import.ne.later_today", ["count": String(laterToday)]))
        }

        // A deleted treatment (history that names no treatment) keeps every entry it has: when it
        // records a miss, a skip or an auto-confirmed dose it had a schedule, rebuilt from its entries
        // (each day's slots are the times its entries name, so no miss is invented); else its doses were
        // one-time entries, kept as an as-needed medicine. Archived after its last entry either way.
        var deleted: [(key: String, name: String, last: LocalDate)] = []
        for (key, es) in byKey where kinds[key] == nil {
            deleted.append((key, es[0].name, es.map(\.day).max()!))
        }
        for d in deleted.sorted(by: { $0.key < $1.key }) {
            let es = byKey[d.key]!
            let first = es.map(\.day).min()!
            let archived = min(d.last.adding(days: 1), context.today)
            let scheduled = es.contains { [-1, 0, 2].contains($0.code) }
            var versions = scheduled ? Self.rebuilt(es, window: context.config.window ?? Schedule.defaultWindow) : []
            if versions.isEmpty {
                versions = [ScheduleVersion(effective: first, schedule: Schedule(recurrence: .asNeeded(maxPerDay: nil, minInterval: nil),
                                                                                 times: [], start: first))]
            }
            let m = Medication(id: 0, name: d.name, archivedOn: archived, versions: versions)
            kinds[d.key] = m.currentSchedule?.recurrence
            plan.medicines.append(.init(name: d.name, template: m, origin: m.currentSchedule?.recurrence.isAsNeeded ?? true ? .historyOnly : .rebuilt))
        }

        // History. Entries of one slot (name, day, time) are ordered: a take before a skip, a known
        // time before an unknown one, then the earlier. The first resolves the slot; each further take
        // is an extra dose at its own instant (a double dose is two doses; adherence counts the slot
        // once); a further skip is said in the summary (the slot was taken, or skipped already).
        var slots: [String: [Entry]] = [:]
        var order: [String] = []
        for e in entries {
            let key = nameKey(e.name)
            if e.code == -1 {
                plan.recordMissed(e.name, at: min(context.zone.instant(e.day, e.time), context.now))
                continue
            }
            let slotKey = key + "@\(e.day) \(e.time)"
            if slots[slotKey] == nil { order.append(slotKey) }
            slots[slotKey, default: []].append(e)
        }
        var laterSkips: [String: (name: String, afterTake: Int, again: Int)] = [:]
        for slotKey in order {
            let group = slots[slotKey]!.sorted { (Self.rank($0), $0.at) < (Self.rank($1), $1.at) }
            let key = nameKey(group[0].name)
            let asNeeded = kinds[key]?.isAsNeeded ?? true
            for (i, e) in group.enumerated() {
                let slot: ImportPlan.Slot = asNeeded || i > 0 ? .asNeeded : .nominal(e.day, e.time)
                if e.code == 0 {
                    if i == 0 {
                        plan.doses.append(.init(name: e.name, kind: .skipped, slot: slot, at: min(e.at, context.now)))
                    } else {
                        var x = laterSkips[key] ?? (e.name, 0, 0)
                        if group[0].code == 0 { x.again += 1 } else { x.afterTake += 1 }
                        laterSkips[key] = x
                    }
                } else {
                    plan.doses.append(dose(e))
                    plan.doses[plan.doses.count - 1].slot = slot
                }
            }
        }
        for (_, x) in laterSkips.sorted(by: { $0.key < $1.key }) {
            if x.afterTake > 0 {
                plan.noEquivalent.append(context.catalog.text("import.ne.skip_then_take", ["name": x.name, "count": String(x.afterTake)]))
            }
            if x.again > 0 {
                plan.noEquivalent.append(context.catalog.text("import.ne.skip_again", ["name": x.name, "count": String(x.again)]))
            }
        }
        return plan
    }

    /// An entry's order among those of its slot: a take at a known time, a take whose time is not known, a skip.
    static func rank(_ e: Entry) -> Int { e.code == 1 ? 0 : e.code == 0 ? 2 : 1 }

    /// A taken entry as a dose: code 1 at its instant; 2 (auto-confirmed: the person never answered)
    /// and 3 (confirmed, time not known) at its slot's time, time not known.
    private func dose(_ e: Entry) -> ImportPlan.Dose {
        if e.code == 1 { return .init(name: e.name, kind: .taken, slot: .nominal(e.day, e.time), at: e.at) }
        // The slot as dosebar has it: that day's nominal time here (the entry's day is that of the zone it was made in).
        let slotInstant = context.zone.instant(e.day, e.time)
        return .init(name: e.name, kind: .taken, slot: .nominal(e.day, e.time), at: min(slotInstant, context.now), timeKnown: false)
    }

    /// The schedule versions of a treatment, from its history (DESIGN §2 `edit --effective`): a dose time
    /// changed in Dosage (08:00 → 07:30; a time added or removed; as often as it happened) leaves its
    /// entries at the old times, so each set of times is a version from the first day it appears.
    ///
    /// The times are those of the treatment, those of a miss, skip or auto-confirmed entry (Dosage
    /// writes these only for a scheduled dose) and those its entries use on two of its days in a row;
    /// a take at another time is an extra dose (a one-time entry), not a schedule. Over the days with entries, in order, a time is in
    /// force from its first day to its last (a time of the treatment: to today), across gaps of fewer
    /// than three such days without it (an entry the person deleted in Dosage stays a missed slot, not a
    /// change). Each run of days with the same times is a version; the treatment's own times come last,
    /// from the first day of the run that has exactly them, else from the day after the last entry.
    static func versions(_ v: ScheduleVersion, _ entries: [Entry]) -> [ScheduleVersion] {
        let current = Set(v.schedule.times)
        var daysOf: [LocalTime: Set<LocalDate>] = [:]
        var slotOnly = Set<LocalTime>()
        for e in entries {
            daysOf[e.time, default: []].insert(e.day)
            if e.code != 1 { slotOnly.insert(e.time) }
        }
        // Which of the treatment's days with entries follows which: a time on two of them in a row
        // was a dose time (a one-time entry repeated at one time on two far-apart days is not).
        var next: [LocalDate: LocalDate] = [:]
        let all = Set(entries.map(\.day)).sorted()
        for (a, b) in zip(all, all.dropFirst()) { next[a] = b }
        let times = daysOf.keys.filter { t in
            let seen = daysOf[t]!
            return current.contains(t) || slotOnly.contains(t) || seen.contains { next[$0].map(seen.contains) ?? false }
        }
        let days = Set(times.flatMap { daysOf[$0]! }).sorted()
        guard !days.isEmpty else { return [v] }
        // Index days.count stands for today: only the treatment's own times are there.
        let n = days.count
        var inForce = [Set<LocalTime>](repeating: [], count: n + 1)
        for t in times + current.filter({ daysOf[$0] == nil }) {
            let seen = daysOf[t] ?? []
            var present = days.map { seen.contains($0) }
            present.append(current.contains(t))
            guard let first = present.firstIndex(of: true) else { continue }
            let last = present.lastIndex(of: true)!
            var gap = 0
            for i in first...last {
                if present[i] {
                    // A gap of one or two days is bridged; a longer one is a time that was away.
                    if gap > 0 && gap < 3 { for j in (i - gap)..<i { inForce[j].insert(t) } }
                    gap = 0
                    inForce[i].insert(t)
                } else {
                    gap += 1
                }
            }
        }
        var out: [ScheduleVersion] = []
        for i in 0...n where !inForce[i].isEmpty && (i == 0 || inForce[i] != inForce[i - 1]) {
            guard FieldRules.timesRange.contains(inForce[i].count) else { return [v] }
            var schedule = v.schedule
            schedule.times = inForce[i].sorted()
            let day = i == n ? days[n - 1].adding(days: 1) : days[i]
            var effective = out.isEmpty ? v.effective : max(day, v.effective)
            if let previous = out.last, effective <= previous.effective {
                out.removeLast()
                effective = previous.effective
            }
            if out.last?.schedule == schedule { continue }
            out.append(ScheduleVersion(effective: effective, schedule: schedule, dosing: dosing(v.dosing, times: schedule.times)))
        }
        // The treatment as it is now is the newest version (index n holds exactly its times).
        return out.last?.schedule == v.schedule ? out : [v]
    }

    /// The dose of a version of `times` rebuilt from a treatment of dose `d`: its amounts per time
    /// for the times they name (every time named), else its one amount.
    static func dosing(_ d: Dosing?, times: [LocalTime]) -> Dosing? {
        guard let d, let list = d.perTime else { return d }
        let kept = list.filter { times.contains($0.time) }
        guard kept.count == times.count, let first = kept.first else { return Dosing(text: d.text, perDose: d.perDose) }
        return Dosing(text: d.text, perDose: first.amount, perTime: PerTimeDose.collapsed(kept))
    }

    /// The schedule of a deleted treatment, rebuilt from its entries: each day with entries has a slot
    /// at each time they name; a run of consecutive days with the same times is one daily version
    /// ending with the run (`until`), so a day without entries has no slot, nothing invented.
    static func rebuilt(_ entries: [Entry], window: Int) -> [ScheduleVersion] {
        var timesOn: [LocalDate: Set<LocalTime>] = [:]
        for e in entries { timesOn[e.day, default: []].insert(e.time) }
        var out: [ScheduleVersion] = []
        var previous: LocalDate?
        for day in timesOn.keys.sorted() {
            let times = timesOn[day]!.sorted()
            guard FieldRules.timesRange.contains(times.count) else { return [] }
            if let p = previous, p.adding(days: 1) == day, var last = out.last, last.schedule.times == times {
                last.schedule.until = day
                out[out.count - 1] = last
            } else {
                let schedule = Schedule(recurrence: .daily, times: times, window: window, start: day, until: day)
                out.append(ScheduleVersion(effective: day, schedule: schedule))
            }
            previous = day
        }
        return out
    }

    // MARK: - Treatments

    /// A treatment's fields: on the item (current), or under its `info`/`_info` (Dosage 1.0–1.4), with
    /// `_name`/`_unit` for `name`/`unit`.
    struct Treatment {
        let item: JSONField
        var info: JSONField? {
            for key in ["info", "_info"] where item.has(key) { return item[key] }
            return nil
        }
        subscript(key: String) -> JSONField {
            if key == "name" || key == "unit" { return item.has(key) || !item.has("_" + key) ? item[key] : item["_" + key] }
            if let info, !item.has(key) { return info[key] }
            return item[key]
        }
        func has(_ key: String) -> Bool { !self[key].isAbsent }
    }

    private func treatment(_ t: Treatment, name: String, firstHistoryDay: LocalDate?, lastUpdate: Date?) throws -> (Medication, [String]) {
        let catalog = context.catalog, zone = self.zone, today = context.today
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
        if !duration.isAbsent, try Self.enabled(duration.object()) {
            // Dosage 1.0–1.4 wrote seconds as strings; an end missing there is the start.
            let begin = try Self.durationInstant(duration["start"])
            start = zone.date(of: begin)
            if duration.has("end") { until = zone.date(of: try Self.durationInstant(duration["end"])) }
            else if (duration["start"].value as? String) != nil { until = start }
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
            guard parts.count == 3, let active = try? parts[0].int(FieldRules.cycleActiveRange), let rest = try? parts[1].int(FieldRules.cycleRestRange),
                  let current = try? parts[2].int(1...(active + rest)) else {
                throw t["cycle"].fail("[active days, rest days, current day] with 1–366 active days, 0–366 rest days and the current day within the cycle")
            }
            // Day 1 of a cycle whose day `current` is the local day of `lastUpdate` (Dosage moves the day on
            // when it runs, and writes `lastUpdate` with it), moved back whole cycles to cover the course and its history.
            let at = min(lastUpdate.map(zone.date(of:)) ?? today, today)
            var anchor = at.adding(days: -(current - 1))
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

        // The dose: amounts are kept to hundredths (Dosage's quarter steps stay exact: 0.25 is 0.25).
        // One amount for every time: the dose text and the units a take uses. Amounts that differ by
        // time (08:00 1, 20:00 0.5): each time keeps its own (`--per-dose 1,0.5`), and the dose text
        // names each. Only amounts dosebar cannot keep exactly (more decimals, out of range, two for
        // one time) fall back to one amount, the largest (stock then runs low early, never late),
        // said in the summary, nothing rounded.
        let amounts = Set(doses.map(\.dose))
        var doseText: String?
        var perDose: Amount = 1
        var perTime: [TimedAmount]?
        let withUnit = { (text: String) in [text, unit].filter { !$0.isEmpty }.joined(separator: " ") }
        if amounts.count == 1, let amount = amounts.first {
            doseText = withUnit(Self.format(amount))
            if let exact = Amount(exactly: amount), FieldRules.perDoseRange.contains(exact) { perDose = exact }
        } else if amounts.count > 1, let largest = amounts.max() {
            let list = withUnit(doses.map { "\($0.time) \(Self.format($0.dose))" }.joined(separator: ", "))
            doseText = list.unicodeScalars.count <= FieldRules.shortTextMax ? list : nil
            let exact = doses.compactMap { Amount(exactly: $0.dose) }.filter { FieldRules.perDoseRange.contains($0) }
            if !recurrence.isAsNeeded, exact.count == doses.count,
               let paired = try? PerTimeDose.pair(exact, with: doses.map(\.time)), paired.perTime != nil {
                (perDose, perTime) = paired
            } else {
                if let exact = Amount(exactly: largest), FieldRules.perDoseRange.contains(exact) { perDose = exact }
                notes.append(catalog.text("import.ne.doses", ["name": name, "doses": list, "largest": withUnit(Self.format(largest))]))
            }
        }

        var stock: Amount?
        var lowDays = 7
        let inventory = t["inventory"]
        if !inventory.isAbsent, try Self.enabled(inventory.object()) {
            var current = try inventory["current"].number()
            if current < 0 {
                // Dosage lets the count go below zero and shows 0.
                notes.append(catalog.text("import.ne.negative_stock", ["name": name, "amount": Self.format(current)]))
                current = 0
            }
            // To hundredths (rounded down past them), at most the maximum; said when that changes it.
            let kept = min(Amount(exactly: current) ?? Amount(hundredths: Int(saturating: (current * 100).rounded(.down))), Stock.maximum)
            if Amount(exactly: current) != kept {
                notes.append(catalog.text("import.ne.stock_kept", ["name": name, "amount": Self.format(current), "kept": kept.description,
                                                                   "max": Stock.maximum.description]))
            }
            stock = kept
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
        if let settings = try Self.settings(t, catalog) {
            notes.append(catalog.text("import.ne.settings", ["name": name, "settings": settings]))
        }
        let reminders = try Self.reminders(t)
        let m = Medication(id: 0, name: name, dose: doseText, note: note, stock: stock, perDose: perDose, perDoseTimes: perTime,
                           lowDays: max(lowDays, 0), urgent: reminders.urgent, repeatMinutes: reminders.repeatMinutes,
                           versions: [ScheduleVersion(effective: min(start, today), schedule: schedule,
                                                      dosing: perTime.map { Dosing(text: doseText, perDose: perDose, perTime: $0) })])
        return (m, notes)
    }

    /// How a treatment's reminders come, carried over: `increasePriority` is `--urgent`; repeated
    /// reminders (`notification.recurring`, or `recurring` before version 1; Dosage 1.1 wrote
    /// `recurring: true`, every 5 minutes) are `--repeat` at their interval when it is whole minutes
    /// within ``FieldRules/repeatRange`` (otherwise ``settings(_:_:)`` lists it as not imported).
    static func reminders(_ t: Treatment) throws -> (urgent: Bool, repeatMinutes: Int?) {
        let notification = t["notification"]
        let urgent = notification.has("increasePriority") ? try notification["increasePriority"].bool() : false
        return (urgent, try repeatInterval(t).flatMap(Self.wholeMinutes))
    }

    /// The interval in minutes of a treatment's repeated reminders, nil when they are off.
    private static func repeatInterval(_ t: Treatment) throws -> Double? {
        let notification = t["notification"]
        let recurring = notification.has("recurring") ? notification["recurring"] : t["recurring"]
        let repeats = recurring.value is [String: Any] ? (recurring.has("enabled") ? try recurring["enabled"].bool() : false)
            : (recurring.isAbsent ? false : try recurring.bool())
        guard repeats else { return nil }
        return recurring.has("interval") ? try recurring["interval"].number() : 5
    }

    /// `minutes` as a repeat interval dosebar keeps, nil when it is not one.
    private static func wholeMinutes(_ minutes: Double) -> Int? {
        guard minutes.isFinite, minutes == minutes.rounded(), FieldRules.repeatRange.contains(Int(minutes)) else { return nil }
        return Int(minutes)
    }

    /// What a treatment sets that dosebar has no place for: its colour and icon (other than Dosage's
    /// defaults), repeated notifications at an interval dosebar cannot keep (``reminders(_:)``) and
    /// `markConfirmed`; nil when none.
    static func settings(_ t: Treatment, _ catalog: Catalog) throws -> String? {
        var out: [String] = []
        if let colour = try t["color"].optionalString(), !["", "default"].contains(colour) {
            out.append(catalog.text("import.ne.colour", ["value": colour]))
        }
        if let icon = try t["icon"].optionalString()?.replacingOccurrences(of: "-symbolic", with: ""), !["", "pill"].contains(icon) {
            out.append(catalog.text("import.ne.icon", ["value": icon]))
        }
        if let minutes = try repeatInterval(t), wholeMinutes(minutes) == nil {
            out.append(catalog.text("import.ne.repeat", ["minutes": format(minutes)]))
        }
        if t.has("markConfirmed"), try t["markConfirmed"].bool() { out.append(catalog.text("import.ne.auto_confirm")) }
        return out.isEmpty ? nil : out.joined(separator: ", ")
    }

    /// Dosage's files carry no zone, but its stamps tell it: a missed or time-unknown entry sits at
    /// 23:59:59.999 local, an auto-confirmed one at its slot's time. When most such entries say another
    /// zone than ``zone``, importing would move every dose: refused, naming the offset found.
    func checkZone(_ entries: [Entry]) throws {
        var agree = 0
        var offsets: [Int: Int] = [:]
        for e in entries {
            guard let ms = e.stamp else { continue }
            let utcSecond = Int((ms % 86_400_000 + 86_400_000) % 86_400_000 / 1000)
            var implied: Int
            if (e.code == -1 || e.code == 3) && (ms % 60_000 + 60_000) % 60_000 == 59_999 {
                implied = 86_399 - utcSecond
            } else if e.code == 2 && ms % 60_000 == 0 {
                implied = e.time.minuteOfDay * 60 - utcSecond
            } else {
                continue
            }
            implied = ((implied % 86_400) + 86_400) % 86_400
            if implied > 14 * 3600 { implied -= 86_400 }
            let at = Date(timeIntervalSince1970: Double(ms) / 1000)
            if implied == zone.offset(at: at) { agree += 1 } else { offsets[implied, default: 0] += 1 }
        }
        guard let (found, count) = offsets.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              count > agree else { return }
        let sign = found < 0 ? "-" : "+"
        let hm = String(format: "%02d:%02d", abs(found) / 3600, abs(found) % 3600 / 60)
        let name = found % 3600 == 0 ? "Etc/GMT" + (found > 0 ? "-" : "+") + String(abs(found) / 3600)
            : TimeZone.knownTimeZoneIdentifiers.first { TimeZone(identifier: $0)?.secondsFromGMT() == found } ?? "UTC\(sign)\(hm)"
        throw DosebarError.badData("\(Self.historyFile): the history was made in a zone at UTC\(sign)\(hm), not \(zone.identifier) "
            + "(\(count) missed, time-unknown or auto-confirmed entries say so); import it with --zone ZONE naming that zone "
            + "(e.g. --zone \(name)), or --zone \(zone.identifier) to import it as it is")
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

    /// `treatment "Aspirin"` for an error line; a name that would not print plainly (format characters
    /// such as bidi marks) is named by its place in the file instead, a long one shortened.
    static func label(_ what: String, _ name: String, _ path: String) -> String {
        if name.unicodeScalars.contains(where: FieldRules.isUnprintable) {
            return what + " " + path
        }
        return what + " \"" + (name.count > 60 ? String(name.prefix(60)) + "…" : name) + "\""
    }

    /// `enabled` of `duration` or `inventory`; Dosage 1.6–1.7.3 wrote no `enabled` in `inventory` (off).
    static func enabled(_ field: JSONField) throws -> Bool {
        field.has("enabled") ? try field["enabled"].bool() : false
    }

    /// `duration.start`/`end`: epoch milliseconds, or (Dosage 1.0–1.4) epoch seconds as a string.
    static func durationInstant(_ field: JSONField) throws -> Date {
        if let s = field.value as? String {
            guard let seconds = Double(s.trimmingCharacters(in: .whitespaces)), seconds.isFinite, abs(seconds) < 1e11 else {
                throw field.fail("a time in epoch seconds")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        return try field.instant()
    }

    /// `lastUpdate`: an ISO-8601 instant as JavaScript writes it (`2026-11-18T03:00:00.000Z`); absent or
    /// empty (a fresh install) is nil.
    static func isoInstant(_ field: JSONField) throws -> Date? {
        if field.isAbsent { return nil }
        if let n = field.value as? NSNumber, (try? field.number()) != nil { return Date(timeIntervalSince1970: n.doubleValue / 1000) }
        let s = try field.string().trimmingCharacters(in: .whitespaces)
        if s.isEmpty { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: s) { return d }
        f.formatOptions = [.withInternetDateTime]
        if let d = f.date(from: s) { return d }
        throw field.fail("an ISO-8601 time such as 2026-11-18T03:00:00.000Z")
    }

    /// Names as Dosage keeps them: any length; dosebar keeps up to ``FieldRules/nameMax`` characters
    /// and cuts a longer one there (the same cut for its treatment and its history), saying so.
    struct Names {
        private var cut: [String: String] = [:]

        mutating func name(_ field: JSONField) throws -> String {
            let raw = try field.string().trimmingCharacters(in: .whitespaces)
            // Control characters are the validation gate's to refuse (FieldRules), naming the code point.
            guard !raw.isEmpty else { throw field.fail("a name") }
            guard raw.unicodeScalars.count > FieldRules.nameMax else { return raw }
            let short = String(String.UnicodeScalarView(raw.unicodeScalars.prefix(FieldRules.nameMax)))
                .trimmingCharacters(in: .whitespaces)
            cut[raw] = short
            return short
        }

        func notes(_ catalog: Catalog) -> [String] {
            cut.sorted { $0.key < $1.key }.map {
                catalog.text("import.ne.long_name", ["name": $0.value, "max": String(FieldRules.nameMax),
                                                     "length": String($0.key.unicodeScalars.count)])
            }
        }
    }

    // MARK: - History

    struct Entry {
        var name: String
        var day: LocalDate
        var time: LocalTime
        var at: Date
        var code: Int
        /// Dosage's own stamp in epoch milliseconds (`taken[0]`), for telling the zone it was written in.
        var stamp: Int64? = nil
    }

    /// `history` as an array (current), as an object keyed by date (1.5), or `meds[]` (1.0–1.4:
    /// `{name|_name, date|_date, info|_info: {time, dose}, taken|_taken: "yes"/"no"/other}`); each
    /// current entry `{name, unit, time: [h, m], dose, taken: [epoch ms, code]}`. Also how many entries
    /// fell later today than now (Dosage's one-time dialog allows any time today): they are taken now.
    private func historyEntries(_ root: JSONField, _ names: inout Names, _ progress: WorkProgress) throws -> ([Entry], Int) {
        var out: [Entry] = []
        var laterToday = 0
        if !root.has("history"), root.has("meds") {
            let items = try root["meds"].array()
            progress.begin(.entries, total: items.count)
            for (i, item) in items.enumerated() {
                progress.step(i)
                _ = try item.object()
                func field(_ key: String) -> JSONField { item.has(key) || !item.has("_" + key) ? item[key] : item["_" + key] }
                let name = try names.name(field("name"))
                let e = item.named(Self.label("history entry of", name, item.path))
                let info = e.has("info") || !e.has("_info") ? e["info"] : e["_info"]
                let timeField = info.has("time") ? info["time"] : e["time"]
                let dateField = e.has("date") || !e.has("_date") ? e["date"] : e["_date"]
                guard let at = try Self.isoInstant(dateField) else { throw dateField.fail("the time of the dose") }
                let takenField = e.has("taken") || !e.has("_taken") ? e["taken"] : e["_taken"]
                let taken = try takenField.optionalString()
                let code = taken == "yes" ? 1 : taken == "no" ? 0 : -1
                out.append(try entry(name: name, time: timeField.time(), at: at, code: code, stamp: dateField, day: nil, &laterToday))
            }
            return (out, laterToday)
        }
        let history = root["history"]
        if history.isAbsent { return ([], 0) }
        if history.value is [String: Any] {
            let days = history.keys
            progress.begin(.entries, total: days.count)
            for (i, key) in days.enumerated() {
                progress.step(i)
                let day = LocalDate(String(key.prefix(10)))
                for e in try history[key].array() { out.append(try entry(e, day: day, &names, &laterToday)) }
            }
        } else {
            let items = try history.array()
            progress.begin(.entries, total: items.count)
            for (i, e) in items.enumerated() {
                progress.step(i)
                out.append(try entry(e, day: nil, &names, &laterToday))
            }
        }
        return (out, laterToday)
    }

    private func entry(_ raw: JSONField, day keyDay: LocalDate?, _ names: inout Names, _ laterToday: inout Int) throws -> Entry {
        _ = try raw.object()
        let name = try names.name(raw["name"])
        let e = raw.named(Self.label("history entry of", name, raw.path))
        let taken = e["taken"]
        guard let parts = try? taken.array(), parts.count == 2 else { throw taken.fail("[epoch milliseconds, status code]") }
        let at = try parts[0].instant()
        let code = try parts[1].int(-1...3, "a status code: -1 missed, 0 skipped, 1 confirmed, 2 auto-confirmed, 3 confirmed at an unknown time")
        var out = try entry(name: name, time: e["time"].time(), at: at, code: code, stamp: parts[0], day: keyDay, &laterToday)
        out.stamp = Int64((at.timeIntervalSince1970 * 1000).rounded())
        return out
    }

    private func entry(name: String, time: LocalTime, at: Date, code: Int, stamp: JSONField, day keyDay: LocalDate?,
                       _ laterToday: inout Int) throws -> Entry {
        let zone = self.zone, now = context.now
        var at = at
        let day = keyDay ?? zone.date(of: at)
        if code != -1 && at > now.addingTimeInterval(60) {
            guard zone.date(of: at) <= context.today else {
                throw stamp.fail("a time no later than today (this one is \(zone.local(at).iso8601))")
            }
            laterToday += 1
            at = now
        }
        return Entry(name: name, day: day, time: time, at: at, code: code)
    }
}
