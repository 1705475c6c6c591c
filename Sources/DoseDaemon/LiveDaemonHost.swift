import DoseApp
import DoseCore
import DoseExport
import DoseStore
import Foundation

/// The daemon's effects on the real world: the store, the shared directory, the bars, the
/// notification server, systemd and stderr.
final class LiveDaemonHost: DaemonHost {
    private var base: AppContext
    private let store: DoseStore
    private let nudger: BarNudger
    private let notifier: Notifier?
    private let systemd: SystemdNotify
    /// The context of the last refresh (its zone and language are what notifications use).
    private var current: AppContext
    private var forgottenBefore: LocalDate?
    /// More counters for the report (the event source's raw wake-ups).
    var extraReport: () -> String = { "" }
    /// Another device's file in the sync folder changed (and, at start, may have): apply it on the next refresh.
    var syncChanged = true
    /// Warnings about other devices' files already logged: a bad line is named once, not on every read.
    private var syncWarned = Set<String>()
    /// The sync set-up the daemon follows, and how it starts following one.
    private var syncSetup: SyncService.Setup?
    var followSync: (SyncService.Setup?) throws -> Void = { _ in }

    /// Runs `dosebar sync now` for another device's long file.
    private let children: ChildProcesses

    init(context: AppContext, store: DoseStore, nudger: BarNudger, notifier: Notifier?, systemd: SystemdNotify,
         children: ChildProcesses) {
        base = context; current = context; self.store = store
        self.nudger = nudger; self.notifier = notifier; self.systemd = systemd; self.children = children
    }

    func refresh(now: Date) throws -> DaemonDay {
        // After long work (another device's file, a first summary of years), what it allocated
        // and freed goes back to the system: the daemon stays within its resident budget.
        let clock = ContinuousClock(), started = clock.now
        defer { if clock.now - started > .seconds(1) { DoseStore.releaseFreeMemory() } }
        if base.env["TZ"].map({ $0.isEmpty }) ?? true { NSTimeZone.resetSystemTimeZone() }
        var context = AppContext(base, now: now)
        // Another device's zone change arrives by sync: applied first, then the log is read.
        syncIfNeeded(context)
        // A laptop that flew: its zone is appended to the log at the first wake-up after (DESIGN §3).
        let zones = ZoneService(context: context, store: store)
        if let followed = try? zones.follow() {
            context = followed.context
            if let notice = try? zones.commit(followed) { warn(notice) }
        }
        current = context
        return try Refresh.export(context, store, progress: WorkProgress.forLog(context, log), bulk: .daemon) { written in
            // Named once, not at every refresh, and again after it was fixed and came back.
            let leftAlone = written.leftAlone.joined(separator: "; ")
            if leftAlone != lastLeftAlone, !leftAlone.isEmpty { warn(leftAlone) }
            lastLeftAlone = leftAlone
            var day = DaemonDay(timeline: written.timeline, slots: written.slots, changed: filesChangedSinceLastLook(context.dirPath))
            day.travelGaps = written.travelGaps
            return day
        }.withDoubles(try doubleAlerts(context))
    }

    /// The slots taken on two devices not confirmed yet, as `double` alerts.
    private func doubleAlerts(_ context: AppContext) throws -> [DoseAlert] {
        try DoubleDoseService(context: context, store: store).doubles().filter { !$0.confirmed }.map { d in
            DoseAlert(kind: .double, scheduled: d.takes.first?.at ?? context.now,
                      doses: [DoseAlert.Dose(slot: d.slot, medication: d.medication, dose: nil)], takes: d.takeTexts(zone: context.zone))
        }
    }

    /// Applies other devices' operations after their files changed, and appends this device's
    /// pending ones (a notification's answer). A failure is a warning: the bar still gets written.
    private func syncIfNeeded(_ context: AppContext) {
        let sync = SyncService(context: context, store: store, warn: { [unowned self] text in
            if syncWarned.insert(text).inserted { warn("sync: " + text) }
        }, progress: WorkProgress.forLog(context, log), bulk: .daemon)
        do {
            let setup = try sync.setup()
            if setup != syncSetup {
                try follow(setup)
                if let setup { warn("sync: following \(setup.folder.path) from now on") }
            }
            guard let setup else { return }
            try sync.flush(setup)
            if syncChanged {
                syncChanged = false
                let pending = try sync.pendingBytes(setup)
                if pending < SyncService.longRead || !applyInChild(context, bytes: pending) { try sync.applyOthers(setup) }
            }
        } catch {
            warn("sync: " + ((error as? DosebarError)?.description ?? "\(error)"))
        }
    }

    /// Another device's long file (its first, a month or more of history) is applied by
    /// `dosebar sync now` in a child process, which the daemon waits for as it would for its own
    /// work. The daemon then never holds that work's memory nor maps its code: after another
    /// device's 50 medicines × 20 years it stayed at 30.2–30.8 MB applying them itself (DESIGN §8's
    /// budget is 30 MB), and the child uses both cores. The child's warnings go to the daemon's
    /// log. False when it could not start (the daemon then applies the file itself).
    private func applyInChild(_ context: AppContext, bytes: UInt64) -> Bool {
        let options = context.options
        var arguments = ["sync", "now"]
        if let db = options.db { arguments += ["--db", db] }
        if let dir = options.dir { arguments += ["--dir", dir] }
        if let lang = options.lang { arguments += ["--lang", lang.rawValue] }
        if let config = options.config { arguments += ["--config", config] }
        let megabytes = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        log("sync: applying \(megabytes) MB of other devices' operations in `dosebar sync now`")
        let clock = ContinuousClock(), started = clock.now
        // This very program, even when a newer one has replaced its file since the daemon started.
        guard let code = children.run("/proc/self/exe", arguments) else {
            warn("sync: `dosebar sync now` could not start; applying here")
            return false
        }
        let seconds = (clock.now - started) / .seconds(1)
        if code == 0 {
            log("sync: other devices' operations applied by `dosebar sync now`: done in " + String(format: "%.1f s", seconds))
        } else {
            warn("sync: `dosebar sync now` failed (exit \(code)) after " + String(format: "%.1f s", seconds)
                 + "; the next change in the sync folder retries")
        }
        return true
    }

