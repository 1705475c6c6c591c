import ArgumentParser
import DoseCore
import Foundation

/// Schedule flags shared by `add` and `edit`.
struct ScheduleOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Times of day, comma-separated (24-hour).", valueName: "HH:MM[,HH:MM…]"))
    var at: String?

    @Option(name: .long, help: ArgumentHelp("Only on these days (weekdays: mon–fri, weekends: sat,sun).", valueName: "mon,wed,fri|weekdays|weekends"))
    var days: String?

    @Option(name: .long, help: ArgumentHelp("Every N days, weeks or months, counted from --from.", valueName: "Nd|Nw|Nm"))
    var every: String?

    @Option(name: .long, help: ArgumentHelp("ACTIVE days on, then REST days off; day 1 is --from.", valueName: "ACTIVE/REST"))
    var cycle: String?

    @Flag(name: .customLong("as-needed"), help: "No fixed times: take when needed.")
    var asNeeded = false

    @Flag(name: .long, help: "Every day (the default; use with edit to go back to daily).")
    var daily = false

    @Option(name: .customLong("max-per-day"), help: ArgumentHelp("As-needed: at most N doses a day.", valueName: "N"))
    var maxPerDay: Int?

    @Option(name: .customLong("min-interval"), help: ArgumentHelp("As-needed: at least this long between doses.", valueName: "duration"))
    var minInterval: String?

    @Option(name: .long, help: ArgumentHelp("Tolerance around each time (default 2h).", valueName: "duration"))
    var window: String?

    @Option(name: .long, help: ArgumentHelp("First day of the course (default today).", valueName: "YYYY-MM-DD"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Last day of the course, inclusive.", valueName: "YYYY-MM-DD|none"))
    var until: String?

    @Option(name: .customLong("keep-zone"), help: ArgumentHelp(
        "Keep the times on this zone's clock wherever you are (home time for the pill, warfarin); none: follow your clock.",
        valueName: "ZONE|none"))
    var keepZone: String?

    /// Whether any flag that changes the schedule was given.
    var changesSchedule: Bool {
        at != nil || days != nil || every != nil || cycle != nil || asNeeded || daily || maxPerDay != nil
            || minInterval != nil || window != nil || from != nil || until != nil || keepZone != nil
    }

    func validate() throws {
        let kinds = [days != nil, every != nil, cycle != nil, asNeeded, daily].filter { $0 }.count
        guard kinds <= 1 else {
            throw ValidationError(Catalog.english.text("usage.one_schedule"))
        }
        if (maxPerDay != nil || minInterval != nil) && !asNeeded {
            throw ValidationError(Catalog.english.text("usage.as_needed_limits"))
        }
        if let m = maxPerDay, !(1...100).contains(m) { throw ValidationError(Catalog.english.text("usage.max_per_day")) }
        if let keepZone, keepZone.lowercased() != "none", !FieldRules.isZoneName(keepZone) {
            throw ValidationError(Catalog.english.text("usage.keep_zone", ["zone": keepZone]))
        }
    }

    /// The zone `--keep-zone` names on top of `base`'s: nil for `none` (or never given, without a base).
    func keptZone(base: Schedule?) -> TimeZone? {
        guard let keepZone else { return base?.keepZone }
        return keepZone.lowercased() == "none" ? nil : TimeZone(identifier: keepZone)
    }

    /// The recurrence named by the flags, or nil when none was given.
    func recurrence() throws -> Recurrence? {
        if let days { return .weekdays(try InputParser.weekdays(days)) }
        if let every { return try InputParser.every(every) }
        if let cycle { return try InputParser.cycle(cycle) }
        if daily { return .daily }
        if asNeeded {
            let gap = try minInterval.map { try InputParser.duration($0, flag: "--min-interval") }
            return .asNeeded(maxPerDay: maxPerDay, minInterval: gap)
        }
        return nil
    }

    /// Builds a schedule from these flags on top of `base` (for edit) or defaults (for add).
    func schedule(base: Schedule?, today: LocalDate, defaultWindow: Int) throws -> Schedule {
        let recurrence = try recurrence() ?? base?.recurrence ?? .daily
        var times = try at.map(InputParser.times) ?? base?.times ?? []
        if recurrence.isAsNeeded {
            if at != nil { throw DosebarError.usage(Catalog.english.text("usage.at_as_needed")) }
            times = []
        } else if times.isEmpty {
            throw DosebarError.usage(Catalog.english.text("usage.at_missing"))
        }
        let window = try window.map { try InputParser.duration($0, flag: "--window") } ?? base?.window ?? defaultWindow
        guard window <= 12 * 3600 else { throw DosebarError.usage(Catalog.english.text("usage.window_max")) }
        let start = try from.map { try InputParser.date($0, flag: "--from", today: today) } ?? base?.start ?? today
        guard start <= today.adding(days: 3660) else { throw DosebarError.usage(Catalog.english.text("usage.from_far", ["date": start.description])) }
        var end = base?.until
        if let until {
            end = until.lowercased() == "none" ? nil : try InputParser.date(until, flag: "--until", today: today)
        }
        if let end, end < start { throw DosebarError.usage(Catalog.english.text("usage.until_before", ["until": end.description, "from": start.description])) }
        var kept = keptZone(base: base)
        if recurrence.isAsNeeded {
            if keepZone.map({ $0.lowercased() != "none" }) ?? false {
                throw DosebarError.usage(Catalog.english.text("usage.keep_zone_as_needed"))
            }
            kept = nil
        }
        return Schedule(recurrence: recurrence, times: times, window: window, start: start, until: end, keepZone: kept)
    }
}
