import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether Syncthing runs on this machine and answers, for `doctor`: a process named
/// `syncthing` (`/proc/PID/comm`), and a TCP connection to the GUI/API address of its
/// `config.xml` (`$STHOMEDIR`, else `$XDG_STATE_HOME/syncthing`, `~/.local/state/syncthing`,
/// `$XDG_CONFIG_HOME/syncthing`, `~/.config/syncthing`). The REST API itself needs the API key,
/// which dosebar does not read.
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

    /// The GUI/API address (`host:port`) of the first Syncthing config found, or nil.
    public static func guiAddress(env: [String: String]) -> String? {
        let home = env["HOME"] ?? NSHomeDirectory()
        var dirs: [String] = []
        if let d = env["STHOMEDIR"], !d.isEmpty { dirs.append(d) }
        if let d = env["XDG_STATE_HOME"], d.hasPrefix("/") { dirs.append(d + "/syncthing") }
        dirs.append(home + "/.local/state/syncthing")
        if let d = env["XDG_CONFIG_HOME"], d.hasPrefix("/") { dirs.append(d + "/syncthing") }
        dirs.append(home + "/.config/syncthing")
        for dir in dirs {
            guard let xml = try? String(contentsOfFile: dir + "/config.xml", encoding: .utf8),
                  let gui = xml.range(of: "<gui"),
                  let open = xml.range(of: "<address>", range: gui.upperBound..<xml.endIndex),
                  let close = xml.range(of: "</address>", range: open.upperBound..<xml.endIndex) else { continue }
            return String(xml[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Whether something accepts a TCP connection at `address` (`host:port`; a wildcard host
    /// means this machine). Only numeric IPv4 hosts and `localhost` are tried; others count as answering.
    public static func answers(_ address: String) -> Bool {
        var text = address
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) { text.removeFirst(scheme.count) }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return true }
        var host = String(text[..<colon])
        if host.isEmpty || host == "0.0.0.0" || host == "localhost" { host = "127.0.0.1" }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { return true }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }
}