    /// Follows the folder of `setup` (none when nil); the files already there are applied at the next refresh.
    func follow(_ setup: SyncService.Setup?) throws {
        try followSync(setup)
        syncSetup = setup
        syncChanged = true
    }

    /// Identity of each shared file when last looked at: every write is a rename, so a new inode
    /// (or size, or mtime) means new content.
    private var lastSeen: [String: [Int]] = [:]
    /// The files left alone at the last refresh (something not dosebar's in their place), as warned.
    private var lastLeftAlone = ""

    /// The files that changed since the previous refresh, whoever wrote them: a `take` in a
    /// terminal rewrites the directory itself, usually before the daemon reads the database, and
    /// the bars that only re-read on a nudge must get one all the same.
    private func filesChangedSinceLastLook(_ dir: String) -> [String] {
        var changed: [String] = []
        for name in Exporter.fileNames {
            var st = stat()
            let identity = stat(dir + "/" + name, &st) == 0
                ? [Int(st.st_ino), Int(st.st_size), st.st_mtim.tv_sec, st.st_mtim.tv_nsec] : []
            if lastSeen[name] != identity {
                lastSeen[name] = identity
                changed.append(name)
            }
        }
        return changed
    }

    func reloadConfig() throws {
        base = try base.reloaded()
        nudger.settings = base.config.nudge
    }

    func nudgeBars(changed: [String]) { nudger.nudge(changed: changed) }

    func loadNotifications() throws -> NotifyState {
        guard let text = try store.read({ try $0.meta(NotifyState.metaKey) }) else { return NotifyState() }
        return try NotifyState.decoded(text)
    }

    func saveNotifications(_ state: NotifyState, claiming keys: [String], now: Date) throws {
        let today = current.today
        let text = try state.encoded()
        try store.write { w in
            // Keys older than a few days can never be asked about again.
            if forgottenBefore != today {
                try w.forgetNotified(before: now.addingTimeInterval(-3 * 86400))
                forgottenBefore = today
            }
            for key in keys { try w.markNotified(key, at: now) }
            try w.setMeta(NotifyState.metaKey, state.isEmpty ? nil : text)
        }
    }

    func alertKeyWasClaimed(_ key: String) throws -> Bool {
        try store.read { try $0.wasNotified(key) }
    }

    func show(_ alert: DoseAlert, replacing: UInt32?, now: Date) {
        notifier?.show(alert, replacing: replacing, zone: current.zone, now: now, catalog: current.catalog)
    }

    func release(_ previous: NotifyState.Open, close: Bool) {
        if let helper = previous.helper { notifier?.release(helper: helper, close: close) }
    }

    func withdrawAlerts(unresolved: Set<SlotKey>, doubles: Set<SlotKey>) { notifier?.withdraw(unresolved: unresolved, doubles: doubles) }

    func record(_ choice: AlertAnswer.Choice, slots: [SlotKey], now: Date) throws {
        if choice == .confirm {
            let service = DoubleDoseService(context: AppContext(current, now: now), store: store)
            for slot in slots { try service.confirm(slot: slot) }
            return
        }
        let kind: DoseEvent.Kind = choice == .skip ? .skipped : .taken
        try DoseRecorder(context: AppContext(current, now: now), store: store).record(kind, slots: slots)
    }

    var confirmsClicks: Bool { base.config.notifyClicks }
    var repeatDefault: Int? { base.config.notifyRepeat }

    func lastEventID() throws -> Int64 {
        try store.read { try $0.lastEventID() }
    }

    func clickTakes(after id: Int64) throws -> [ClickTake] {
        let zone = current.zone
        return try store.read { r in
            let events = try r.clickTakes(after: id)
            guard !events.isEmpty else { return [] }
            let meds = Dictionary(try r.medications(includeArchived: true).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            return events.map { e in
                let m = meds[e.medicationID]
                // An as-needed dose has no slot: it is named by the minute it was taken.
                let slot = e.slot ?? SlotKey(medicationID: e.medicationID, date: zone.date(of: e.at), time: zone.time(of: e.at))
                return ClickTake(event: e.id, dose: DoseAlert.Dose(slot: slot, medication: m?.name ?? "#\(e.medicationID)", dose: m?.dose),
                                 loggedAt: e.loggedAt)
            }
        }
    }

    func undo(events: [Int64], now: Date) throws {
        try UndoService(context: AppContext(current, now: now), store: store).undo(events: events, origin: .notification)
    }

    func takeClickRefusal(now: Date) -> String? {
        ClickNotice.take(database: base.dbPath, now: now)?.text
    }

    func status(_ text: String, ready: Bool) {
        systemd.send((ready ? ["READY=1"] : []) + ["STATUS=\(text)"])
    }

    func stopping() {
        notifier?.closeAll()
        systemd.send(["STOPPING=1", "STATUS=stopping"])
    }

    func warn(_ text: String) { Output.warning(text) }

    /// One line of the daemon's log that is not a warning: long work starting and ending (``WorkProgress``).
    func log(_ text: String) { Output.error("daemon: " + text) }

    func report(_ stats: DaemonStats) { Output.error("daemon: " + stats.line + extraReport()) }
}
