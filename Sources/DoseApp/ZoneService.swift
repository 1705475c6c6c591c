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

    /// The context judging days by the log; what following it owes the database (``commit(_:)``) and
    /// the one line to say once that is written.
    public struct Followed {
        public var context: AppContext
        /// The entry this run appends (the log's first, or this device's new zone), if any.
        var entry: StoreReader.ZoneEntry?
        /// The device's zone to remember, when it is not remembered yet.
        var seen: String?
        /// Said once the change is written: the device's clock moved to another zone.
        public var notice: String?
    }

    /// Reads the log (nothing is written here: a command that fails must leave the database as it
    /// was). When this device's system zone changed since it last ran, or the log is empty, the
    /// context already judges days with the entry ``commit(_:)`` then appends.
    public func follow() throws -> Followed {
        let system = context.systemZone
        let (log, seen) = try store.read { r in (try r.zoneLog(), try r.meta(Self.deviceZoneKey)) }
        var context = context
        let current = Self.zone(log, fallback: system)
        let remember = seen == system.identifier ? nil : system.identifier
        let moved = !log.isEmpty && seen != nil && seen != system.identifier && current.identifier != system.identifier
        let at = context.now
        var entry: StoreReader.ZoneEntry?
        if log.isEmpty || moved { entry = .init(at: at, zone: system.identifier, first: log.isEmpty) }
        context.zone = entry.map { Self.zone(log + [$0], fallback: system) } ?? current
        let notice = moved ? context.catalog.text("zone.moved", [
            "zone": system.identifier, "was": current.name(at: at), "time": context.zone.local(at).clock,
        ]) : nil
        return Followed(context: context, entry: entry, seen: remember, notice: notice)
    }

    /// Writes what `followed` owes: its entry with its sync operation, and the device's zone. A
    /// database that cannot be written now (read-only, busy) is left: the next run appends it.
    /// Returns the notice to say, nil when there is none or it was not written.
    @discardableResult
    public func commit(_ followed: Followed) throws -> String? {
        guard followed.entry != nil || followed.seen != nil else { return nil }
        let recorded: Bool? = try store.writeIfWritable { w in
            var recorded = false
            // A change made on purpose at this instant (`dosebar zone NAME`) is the one that holds.
            if let entry = followed.entry, try !w.reader.zoneLog().contains(where: { $0.at == entry.at && !$0.first }) {
                try Self.record(w, followed.context, entry)
                recorded = true
            }
            if let seen = followed.seen { try w.setMeta(Self.deviceZoneKey, seen) }
            return recorded
        }
        return recorded == true ? followed.notice : nil
    }

    /// Appends `zone` from `at` on to the log in `w`'s transaction, with its sync operation, and drops
    /// the cached judgements of the days from the one before it (a day's slots after it move).
    static func record(_ w: StoreWriter, _ context: AppContext, _ entry: StoreReader.ZoneEntry) throws {
        guard try w.addZone(entry) else { return }
        if let journal = try SyncJournal.open(w, context) {
            try journal.zoneChanged(entry)
            try journal.finish()
        }
        // A first entry is the zone days were judged in already.
        if entry.first { return }
        let day = context.zone.date(of: entry.at).adding(days: -1)
        try w.historyChanged(on: day, today: context.today)
    }

    /// `dosebar zone here` / `dosebar zone NAME`: the person is in `name` from now on. Nil when the
    /// log already has it in force now (nothing to add).
    public func move(to name: String) throws -> AppContext? {
        let log = try store.read { try $0.zoneLog() }
        let current = Self.zone(log, fallback: context.systemZone)
        guard log.isEmpty || current.name(at: context.now) != name else { return nil }
        try store.write { w in
            // The first entry reaches back to the beginning: the zone the days so far were judged in.
            if log.isEmpty { try Self.record(w, context, .init(at: context.now, zone: current.identifier, first: true)) }
            try Self.record(w, context, .init(at: context.now, zone: name, first: false))
        }
        var moved = context
        moved.zone = Self.zone(try store.read { try $0.zoneLog() }, fallback: context.systemZone)
        return moved
    }
}

/// A command's following of the zone log: read before it runs, written once it succeeded
/// (``ZoneService/commit(_:)``), so a command that fails changes nothing.
public struct ZoneFollowing {
    let followed: ZoneService.Followed?
    let store: DoseStore?

    /// Writes what following the log owes and says the notice of a change (stderr, once). A database
    /// the command itself created (`add` on a first run) gets its log's first entry now.
    public func settle(_ context: AppContext) {
        if let followed, let store {
            if let notice = try? ZoneService(context: context, store: store).commit(followed) { Output.notice(notice) }
            return
        }
        guard !(context.dbIsDefault && !context.databaseExists), FileManager.default.fileExists(atPath: context.dbPath),
              let store = try? context.openStore(.read),
              let followed = try? ZoneService(context: context, store: store).follow() else { return }
        _ = try? ZoneService(context: followed.context, store: store).commit(followed)
    }
}

extension AppContext {
    /// This context judging days by the zone log (``ZoneService/follow()``), with the database it
    /// opened for that, and what to write once the command succeeded. A database that cannot be
    /// opened or read is left for the command to meet (its own error, in its own words): the context
    /// then keeps this device's zone.
    public func followingZone() -> (AppContext, ZoneFollowing) {
        if dbIsDefault && !databaseExists { return (self, ZoneFollowing(followed: nil, store: nil)) }
        // Opened only if that changes nothing (a database to migrate, an empty file, is left for the
        // command: a command that fails must leave it as it was).
        guard let store = try? opened ?? openStore(.read, changing: false) else { return (self, ZoneFollowing(followed: nil, store: nil)) }
        guard let followed = try? ZoneService(context: self, store: store).follow() else {
            return (with(opened: store), ZoneFollowing(followed: nil, store: nil))
        }
        return (followed.context.with(opened: store), ZoneFollowing(followed: followed, store: store))
    }
}
