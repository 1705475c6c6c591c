import Foundation
import Glibc

/// Programs the daemon starts without waiting for them (bar nudges, notifications): started
/// with `posix_spawn`, stdin and stderr on /dev/null, an empty signal mask (the daemon blocks
/// its signals for signalfd), and reaped when SIGCHLD arrives through the daemon's signalfd.
/// And the one it waits for (``run(_:_:)``): `dosebar sync now` for another device's long file.
final class ChildProcesses {
    /// How a child ended and what it printed (when its output was captured).
    struct Exit {
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    /// A child not reaped yet: its output pipe while open, what it printed so far, the callbacks.
    private struct Running {
        var pipe: Int32?
        var output: [UInt8] = []
        /// Bytes of `output` already handed to `onLine`.
        var linesSeen = 0
        var onLine: ((String) -> Void)?
        var onExit: ((Exit) -> Void)?
    }

    private var running: [pid_t: Running] = [:]
    /// Called with the output pipe of every child started with `onLine`, to be watched for input
    /// (the event source adds it to its epoll; closing it removes it).
    var watchOutput: ((Int32) -> Void)?
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
    /// over when the child has been reaped; with `onLine` too, each line as soon as it is read
    /// (while the child runs). Returns the pid, or nil when it could not start.
    @discardableResult
    func spawn(_ path: String, _ arguments: [String], onExit: ((Exit) -> Void)? = nil,
               onLine: ((String) -> Void)? = nil) -> pid_t? {
        let onExit = onExit ?? (onLine == nil ? nil : { _ in })
        guard let (pid, pipe) = launch(path, arguments, output: onExit != nil ? .captured : .discarded) else { return nil }
        running[pid] = Running(pipe: pipe, onLine: onLine, onExit: onExit)
        if onLine != nil, let pipe { watchOutput?(pipe) }
        return pid
    }

    /// Runs `path` with `arguments` and waits for it, the daemon doing nothing else meanwhile (as
    /// when it does the work itself): stdout on /dev/null, stderr the daemon's own (its log).
    /// Returns the exit code (128 + the signal when killed), or nil when it could not start.
    func run(_ path: String, _ arguments: [String]) -> Int32? {
        guard let (pid, _) = launch(path, arguments, output: .stderrToLog) else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return Self.code(status)
    }

    private enum Output { case captured, discarded, stderrToLog }

    /// posix_spawn of `path` with stdin on /dev/null, an empty signal mask and default dispositions
    /// (the daemon blocks its signals for signalfd); the pid and, when captured, the output pipe.
    private func launch(_ path: String, _ arguments: [String], output: Output) -> (pid_t, Int32?)? {
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
        switch output {
        case .captured:
            // pipe2 needs _GNU_SOURCE; the daemon is single-threaded, so setting the flags after is safe.
            guard pipe(&pipeFDs) == 0 else { return nil }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .stderrToLog:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }

        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        if output == .captured { close(pipeFDs[1]) }
        guard rc == 0 else {
            if output == .captured { close(pipeFDs[0]) }
            return nil
        }
        return (pid, output == .captured ? pipeFDs[0] : nil)
    }

    /// A wait status as an exit code: WIFEXITED/WEXITSTATUS are macros (exited normally when the
    /// low 7 bits are 0); killed by a signal is 128 + the signal.
    private static func code(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Reads what a child printed on `fd` (ready for reading) and hands over its complete lines;
    /// closes the pipe at its end. False when `fd` is no child's pipe.
    @discardableResult
    func readOutput(_ fd: Int32) -> Bool {
        guard let pid = running.first(where: { $0.value.pipe == fd })?.key else { return false }
        drain(pid)
        return true
    }

    /// Reads the pipe of `pid` until it would block (or ends: then it is closed) and passes on the new lines.
    private func drain(_ pid: pid_t, final: Bool = false) {
        guard var child = running[pid] else { return }
        if let fd = child.pipe {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &chunk, chunk.count)
                if n > 0 { child.output.append(contentsOf: chunk[0..<n]); continue }
                if n < 0 && errno == EINTR { continue }
                if n == 0 || errno != EAGAIN { close(fd); child.pipe = nil }
                break
            }
        }
        var lines: [String] = []
        if child.onLine != nil {
            while let nl = child.output[child.linesSeen...].firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: child.output[child.linesSeen..<nl], as: UTF8.self))
                child.linesSeen = nl + 1
            }
            if final || child.pipe == nil, child.linesSeen < child.output.count {
                lines.append(String(decoding: child.output[child.linesSeen...], as: UTF8.self))
                child.linesSeen = child.output.count
            }
        }
        running[pid] = child
        for line in lines { child.onLine?(line) }
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
            guard running[pid] != nil else { continue }
            drain(pid, final: true)
            guard let child = running.removeValue(forKey: pid) else { continue }
            if let fd = child.pipe { close(fd) }
            let output = String(decoding: child.output, as: UTF8.self)
            child.onExit?(Exit(status: Self.code(status), output: output))
        }
    }
}
