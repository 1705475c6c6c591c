import CLinuxShim
import DoseApp
import DoseExport
import Foundation
import Glibc

/// Tells the bars that read a file on demand that it changed (DESIGN §5), each only when its file
/// changed, only when that bar runs for this user, and silently otherwise:
///
/// | bar | file | how | config (`[nudge]`) |
/// |---|---|---|---|
/// | waybar | waybar.json | `SIGRTMIN+N` to processes whose comm is `waybar` | `waybar_signal = 8` (0 = off) |
/// | polybar | polybar.txt | `polybar-msg action "#dosebar.hook.0"` (polybar ≥ 3.6) | `polybar = true` |
/// | tmux | tmux.txt | `tmux refresh-client -S -t C` for every client of every server socket | `tmux = true` |
/// | i3blocks | i3blocks.txt | `SIGRTMIN+N` to processes whose comm is `i3blocks` | `i3blocks_signal = 10` (0 = off) |
///
/// Programs run through `ChildProcesses`, so the daemon's loop never waits for them.
final class BarNudger {
    var settings: Config.Nudge
    private let children: ChildProcesses
    private let environment: [String: String]
    private let uid = getuid()

    init(settings: Config.Nudge, children: ChildProcesses, environment: [String: String]) {
        self.settings = settings; self.children = children; self.environment = environment
    }

    /// Nudges the bars whose file is among `changed`, each as its format's registry entry says
    /// (`OutputFormat.nudge`).
    func nudge(changed: [String]) {
        let changed = Set(changed)
        for format in OutputFormat.all where changed.contains(format.fileName) {
            guard let nudge = format.nudge, settings.isOn(nudge) else { continue }
            switch nudge {
            case .signal(let process, _, _):
                for pid in processes(named: process) { kill(pid, shim_sigrtmin() + Int32(settings.value(nudge))) }
            case .polybarHook:
                if let msg = children.which("polybar-msg"), !processes(named: "polybar").isEmpty {
                    children.spawn(msg, ["action", "#dosebar.hook.0"])
                }
            case .tmuxRefresh:
                let sockets = tmuxSockets()
                if !sockets.isEmpty, let tmux = children.which("tmux") {
                    for socket in sockets { refreshTmuxClients(tmux, socket) }
                }
            }
        }
    }

    /// `tmux list-clients`, then `refresh-client -S` for each client it names.
    private func refreshTmuxClients(_ tmux: String, _ socket: String) {
        let children = children
        children.spawn(tmux, ["-S", socket, "list-clients", "-F", "#{client_name}"]) { exit in
            guard exit.succeeded else { return }
            for client in exit.output.split(separator: "\n") where !client.isEmpty {
                children.spawn(tmux, ["-S", socket, "refresh-client", "-S", "-t", String(client)])
            }
        }
    }

    /// The sockets in this user's tmux directory (`$TMUX_TMPDIR` or /tmp, then `tmux-UID`).
    func tmuxSockets() -> [String] {
        let base = environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let dir = "\(base)/tmux-\(uid)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return names.sorted().map { dir + "/" + $0 }.filter { path in
            var st = stat()
            return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK && st.st_uid == uid
        }
    }

    /// Processes of this user whose `/proc/PID/comm` is exactly `name`.
    func processes(named name: String) -> [pid_t] {
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        var found: [pid_t] = []
        while let entry = readdir(dir) {
            let pidText = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(pidText), pid != getpid() else { continue }
            var st = stat()
            guard stat("/proc/\(pidText)", &st) == 0, st.st_uid == uid else { continue }
            let fd = open("/proc/\(pidText)/comm", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buffer, buffer.count)
            close(fd)
            guard n > 0 else { continue }
            var comm = buffer[0..<n]
            if comm.last == UInt8(ascii: "\n") { comm = comm.dropLast() }
            if comm.elementsEqual(name.utf8) { found.append(pid) }
        }
        return found
    }
}
