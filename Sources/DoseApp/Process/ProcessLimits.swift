import DoseCore
import Glibc

/// Open files: enough of them before anything starts a thread. libdispatch traps when it cannot
/// create its epoll descriptor, so `ulimit -n 4` crashed with SIGILL and a backtrace instead of
/// saying what was wrong (DESIGN §9: no resource limit makes a command crash).
public enum ProcessLimits {
    /// What a command holds at most at once, with room to spare: the database and its `-wal` and
    /// `-shm`, the shared directory, its lock and a temporary, a sync file, libdispatch's epoll
    /// and event descriptors, the daemon's inotify, timer and signal descriptors.
    public static let descriptorsNeeded = 16

    /// Raises a low soft limit of open files towards the hard one; then, when fewer than
    /// ``descriptorsNeeded`` can still be opened, the error to print (74), else nil. A usual limit
    /// (256 or more) costs one `getrlimit`.
    public static func descriptorProblem() -> DosebarError? {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur >= 256 { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1024)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        while opened.count < descriptorsNeeded {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            opened.append(fd)
        }
        guard opened.count < descriptorsNeeded else { return nil }
        return .io("only \(opened.count) more files can be open (ulimit -n \(limit.rlim_cur)) and dosebar needs "
            + "\(descriptorsNeeded); raise the limit (ulimit -n 1024) and try again")
    }
}
