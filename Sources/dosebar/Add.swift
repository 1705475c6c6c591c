import ArgumentParser
import DoseApp
import DoseCore

/// `dosebar add`: a new medicine with its schedule.
struct Add: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a medicine or supplement with its schedule.",
        discussion: """
        Examples:
          $ dosebar add Aspirin --at 08:00 --dose "100 mg"
          $ dosebar add Metformin --at 08:00,20:00 --stock 60 --low-days 10
          $ dosebar add Magnesium --at 21:00 --days mon,wed,fri
          $ dosebar add "Vitamin D" --at 09:00 --every 1w
          $ dosebar add Yaz --at 22:00 --cycle 21/7 --from 2026-11-01
          $ dosebar add Ibuprofen --as-needed --max-per-day 3 --min-interval 6h
          $ dosebar add Warfarin --at 18:00 --per-dose 0.5 --stock 9.75
          $ dosebar add Melatonin --at 20:00,22:30 --per-dose 0.5,1 --stock 30
          $ dosebar add Yasmin --at 22:00 --keep-zone Asia/Seoul
          $ dosebar add Levothyroxine --at 07:00 --urgent --repeat 10m

        Amounts go to hundredths: --per-dose 0.5 is half a tablet; with several times, \
        --per-dose 0.5,1 gives each time of --at its own amount, in the order typed. --keep-zone keeps a \
        medicine on home time wherever you travel. With `daemon --notify`, --repeat \
        shows an unanswered reminder again until it is answered or closed, and \
        --urgent makes its reminders critical.
        """
    )

    @Argument(help: "The medicine's name.") var name: String
    @OptionGroup(title: "Schedule") var schedule: ScheduleOptions
    @OptionGroup(title: "Details") var details: MedicationOptions

    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func validate() throws {
        try TextRules.name(name)
    }

    func run(_ context: AppContext) throws {
        let sched = try schedule.schedule(base: nil, today: context.today,
                                          defaultWindow: context.config.window ?? Schedule.defaultWindow)
        var m = Medication(id: 0, name: name.trimmingCharacters(in: .whitespaces),
                           versions: [ScheduleVersion(effective: min(sched.start, context.today), schedule: sched)])
        try details.apply(to: &m, times: schedule.at.map(InputParser.typedTimes) ?? [])
        let store = try context.openStore(.create)
        try MedicationService(context: context, store: store).add(m)
        let c = context.catalog
        let times = c.times(of: sched)
        Output.line(c.text("cli.added", ["name": m.name, "schedule": c.describe(sched),
                                         "times": times.isEmpty ? "" : c.text("cli.times", ["times": times]),
                                         "from": sched.start > context.today ? c.text("cli.from", ["date": sched.start.description]) : "",
                                         "stock": DoseConfirmation.onHand(m, on: context.today, catalog: c)
                                             .map { c.text("cli.added_stock", ["stock": $0]) } ?? ""]))
    }
}
