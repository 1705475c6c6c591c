import CLinuxShim
import Glibc

/// An epoll instance: sleeps until one of a few descriptors is ready.
public final class Epoll {
    public let fd: Int32

    public init() throws {
        fd = try SystemCall.check(epoll_create1(Int32(EPOLL_CLOEXEC)), "epoll_create1")
    }

    deinit { close(fd) }

    /// Readable (the default), or e.g. `0` for a pipe's write end: errors and hang-ups are always reported.
    public func add(_ descriptor: Int32, events: UInt32 = UInt32(EPOLLIN.rawValue)) throws {
        try SystemCall.check(shim_epoll_add(fd, descriptor, events), "epoll_ctl")
    }

    /// Blocks (forever when `timeoutMs` is -1) until at least one descriptor is ready; EINTR is retried.
    public func wait(timeoutMs: Int32 = -1) throws -> [(fd: Int32, events: UInt32)] {
        var fds = [Int32](repeating: 0, count: 16)
        var events = [UInt32](repeating: 0, count: 16)
        while true {
            let n = shim_epoll_wait(fd, &fds, &events, 16, timeoutMs)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCall.error("epoll_wait")
            }
            return (0..<Int(n)).map { (fds[$0], events[$0]) }
        }
    }
}
