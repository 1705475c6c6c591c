import Foundation
import Glibc
import Testing

/// The real daemon under a moved clock: libfaketime (preloaded; it also intercepts
/// timerfd_settime and epoll_wait) starts its view of time just before midnight, or runs it
/// 600 times faster so an hour passes in six seconds.
@Suite("Daemon process under faketime", .serialized)
struct DaemonClockTests {
    static let library = ["/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
                          "/usr/local/lib/faketime/libfaketime.so.1"].first { FileManager.default.fileExists(atPath: $0) }

    func harness() throws -> Harness {
        var h = Harness(now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00")
        h.env["DOSEBAR_NOW"] = nil
        return h
    }

    /// `dosebar daemon` with libfaketime preloaded (not the `faketime` wrapper, which forks:
    /// the test signals the daemon itself).
    func start(_ h: Harness, _ spec: String) throws -> LiveProcess {
        let env = h.env.merging(["LD_PRELOAD": Self.library!, "FAKETIME": spec, "FAKETIME_NO_CACHE": "1"]) { $1 }
        let d = try LiveProcess(["daemon"], env: env, root: h.root, viaEnv: true)
        #expect(DaemonTest.waitUntil(10) { FileManager.default.fileExists(atPath: h.dir + "/snapshot.json") }, "\(d.stderr)")
        return d
    }

    func snapshot(_ h: Harness) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json") else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @Test("the daemon's clock crosses midnight: the new day is written at 00:00 without any other event",
          .enabled(if: library != nil, "needs libfaketime (apt-get install faketime)"))
    func midnight() throws {
        let h = try harness()
        let d = try start(h, "@2026-11-22 23:59:57")
        #expect(snapshot(h)["day"] as? String == "2026-11-22")
        #expect(DaemonTest.waitUntil(15) { snapshot(h)["day"] as? String == "2026-11-23" }, "no rollover: \(d.stderr)")
        #expect(snapshot(h)["at"] as? String == "2026-11-23T00:00:00+09:00")
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { DaemonTest.counter("wakeups", in: d.stderr) != nil })
        // The midnight deadline; the daemon's own write of yesterday's summary may wake it once more.
        #expect(DaemonTest.counter("deadlines", in: d.stderr) == 1, "\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("an accelerated hour (x600): woken at the 08:00 entry and nowhere else",
          .enabled(if: library != nil, "needs libfaketime (apt-get install faketime)"))
    func acceleratedHour() throws {
        let h = try harness()
        let began = DaemonTest.clock()
        let d = try start(h, "@2026-11-23 07:30:00 x600")
        #expect(DaemonTest.waitUntil(20) { snapshot(h)["at"] as? String == "2026-11-23T08:00:00+09:00" }, "\(d.stderr)")
        // The rest of the simulated hour (to 08:30): nothing is due to change.
        let left = began + 6 - DaemonTest.clock()
        if left > 0 { usleep(UInt32(left * 1e6)) }
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { DaemonTest.counter("wakeups", in: d.stderr) != nil })
        let fakeMinutes = (DaemonTest.clock() - began) * 600 / 60
        let wakeups = DaemonTest.counter("wakeups", in: d.stderr) ?? -1
        let deadlines = DaemonTest.counter("deadlines", in: d.stderr) ?? -1
        // Entries after 07:30 are 08:00, 09:00, 10:00 (T+2h), …: how many the fake clock passed.
        let passed = [30.0, 90, 150, 210].filter { $0 <= fakeMinutes }.count
        let data = DaemonTest.counter("data", in: d.stderr) ?? -1
        print("accelerated: \(Int(fakeMinutes)) simulated minutes from 07:30, wakeups=\(wakeups), deadlines=\(deadlines), data=\(data)")
        #expect(deadlines >= 1 && deadlines <= passed, "\(d.stderr)")
        // Besides entries and the SIGUSR1: at most the daemon's own write of yesterday's summary at
        // start-up (its inotify sees its own commit once).
        #expect(data <= 1 && wakeups == deadlines + data + 1, "woke for something other than an entry: \(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }
}
