import DoseCore
import DoseExport
import DoseStore
import Foundation

/// What `dosebar zone` prints: the zone the person is in now, the log, and this machine's own zone
/// when it differs (DESIGN §3 "Where the person is").
public enum ZoneReport {
    /// The log as days are judged by it: the first zone, then each change.
    static func entries(_ zone: Zone) -> [(from: Date?, name: String, timeZone: TimeZone)] {
        [(nil, zone.baseName, zone.base)] + zone.changes.map { ($0.at, $0.name, $0.timeZone) }
    }

    public static func abbreviation(_ zone: Zone, at instant: Date) -> String {
        ZoneAbbreviation.of(zone.entry(at: instant).timeZone, at: instant)
    }

    /// The line for a machine whose zone is not the person's, nil when it is.
    public static func otherClock(_ context: AppContext) -> String? {
        let now = context.now
        let person = context.zone.name(at: now), system = context.systemZone.identifier
        guard person != system else { return nil }
        return context.catalog.text("zone.other", [
            "system": system, "zone": person, "abbr": abbreviation(context.zone, at: now),
            "system_abbr": ZoneAbbreviation.of(context.systemZone.timeZone, at: now),
        ])
    }

    public static func text(_ context: AppContext) -> String {
        let c = context.catalog, zone = context.zone, now = context.now
        var out = c.text("zone.now", ["zone": zone.name(at: now), "abbr": abbreviation(zone, at: now),
                                       "now": zone.date(of: now).description + " " + zone.local(now).clock]) + "\n"
        out += c.text("zone.log") + "\n"
        let width = entries(zone).map { $0.name.count }.max() ?? 0
        for e in entries(zone) {
            let name = e.name.padding(toLength: width, withPad: " ", startingAt: 0)
            if let from = e.from {
                let local = LocalInstant(date: from, offset: e.timeZone.secondsFromGMT(for: from))
                let before = zone.entry(at: from.addingTimeInterval(-1))
                let was = LocalInstant(date: from, offset: before.timeZone.secondsFromGMT(for: from))
                out += "  " + name + "  " + c.text("zone.log.change", [
                    "date": local.localDate.description, "time": local.clock, "abbr": ZoneAbbreviation.of(e.timeZone, at: from),
                    "was_time": was.localDate.description + " " + was.clock, "was_abbr": ZoneAbbreviation.of(before.timeZone, at: from),
                ]) + "\n"
            } else {
                out += "  " + name + "  " + c.text("zone.log.first") + "\n"
            }
        }
        if let other = otherClock(context) { out += other + "\n" }
        return out
    }

    public static func json(_ context: AppContext) -> String {
        let zone = context.zone, now = context.now
        return JSONValue.object { o in
            o.set("zone", zone.name(at: now))
            o.set("abbreviation", abbreviation(zone, at: now))
            o.set("now", zone.local(now).iso8601)
            o.set("system_zone", context.systemZone.identifier)
            o.set("follows_system", zone.name(at: now) == context.systemZone.identifier)
            o.setArray("log") { a in
                for e in entries(zone) {
                    a.appendObject { item in
                        if let from = e.from {
                            item.set("from", LocalInstant(date: from, offset: e.timeZone.secondsFromGMT(for: from)).iso8601)
                        } else {
                            item.setNull("from")
                        }
                        item.set("zone", e.name)
                    }
                }
            }
        }.text
    }
}
