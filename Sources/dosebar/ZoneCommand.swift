import ArgumentParser
import DoseApp
import DoseCore
import DoseExport
import Foundation

/// `dosebar zone`: where the person is — the zone log days are judged by (DESIGN §3).
struct ZoneCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "zone",
        abstract: "Show the time zone the person is in and its log, or say the person is now in another.",
        usage: "dosebar zone [here|<zone>] [--json] [<global options>]",
        discussion: """
        dosebar keeps a log of the zones the person was in. A machine whose clock moved to \
        another zone (a laptop that flew) adds it at its next command and says so once; every \
        day keeps the zone it was lived in, so history and reports never change when the person \
        travels. Synced machines share the log, so they all show the same doses.

        With no argument: the zone now, and the log. `here`: from now on the person is in this \
        machine's zone (TZ, else the system's): a machine that stayed home while its person \
        travelled shows the log's times with the zone's abbreviation until then. A zone name \
        (Asia/Seoul, America/New_York): from now on the person is in that zone.

        Examples:
          $ dosebar zone
          $ dosebar zone here
          $ TZ=Asia/Seoul dosebar zone Asia/Seoul
          $ dosebar zone --json | jq '.log'
        """
    )

    @Argument(help: "`here`, or a zone name like Asia/Seoul.") var zone: String?
    @Flag(name: .long, help: "Print JSON: {zone, abbreviation, now, system_zone, log: [{from, zone}]}.") var json = false
    @OptionGroup(title: "Global options") var global: GlobalOptions

    static var changesData: Bool { true }

    func precheck() throws {
        guard let zone, zone != "here" else { return }
        guard FieldRules.isZoneName(zone) else {
            throw ValidationError("'\(zone)' is not a time zone name this system knows (e.g. Asia/Seoul, America/New_York, UTC; `here` for this machine's)")
        }
    }

    func run(_ context: AppContext) throws {
        let c = context.catalog
        var context = context
        if let zone {
            let store = try context.openStore(.create)
            let name = zone == "here" ? context.systemZone.identifier : zone
            let was = context.zone.name(at: context.now)
            if let moved = try ZoneService(context: context, store: store).move(to: name) {
                context = moved
                Output.line(c.text("zone.set", ["zone": name, "was": was, "time": context.zone.local(context.now).clock]))
            } else {
                Output.line(c.text("zone.already", ["zone": name]))
            }
            if json { Output.line(ZoneReport.json(context)) }
            return
        }
        // A mistyped --db is exit 74 here too, never another machine's zone shown as this one's.
        _ = try context.openStore()
        if json { Output.line(ZoneReport.json(context)); return }
        Output.write(ZoneReport.text(context))
    }
}
