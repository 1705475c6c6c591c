import Foundation
import Glibc
import Testing

/// The real daemon under a moved clock: libfaketime (preloaded; it also intercepts
/// timerfd_settime and epoll_wait) starts its view of time just before midnight, or runs it
/// 600 times faster so an hour passes in six seconds; and a time-zone change in a private mount
/// namespace.
@Suite("Daemon process under a moved clock or zone", .serialized)
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
        let library = try #require(Self.library, "libfaketime is not installed (scripts/setup installs it)")
        var env = h.env.merging(["LD_PRELOAD": library, "FAKETIME": spec, "FAKETIME_NO_CACHE": "1"]) { $1 }
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = nil // (set by scripts/test-hours for its shifted clock)
        let d = try LiveProcess(["daemon"], env: env, root: h.root)
        #expect(DaemonTest.waitUntil(10) { FileManager.default.fileExists(atPath: h.dir + "/snapshot.json") }, "\(d.stderr)")
        return d
    }

    func snapshot(_ h: Harness) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json") else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @Test("the daemon's clock crosses midnight: the new day is written at 00:00 without any other event",
          .enabled(if: library != nil || Harness.underCI, "needs libfaketime (apt-get install libfaketime); under CI its absence fails"))
    func midnight() throws {
        let h = try harness()
        let d = try start(h, "@2026-11-22 23:59:57")
        #expect(snapshot(h)["day"] as? String == "2026-11-22")
        #expect(DaemonTest.waitUntil(15) { snapshot(h)["day"] as? String == "2026-11-23" }, "no rollover: \(d.stderr)")
        #expect(snapshot(h)["at"] as? String == "2026-11-23T00:00:00+09:00")
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { DaemonTest.counter("wakeups", in: d.stderr) != nil })
        // The midnight deadline, and nothing for the daemon's own write of yesterday's summary.
        #expect(DaemonTest.counter("deadlines", in: d.stderr) == 1, "\(d.stderr)")
        #expect(DaemonTest.counter("data", in: d.stderr) == 0, "its own database write woke it: \(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("an accelerated hour (x600): woken at the 08:00 entry and nowhere else",
          .enabled(if: library != nil || Harness.underCI, "needs libfaketime (apt-get install libfaketime); under CI its absence fails"))
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
        // Besides entries and the SIGUSR1: nothing. The daemon's own writes (yesterday's summary at
        // start-up) reach its inotify watch, but SQLite's data_version tells them from another
        // process's commit, so they do not wake the loop (DESIGN §5).
        #expect(data == 0 && wakeups == deadlines + 1, "woke for something other than an entry: \(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    static let canUnshare: Bool = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments = ["-m", "true"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    @Test("a time-zone change (/etc/localtime replaced, TZ unset) is noticed at once",
          .enabled(if: canUnshare, "needs a private mount namespace (unshare -m) to swap /etc/localtime"))
    func zoneChange() throws {
        // In a private mount namespace: a copy of /etc mounted over /etc, so the test can replace
        // localtime without touching the machine's.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-tz-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
        let script = """
        set -e
        cp -a /etc/. \(root)/etc/ 2>/dev/null || true
        mount --bind \(root)/etc /etc
        ln -sfn /usr/share/zoneinfo/Asia/Seoul /etc/localtime
        export DOSEBAR_DB=\(root)/db.sqlite DOSEBAR_DIR=\(root)/shared HOME=\(root)
        unset TZ DOSEBAR_NOW
        B=\(Harness.binary)
        zone() { python3 -c "import json;print(json.load(open('\(root)/shared/snapshot.json'))['timezone'])"; }
        "$B" add Aspirin --at 08:00 >/dev/null
        "$B" daemon 2>\(root)/err & D=$!
        for i in $(seq 100); do [ -f \(root)/shared/daemon.lock ] && [ -s \(root)/shared/daemon.lock ] && break; sleep 0.05; done
        sleep 0.3
        echo "before=$(zone)"
        ln -sfn /usr/share/zoneinfo/America/New_York /etc/localtime.new && mv -T /etc/localtime.new /etc/localtime
        for i in $(seq 100); do [ "$(zone)" = America/New_York ] && break; sleep 0.02; done
        echo "after=$(zone)"
        kill -TERM $D; wait $D; echo "exit=$?"
        """
        try script.write(toFile: root + "/run.sh", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments = ["-m", "bash", root + "/run.sh"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let err = (try? String(contentsOfFile: root + "/err", encoding: .utf8)) ?? ""
        #expect(text.contains("before=Asia/Seoul"), "\(text)\(err)")
        #expect(text.contains("after=America/New_York"), "the daemon did not follow the zone change: \(text)\(err)")
        #expect(text.contains("exit=0"))
        #expect(DaemonTest.counter("clock", in: err) == 1, "\(err)")
        try? FileManager.default.removeItem(atPath: root)
    }
}
