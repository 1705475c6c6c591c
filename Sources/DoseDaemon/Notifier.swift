import DoseCore
import Foundation
import Glibc

/// Desktop notifications through `notify-send` (libnotify-bin ≥ 0.8): one background
/// `notify-send --action=…` per alert, which prints the chosen action's key when the person
/// clicks one and exits. The answer is read when the child is reaped (`ChildProcesses`), so the
/// daemon's loop never waits. A notification whose doses all got resolved elsewhere is closed
/// (SIGINT makes notify-send close it), and so is every open one when the daemon stops.
final class Notifier {
    /// The path of notify-send, nil when it is not installed.
    let program: String?
    private let children: ChildProcesses
    private var open: [pid_t: DoseAlert] = [:]
    private var answers: [AlertAnswer] = []
    private var warnedFailure = false
    /// The doses still open at the last `withdraw` (nil before the first).
    private var unresolved: Set<SlotKey>?
    private let warn: (String) -> Void

    init(children: ChildProcesses, warn: @escaping (String) -> Void) {
        self.children = children
        self.warn = warn
        program = children.which("notify-send")
    }

    /// Answers received since the last call.
    func takeAnswers() -> [AlertAnswer] {
        defer { answers.removeAll() }
        return answers
    }

    /// Shows `alert`, closing earlier notifications about the same doses (a late one replaces the due one).
    func show(_ alert: DoseAlert, zone: Zone, now: Date, catalog: Catalog) {
        guard let program else { return }
        // An earlier notification is replaced when what is still open of it is all in this one.
        let slots = Set(alert.slots)
        for (pid, other) in open {
            let stillOpen = Set(other.slots).intersection(unresolved ?? Set(other.slots))
            if stillOpen.isSubset(of: slots) { close(pid) }
        }
        let text = NotificationText(alert, zone: zone, now: now, catalog: catalog)
        var arguments = ["--app-name=dosebar", "--urgency=\(alert.kind == .late ? "critical" : "normal")",
                         "--category=reminder", "--icon=appointment-soon"]
        for choice in AlertAnswer.Choice.allCases {
            arguments.append("--action=\(choice.rawValue)=\(text.label(choice))")
        }
        arguments += [text.summary, text.body]
        var pid: pid_t?
        pid = children.spawn(program, arguments) { [weak self] exit in
            guard let self, let pid else { return }
            guard let alert = self.open.removeValue(forKey: pid) else { return }
            let chosen = exit.output.split(whereSeparator: \.isNewline)
                .compactMap { AlertAnswer.Choice(rawValue: $0.trimmingCharacters(in: .whitespaces)) }.first
            if let chosen {
                self.answers.append(AlertAnswer(alert: alert, choice: chosen))
            } else if !exit.succeeded && !self.warnedFailure {
                self.warnedFailure = true
                let why = exit.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(exit.status)"
                self.warn("notify-send failed (is a notification server running?): \(why)")
            }
        }
        if let pid { open[pid] = alert }
    }

    /// Closes the notifications none of whose doses is in `unresolved` any more.
    func withdraw(unresolved: Set<SlotKey>) {
        self.unresolved = unresolved
        for (pid, alert) in open where !alert.slots.contains(where: unresolved.contains) { close(pid) }
    }

    /// Closes every open notification (the daemon is stopping: nobody would act on a click).
    func closeAll() {
        for pid in open.keys { close(pid) }
    }

    private func close(_ pid: pid_t) {
        open[pid] = nil
        children.signal(pid, SIGINT)
    }
}
