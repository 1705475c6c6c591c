import CLinuxShim
import Foundation
import Glibc

/// A timerfd on CLOCK_REALTIME armed at an absolute wall-clock instant with
/// TFD_TIMER_CANCEL_ON_SET, so a clock step (settimeofday, NTP step, resume from suspend)
/// ends the wait early and is reported as such.
final class RealtimeTimer {
    let fd: Int32

    /// What reading the timer said.
    enum Reading { case expired, clockChanged, nothing }

    init() throws {
        fd = try SystemCall.check(timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)), "timerfd_create")
    }

    deinit { close(fd) }

    /// Fires once at `instant` (at once if it has passed); nil disarms.
    func arm(at instant: Date?) throws {
        var spec = itimerspec()
        if let instant {
            let t = max(instant.timeIntervalSince1970, 0.000_001)
            let seconds = t.rounded(.down)
            // Rounded up: waking a microsecond late is harmless, waking early would wake twice.
            var nanos = ((t - seconds) * 1e9).rounded(.up)
            var sec = Int(seconds)
            if nanos >= 1e9 { sec += 1; nanos = 0 }
            spec.it_value = timespec(tv_sec: sec, tv_nsec: Int(nanos))
        }
        let flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
        try SystemCall.check(timerfd_settime(fd, instant == nil ? 0 : flags, &spec, nil), "timerfd_settime")
    }

    /// Consumes the expiration (or the cancellation).
    func read() -> Reading {
        var expirations: UInt64 = 0
        let n = Glibc.read(fd, &expirations, 8)
        if n == 8 { return .expired }
        if n < 0 && errno == ECANCELED { return .clockChanged }
        return .nothing
    }
}
