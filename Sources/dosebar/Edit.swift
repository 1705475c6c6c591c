import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar edit`: change a medicine; schedule changes apply from a date on and never rewrite the past.
struct Edit: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a medicine's schedule or details.",
        discussion: """
        A schedule change, a new --dose or --per-dose takes effect from --effective (default \
        today); days before it keep the schedule and dose they had, so history, reports, \
        streaks, adherence and the stock of earlier doses stay as they were.

        Examples:
          $ dosebar edit Aspirin --at 09:00
          $ dosebar edit Aspirin --days mon,thu --effective 2026-12-01
          $ dosebar edit Metformin --stock 90 --dose "500 mg"
          $ dosebar edit Metformin --dose "1000 mg" --effective 2026-12-06
          $ dosebar edit Melatonin --per-dose 1,1 --effective 2026-12-10
          $ dosebar edit Vitamin --rename "Vitamin D3"
        """
    )

    @Argument(help: "The medicine (name or unique prefix).", completion: .medicineNames) var name: String
    @OptionGroup(title: "Schedule") var schedule: ScheduleOptions
    @OptionGroup(title: "Details") var details: MedicationOptions

    @Option(name: .long, help: ArgumentHelp("New name.", valueName: "NEW")) var rename: String?
    @Option(name: .long, help: ArgumentHelp("First day the schedule or dose change applies (default today).", valueName: "YYYY-MM-DD"))
    var effective: String?

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func validate() throws {
        if let rename { try TextRules.name(rename) }
        guard schedule.changesSchedule || details.changesSomething || rename != nil else {
            throw ValidationError(Catalog.english.text("usage.nothing_to_change"))
        }
        if effective != nil && !schedule.changesSchedule && !details.changesDose {
            throw ValidationError(Catalog.english.text("usage.effective_alone"))
        }
    }

    func run(_ context: AppContext) throws {
        let effectiveDate = try effective.map { try InputParser.date($0, flag: "--effective", today: context.today) } ?? context.today
        let store = try context.openStore()
        let defaultWindow = context.config.window ?? Schedule.defaultWindow
        let (m, new) = try MedicationService(context: context, store: store).edit(
            name,
            change: { m in
                let typed = try schedule.at.map(InputParser.typedTimes)
                try details.apply(to: &m, times: typed ?? (m.schedule(on: effectiveDate) ?? m.currentSchedule)?.times ?? [])
                if let rename { m.name = rename.trimmingCharacters(in: .whitespaces) }
            },
            effective: effectiveDate,
            schedule: schedule.changesSchedule
                ? { base in try schedule.schedule(base: base, today: context.today, defaultWindow: defaultWindow) } : nil)
        let c = context.catalog
        if let new {
            let times = c.times(of: new)
            Output.line(c.text("cli.updated_schedule", ["name": m.name, "schedule": c.describe(new), "date": effectiveDate.description,
                                                        "times": times.isEmpty ? "" : c.text("cli.times", ["times": times])]))
        } else if !details.changesDose {
            Output.line(c.text("cli.updated", ["name": m.name]))
        }
        if details.changesDose {
            let d = m.dosing(on: max(effectiveDate, m.versions.first?.effective ?? effectiveDate))
            Output.line(c.text("cli.updated_dose", ["name": m.name, "dose": d.text ?? "-", "amount": c.amounts(d),
                                                    "date": max(effectiveDate, m.versions.first?.effective ?? effectiveDate).description]))
        }
    }
}
