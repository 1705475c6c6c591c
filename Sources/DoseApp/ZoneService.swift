import DoseCore
import DoseStore
import Foundation

/// Where the person is (DESIGN §3): the zone log every command and the daemon judge days by.
///
/// A device whose own zone (`TZ`, else the system's) changed since it last ran — a laptop that flew —
/// appends (now, its zone) at its next command or daemon wake-up and says so once. A device whose
/// zone differs from the log's without having changed (the home server while its person travels)
/// follows the log and says so where times are shown. `dosebar zone here` / `zone NAME` append on purpose.
public struct ZoneService {
    let context: AppContext
    let store: DoseStore

    public init(context: AppContext, store: DoseStore) {
        self.context = context
        self.store = store
    }

    /// The `meta` key of the zone this device's system was in when it last ran (never synced).
    static let deviceZoneKey = "device_zone"

    /// The log as a ``Zone``: the earliest first entry reaches back to the beginning (the other
    /// devices' first entries are not changes), every other entry is a change. Entries naming a zone
    /// this system does not know are left out (the sync gate refuses them; an older tz database may
    /// lack a new name). No first entry: `fallback` is the zone before the changes.
    public static func zone(_ entries: [StoreReader.ZoneEntry], fallback: Zone) -> Zone {
        func known(_ e: StoreReader.ZoneEntry) -> ZoneChange? {
            TimeZone(identifier: e.zone).map { ZoneChange(at: e.at, timeZone: $0, name: e.zone) }
        }
        let base = entries.filter(\.first).lazy.compactMap(known).first
        let changes = entries.filter { !$0.first }.compactMap(known)
        return Zone(base?.timeZone ?? fallback.base, name: base?.name ?? fallback.baseName, changes: changes)
    }

    /// The context judging days by the log, and the one line to say when this run appended a change.
    public struct Followed {
        public var context: AppContext
        public var notice: String?
    }

    /// Reads the log and appends this device's zone when its system zone changed since it last ran
    /// (or the log is empty: the first entry, silently). A database that cannot be written (read-only,
    /// busy) is followed as if the change were there; the next command that can write appends it.
    public func follow() throws -> Followed {
        let system = context.systemZone
        let (log, seen) = try store.read { r in (try r.zoneLog(), try r.meta(Self.deviceZoneKey)) }
        var context = context
        let current = Self.zone(log, fallback: system)
        // No change to record: the log as it is (the common case: one read).
        if seen == system.identifier, !log.isEmpty {
            context.zone = current
            return Followed(context: context)
        }
        let moved = !log.isEmpty && seen != nil && seen != system.identifier && current.identifier != system.identifier
        let at = context.now
        _ = try store.writeIfWritable { w in
            if log.isEmpty || moved { try Self.record(w, context, .init(at: at, zone: system.identifier, first: log.isEmpty)) }
            try w.setMeta(Self.deviceZoneKey, system.identifier)
        }
        var entries = log
        if log.isEmpty || moved { entries.append(.init(at: at, zone: system.identifier, first: log.isEmpty)) }
        context.zone = Self.zone(entries, fallback: system)
        guard moved else { return Followed(context: context) }
        let c = context.catalog
        return Followed(context: context, notice: c.text("zone.moved", [
            "zone": system.identifier, "was": current.identifier(at: at), "time": context.zone.local(at).clock,
        ]))
    }

    /// Appends `zone` from `at` on to the log in `w`'s transaction, with its sync operation, and drops
    /// the cached judgements of the days from the one before it (a day's slots after it move).
    static func record(_ w: StoreWriter, _ context: AppContext, _ entry: StoreReader.ZoneEntry) throws {
        guard try w.addZone(entry) else { return }
        if let journal = try SyncJournal.open(w, context) {
            try journal.zoneChanged(entry)
            try journal.finish()
        }
        let day = context.zone.date(of: entry.at).adding(days: -1)
        try w.historyChanged(on: day, today: context.today)
    }

    /// `dosebar zone here` / `dosebar zone NAME`: the person is in `name` from now on. Nil when the
    /// log already has it in force now (nothing to add).
    public func move(to name: String) throws -> AppContext? {
        let log = try store.read { try $0.zoneLog() }
        let current = Self.zone(log, fallback: context.systemZone)
        guard log.isEmpty || current.identifier(at: context.now) != name else { return nil }
        try store.write { w in
            // The first entry reaches back to the beginning: the zone the days so far were judged in.
            if log.isEmpty { try Self.record(w, context, .init(at: context.now, zone: current.identifier, first: true)) }
            try Self.record(w, context, .init(at: context.now, zone: name, first: false))
        }
        var moved = context
        moved.zone = Self.zone(try store.read { try $0.zoneLog() }, fallback: context.systemZone)
        return moved
    }

    /// The log, earliest first, for `dosebar zone`.
    public func log() throws -> [StoreReader.ZoneEntry] {
        try store.read { try $0.zoneLog() }
    }
}

extension Zone {
    /// The name of the zone in force at `instant`.
    public func identifier(at instant: Date) -> String { name(at: instant) }
}

extension AppContext {
    /// This context judging days by the zone log (``ZoneService/follow()``), with the database it
    /// opened for that; a change this run appended is said once on stderr. A database that cannot be
    /// opened or read is left for the command to meet (its own error, in its own words): the context
    /// then keeps this device's zone.
    public func followingZone() -> AppContext {
        if dbIsDefault && !databaseExists { return self }
        guard let store = try? openStore(.read) else { return self }
        guard let followed = try? ZoneService(context: self, store: store).follow() else { return with(opened: store) }
        if let notice = followed.notice { Output.notice(notice) }
        return followed.context.with(opened: store)
    }
}
