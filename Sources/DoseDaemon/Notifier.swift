import DoseCore
import Foundation
import Glibc

/// Desktop notifications through `notify-send` (libnotify-bin ≥ 0.8): one background
/// `notify-send --print-id --action=…` per alert. It prints the id the server gave the
/// notification as soon as the server took it (read while it runs: that is when the alert counts
/// as sent), then the chosen action's key when the person clicks one, and exits. Failing before an
/// id means no server took it. The loop hears all of it as wakes (`takeEvents`), so it never
/// waits. A notification whose doses all got resolved elsewhere is closed (SIGINT makes
/// notify-send close it), and so is every open one when the daemon stops.
///
/// Actions reach only the notify-send that sent the notification (the server signals its sender),
/// so a restarted daemon takes over a previous one's notification by sending it again with
/// `--replace-id`: the server replaces it in place and the new notify-send gets its answer.
final class Notifier {
    /// The path of notify-send, nil when it is not installed.
    let program: String?
    /// coreutils' `stdbuf`: notify-send's stdout is a pipe, so without `-oL` the id would come only
    /// at its exit (then a notification counts as sent only when it ends).
    private let stdbuf: String?
    private let children: ChildProcesses
    /// Running notify-sends: what each shows and, once the server said, its id.
    private var open: [pid_t: (alert: DoseAlert, id: UInt32?)] = [:]
    private var events: [DaemonWake] = []
    private var warnedFailure = false
    /// The doses still open at the last `withdraw` (nil before the first).
    private var unresolved: Set<SlotKey>?
    /// The slots taken on two devices not confirmed yet, as of the last ``withdraw(unresolved:doubles:)``.
    private var doubles: Set<SlotKey>?
    private let warn: (String) -> Void

    init(children: ChildProcesses, warn: @escaping (String) -> Void) {
        self.children = children
        self.warn = warn
        program = children.which("notify-send")
        stdbuf = children.which("stdbuf")
    }

    /// What happened to notifications since the last call: taken by the server (`.sent`), not
    /// taken (`.notSent`), answered, or gone (`.closed`).
    func takeEvents() -> [DaemonWake] {
        defer { events.removeAll() }
        return events
    }

