import ArgumentParser
import DoseApp
import DoseCore
import Foundation

/// `dosebar import dosage`: the data folder of the GTK app Dosage.
struct ImportDosage: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "dosage",
        abstract: "Import the treatments and history of the GTK app Dosage.",
        usage: """
        dosebar import dosage [<dir>] [--zone <zone>] [--dry-run] [--json]
        [<global options>]
        """,
        discussion: """
        Reads dosage-treatments.json and dosage-history.json from DIR (or its dosage/ folder); by \
        default from Dosage's Flatpak folder ~/.var/app/io.github.diegopvlk.Dosage/data, else its Snap \
        folder ~/snap/dosage-tracker/current/.local/share, else ${XDG_DATA_HOME:-~/.local/share}. Older \
        Dosage files (meds[] of 1.0-1.4, history by date) are read too.

        Treatments become medicines: daily, specific days, day of the month (monthly), cycle (the day \
        of the cycle Dosage wrote is that of its lastUpdate) and when needed (as needed); dose times, start and \
        end dates, the dose and unit, notes, and the stock on hand (inventory: the reminder becomes \
        --low-days). History: confirmed doses are taken at the time they were confirmed; 'confirmed \
        at an unknown time' and auto-confirmed ones at the scheduled time (marked time_unknown in history --json and the \
        JSON report), skipped are skipped; missed need nothing (a missed dose is one with no record). \
        Each change of a dose time in Dosage becomes a schedule version from the day the new time first \
        appears. A second take of one dose, or a take at a time the schedule has not, is an extra dose \
        at its own time: taken, in history and the report, never a second slot; a skip beside a take \
        is listed. A treatment Dosage no longer has becomes an archived medicine: when its history \
        records misses or skips, its doses are rebuilt from its entries (none invented), else as needed.

        Dosage's files carry no time zone: its history is read in this machine's zone, or in --zone's. \
        When its missed, time-unknown and auto-confirmed entries say it was made in another zone, the \
        import is refused, naming the offset found.

        Stock is not reduced by imported past doses: Dosage's count is already what is on hand. Amounts \
        (a quarter, a half, stock 6.25) are kept exactly; a different dose per time is written in the \
        dose text and a take counts the largest. The summary says per medicine what came in; what has \
        no equivalent (refill amounts, notification settings, colours) is listed there, not imported.

        Examples:
          $ dosebar import dosage
          $ dosebar import dosage ~/backup/dosage --dry-run
          $ dosebar import dosage ~/backup/dosage --zone Europe/Paris
          $ dosebar import dosage --json | jq .no_equivalent
        """
    )

    @Argument(help: "Dosage's data folder.", completion: .directory) var dir: String?
    @Option(name: .long, help: "The time zone Dosage's history was made in (a name like Europe/Paris; default: this machine's).")
    var zone: String?
    @OptionGroup var options: ImportOptions
    @OptionGroup(title: "Global options") var global: GlobalOptions

    static let changesData = true

    func run(_ context: AppContext) throws {
        var historyZone: Zone?
        if let zone {
            guard let tz = TimeZone(identifier: zone) else {
                throw ValidationError("--zone: '\(zone)' is not a known time zone (give a name like Europe/Paris)")
            }
            historyZone = Zone(tz, name: zone)
        }
        let reader = DosageReader(context: context, zone: historyZone)
        let progress = WorkProgress.forStderr(context)
        let plan = try reader.plan(folder: try reader.folder(dir), progress: progress)
        let store = try context.openStore(.create)
        let summary = try ImportService(context: context, store: store).apply(plan, dryRun: options.dryRun, progress: progress)
        if options.json { Output.line(summary.json) } else { summary.lines(context.catalog).forEach(Output.line) }
    }
}
