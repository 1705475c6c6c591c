import ArgumentParser
import DoseCore
import DoseStore

/// `dosebar edit`: change a medicine; schedule changes apply from a date on and never rewrite the past.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a medicine's schedule or details.",
        discussion: """
        A schedule change takes effect from --effective (default today); days before it keep the
        schedule they had, so history, streaks and adherence stay as they were.

        Examples:
          $ dosebar edit Aspirin --at 09:00
          $ dosebar edit Aspirin --days mon,thu --effective 2026-12-01
          $ dosebar edit Metformin --stock 90 --dose "500 mg"
          $ dosebar edit Vitamin --rename "Vitamin D3"
        """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The medicine (name or unique prefix).") var name: String
    @OptionGroup(title: "Schedule") var schedule: ScheduleOptions
    @OptionGroup(title: "Details") var details: MedicationOptions

    @Option(name: .long, help: ArgumentHelp("New name.", valueName: "NEW")) var rename: String?
    @Option(name: .long, help: ArgumentHelp("First day the schedule change applies (default today).", valueName: "YYYY-MM-DD"))
    var effective: String?

    func run() throws {
        let context = try AppContext(global)
        try details.validate()
        if let rename { try Validate.name(rename) }
        guard schedule.changesSchedule || details.changesSomething || rename != nil else {
            throw DosebarError.usage("nothing to change: give a schedule flag, a detail such as --dose, or --rename")
        }
        let effectiveDate = try effective.map { try InputParser.date($0, flag: "--effective", today: context.today) } ?? context.today
        if effective != nil && !schedule.changesSchedule {
            throw DosebarError.usage("--effective goes with a schedule change (--at, --days, --every, --cycle, --window …)")
        }
        let store = try context.openStore()
        let (renamed, summary) = try store.write { w -> (String, String) in
            let all = try w.medications(includeArchived: false)
            var m = try DoseResolver.match(name, in: all)
            details.apply(to: &m)
            if let rename {
                let new = rename.trimmingCharacters(in: .whitespaces)
                if all.contains(where: { $0.id != m.id && $0.name.lowercased() == new.lowercased() }) {
                    throw DosebarError.badData("a medicine named '\(new)' already exists")
                }
                m.name = new
            }
            try w.updateMedication(m)
            var summary = ""
            if schedule.changesSchedule {
                let base = m.schedule(on: effectiveDate) ?? m.currentSchedule
                let new = try schedule.schedule(base: base, today: context.today,
                                                defaultWindow: context.config.window ?? Schedule.defaultWindow)
                try w.putVersion(medicationID: m.id, ScheduleVersion(effective: effectiveDate, schedule: new))
                if effectiveDate < context.today { try w.invalidateSummaries(from: effectiveDate) }
                let times = new.times.map(\.description).joined(separator: ", ")
                summary = ": \(new.summary)\(times.isEmpty ? "" : " at \(times)") from \(effectiveDate)"
            }
            return (m.name, summary)
        }
        Output.line("Updated \(renamed)\(summary).")
        Refresh.afterChange(context, store)
    }
}
