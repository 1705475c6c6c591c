import CLinuxShim
import Glibc

/// Signals delivered as readable data instead of handlers: the listed signals are blocked for
/// the process first (children get an empty mask back, see `ChildProcesses`).
final class SignalFD {
    let fd: Int32

    /// Blocks `signals` and opens a descriptor that reads them. Call before any thread starts.
    init(_ signals: [Int32]) throws {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        try SystemCall.check(sigprocmask(SIG_BLOCK, &set, nil), "sigprocmask")
        // An ignored signal is discarded instead of queued, and exec keeps "ignored" from the
        // parent: back to the default, which blocked signals never run.
        for s in signals { signal(s, SIG_DFL) }
        fd = try SystemCall.check(signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)), "signalfd")
    }

    deinit { close(fd) }

    /// Every signal queued now.
    func read() -> [Int32] {
        var out: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while Glibc.read(fd, &info, size) == size { out.append(Int32(info.ssi_signo)) }
        return out
    }
}
