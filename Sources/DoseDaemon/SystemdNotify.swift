import Foundation
import Glibc

/// `sd_notify` without libsystemd: one datagram per message to the Unix socket named by
/// `NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace). Does nothing when unset.
struct SystemdNotify {
    /// The socket from the environment, nil when not run by a service manager.
    let socket: String?

    init(environment: [String: String]) {
        socket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Sends `READY=1`, `STATUS=…`, `STOPPING=1`… (lines joined by newlines). Returns whether it was delivered.
    @discardableResult
    func send(_ assignments: [String]) -> Bool {
        guard let socket, socket.hasPrefix("/") || socket.hasPrefix("@") else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socket.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        // Abstract names are exactly their bytes long; paths may carry the terminating NUL.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (path[0] == 0 ? 0 : 1)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let message = Array(assignments.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL), sa, socklen_t(length))
            }
        }
        return sent == message.count
    }
}
