import Foundation
import Glibc

/// Programs the daemon starts without waiting for them (bar nudges, notifications): started
/// with `posix_spawn`, stdin and stderr on /dev/null, an empty signal mask (the daemon blocks
/// its signals for signalfd), and reaped when SIGCHLD arrives through the daemon's signalfd.
final class ChildProcesses {
    /// How a child ended and what it printed (when its output was captured).
    struct Exit {
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    private var running: [pid_t: (pipe: Int32?, onExit: ((Exit) -> Void)?)] = [:]
    private let environment: [String: String]
    private let searchPath: [String]

    init(environment: [String: String]) {
        self.environment = environment
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// Children not reaped yet.
    var count: Int { running.count }

    /// The full path of `program` on PATH, or nil when it is not installed.
    func which(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        return searchPath.lazy.map { $0 + "/" + program }.first { access($0, X_OK) == 0 }
    }

    /// Starts `path` with `arguments`. With `onExit`, stdout and stderr are captured and handed
    /// over when the child has been reaped. Returns the pid, or nil when it could not start.
    @discardableResult
    func spawn(_ path: String, _ arguments: [String], onExit: ((Exit) -> Void)? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pipeFDs: [Int32] = [-1, -1]
        if onExit != nil {
            // pipe2 needs _GNU_SOURCE; the daemon is single-threaded, so setting the flags after is safe.
            guard pipe(&pipeFDs) == 0 else { return nil }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }

        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        if onExit != nil { close(pipeFDs[1]) }
        guard rc == 0 else {
            if onExit != nil { close(pipeFDs[0]) }
            return nil
        }
        running[pid] = (onExit != nil ? pipeFDs[0] : nil, onExit)
        return pid
    }

    /// Sends `signal` to a running child (no-op once it has been reaped).
    func signal(_ pid: pid_t, _ signal: Int32) {
        if running[pid] != nil { kill(pid, signal) }
    }

    /// Reaps every child that has ended and calls its `onExit`. Call on SIGCHLD.
    func reap() {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid <= 0 { return }
            guard let child = running.removeValue(forKey: pid) else { continue }
            var output = ""
            if let fd = child.pipe {
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = read(fd, &chunk, chunk.count)
                    if n <= 0 { break }
                    bytes.append(contentsOf: chunk[0..<n])
                }
                close(fd)
                output = String(decoding: bytes, as: UTF8.self)
            }
            // WIFEXITED/WEXITSTATUS are macros: exited normally when the low 7 bits are 0.
            let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            child.onExit?(Exit(status: code, output: output))
        }
    }
}