    /// Shows `alert` (in place of the notification `replacing`), closing earlier notifications about
    /// the same doses (a late one replaces the due one).
    func show(_ alert: DoseAlert, replacing: UInt32?, zone: Zone, now: Date, catalog: Catalog) {
        guard let program else { return }
        // An earlier notification is replaced when what is still open of it is all in this one.
        let slots = Set(alert.slots)
        // A repeated reminder takes its own last notification's place: that notify-send ends
        // without closing it (SIGTERM), and tells the loop nothing (the new one answers for it).
        if let replacing, let (pid, _) = open.first(where: { $0.value.id == replacing }) {
            open.removeValue(forKey: pid)
            children.signal(pid, SIGTERM)
        }
        for (pid, other) in open {
            // Feedback on a click is about events, not slots: only a newer "nothing taken" replaces the last one.
            if alert.kind.isFeedback || other.alert.kind.isFeedback {
                if alert.kind == .nothing && other.alert.kind == .nothing { close(pid) }
                continue
            }
            // A missed notice stays on screen until closed, whatever comes after it; a double dose's
            // until confirmed or undone.
            if (other.alert.kind == .missed || other.alert.kind == .double || other.alert.kind == .travel)
                && other.alert.kind != alert.kind { continue }
            let pending = other.alert.kind == .double ? doubles : unresolved
            let stillOpen = Set(other.alert.slots).intersection(pending ?? Set(other.alert.slots))
            if stillOpen.isSubset(of: slots) { close(pid) }
        }
        let text = NotificationText(alert, zone: zone, now: now, catalog: catalog)
        var arguments = ["--app-name=dosebar", "--urgency=\(alert.kind == .late || alert.kind == .double || alert.urgent == true ? "critical" : "normal")",
                         "--category=\(alert.kind.isFeedback ? "transfer.complete" : "reminder")",
                         "--icon=\(alert.kind.isFeedback ? "dialog-information" : "appointment-soon")", "--print-id"]
        if let replacing { arguments.append("--replace-id=\(replacing)") }
        // A repeating reminder stays until answered or closed: a server's timeout (dunst's 10 s for
        // normal urgency) would end it as if the person had closed it, and so end its repeats.
        if alert.repeatMinutes != nil { arguments.append("--expire-time=0") }
        switch alert.kind {
        case .missed, .nothing, .travel:
            // Nothing to take or snooze: it waits on screen until closed, like the others.
            arguments.append("--wait")
        case .took, .due, .late, .double:
            for choice in AlertAnswer.Choice.offered(for: alert.kind) {
                arguments.append("--action=\(choice.rawValue)=\(text.label(choice))")
            }
        }
        arguments += [text.summary, text.body]
        var pid: pid_t?
        let command = stdbuf.map { ($0, ["-oL", program] + arguments) } ?? (program, arguments)
        pid = children.spawn(command.0, command.1, onExit: { [weak self] exit in
            guard let self, let pid else { return }
            guard let shown = self.open.removeValue(forKey: pid) else { return }
            let chosen = exit.output.split(whereSeparator: \.isNewline)
                .compactMap { AlertAnswer.Choice(rawValue: $0.trimmingCharacters(in: .whitespaces)) }.first
            if let chosen {
                self.events.append(.answered(AlertAnswer(alert: shown.alert, choice: chosen, id: shown.id)))
            } else if shown.id != nil {
                self.events.append(.closed(shown.alert, id: shown.id))
            } else {
                self.events.append(.notSent(shown.alert))
                if !self.warnedFailure {
                    self.warnedFailure = true
                    let why = exit.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(exit.status)"
                    self.warn("notify-send failed (is a notification server running?): \(why); "
                        + "trying again while a dose is owed a notification")
                }
            }
        }, onLine: { [weak self] line in
            // Without a server notify-send still prints an id: 0.
            guard let self, let pid, let shown = self.open[pid], shown.id == nil,
                  let id = UInt32(line.trimmingCharacters(in: .whitespaces)), id != 0 else { return }
            self.open[pid]?.id = id
            self.events.append(.sent(shown.alert, id: id, helper: pid))
        })
        if let pid {
            open[pid] = (alert, nil)
        } else {
            events.append(.notSent(alert))
        }
    }

    /// Ends a notify-send a previous daemon started (checked by its command line: a pid can be reused):
    /// SIGINT also closes its notification, SIGTERM leaves it on screen.
    func release(helper pid: pid_t, close: Bool) {
        guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return }
        let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard words.contains(where: { $0.hasSuffix("notify-send") }), words.contains("--app-name=dosebar") else { return }
        kill(pid, close ? SIGINT : SIGTERM)
    }

    /// Closes the notifications none of whose doses is in `unresolved` any more.
    func withdraw(unresolved: Set<SlotKey>, doubles: Set<SlotKey>) {
        self.unresolved = unresolved
        self.doubles = doubles
        // A missed notice is about a closed slot: it stays until the person closes it; so does feedback on a click.
        for (pid, shown) in open where !shown.alert.kind.isNotice && !shown.alert.kind.isFeedback
            && !shown.alert.slots.contains(where: (shown.alert.kind == .double ? doubles : unresolved).contains) {
            close(pid)
        }
    }

    /// Closes every open notification (the daemon is stopping: nobody would act on a click).
    func closeAll() {
        for pid in open.keys { close(pid) }
    }

    private func close(_ pid: pid_t) {
        if let shown = open.removeValue(forKey: pid) { events.append(.closed(shown.alert, id: shown.id)) }
        children.signal(pid, SIGINT)
    }
}
