import Foundation

/// Whether Syncthing runs on this machine, for `doctor`: a process named `syncthing` owned by
/// anyone (`/proc/PID/comm`). Its REST API needs the API key from its config, which dosebar does
/// not read; a running process is what can be checked without it.
public enum SyncthingProbe {
    /// The pid of a running `syncthing`, or nil.
    public static func runningPID(proc: String = "/proc") -> Int? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []
        for name in names {
            guard let pid = Int(name), let comm = try? String(contentsOfFile: "\(proc)/\(name)/comm", encoding: .utf8) else { continue }
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == "syncthing" { return pid }
        }
        return nil
    }
}
