import Foundation
import Glibc
import Testing

/// The real `dosebar daemon` process on a temporary database and shared directory.
@Suite("Daemon process", .serialized)
struct DaemonProcessTests {
    @Test("a process on the real clock sees the suite's clock and zone (moved by scripts/test-hours)")
    func realClock() throws {
        let h = try DaemonTest.harness()
        let s = try h.today()
        let at = try #require(ISO8601DateFormatter().date(from: s["at"] as? String ?? ""), "no instant in \(s)")
        #expect(abs(at.timeIntervalSince(TestClock.now())) < 120, "the binary's now \(s["at"] ?? "") vs the suite's \(TestClock.now())")
        #expect(s["timezone"] as? String == TestClock.zone)
        if let clock = ProcessInfo.processInfo.environment["DOSEBAR_TEST_CLOCK"] {
            // The binary's local wall-clock time is the suite's start time plus the minutes it has run.
            func minutes(_ hhmm: Substring) -> Int { hhmm.split(separator: ":").compactMap { Int($0) }.reduce(0) { $0 * 60 + $1 } }
            let local = (s["at"] as? String ?? "").dropFirst(11).prefix(5)
            let ran = (minutes(local) - minutes(Substring(clock).prefix(5)) + 1440) % 1440
            // 1439: a minute early, when the offset's rounding lands on HH:MM-1:59.
            #expect(ran < 30 || ran == 1439, "the binary's local time is \(local), the suite started at \(clock)")
        }
    }

    @Test("one daemon per directory: a second is refused, a killed one does not block, SIGTERM exits 0 with whole files")
    func lifecycle() throws {
        let h = try DaemonTest.harness()
        let first = try DaemonTest.startDaemon(h)

        let second = try h.run("daemon")
        #expect(second.status == 69)
        #expect(second.err.contains("already running") && second.err.contains("pid \(first.pid)"), "got: \(second.err)")
        // doctor sees it through the lock, not a pid that may have been reused.
        #expect(try h.run("doctor").out.contains("daemon running (pid \(first.pid))"))

        // kill -9: the lock file keeps the dead pid, but the kernel dropped the lock.
        first.signal(SIGKILL)
        #expect(first.waitExit() != nil)
        #expect(try String(contentsOfFile: h.dir + "/daemon.lock", encoding: .utf8).contains("\(first.pid)"))
        #expect(try h.run("doctor").out.contains("the daemon is not running"))
        let third = try DaemonTest.startDaemon(h)

        third.signal(SIGTERM)
        #expect(third.waitExit() == 0, "stderr: \(third.stderr)")
        #expect(third.stderr.contains("stopped"))
        #expect(try String(contentsOfFile: h.dir + "/daemon.lock", encoding: .utf8).isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: h.dir)
        // (.lock is the export lock every writer takes, .dosebar-shared the marker: not leftovers.)
        #expect(!names.contains { $0.hasPrefix(".") && $0 != ".lock" && $0 != ".dosebar-shared" }, "temporary files left: \(names)")
        for name in names where name.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: h.dir + "/" + name))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(name) is not whole JSON")
        }
    }

    @Test("SIGINT also stops it cleanly; SIGHUP reloads the config and keeps running")
    func signals() throws {
        let h = try DaemonTest.harness()
        let d = try DaemonTest.startDaemon(h)
        try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
        try "icons = \"ascii\"\n".write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        let before = try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8)
        d.signal(SIGHUP)
        #expect(DaemonTest.waitUntil(5) { (try? String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8)) != before },
                "the reloaded icon set did not reach snapshot.txt: \(d.stderr)")
        // A broken config on reload is reported and the old one kept.
        try "icons = 3\n".write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        #expect(DaemonTest.waitUntil(5) { d.stderr.contains("config not reloaded") })
        #expect(d.process.isRunning)
        d.signal(SIGINT)
        #expect(d.waitExit() == 0)
    }

    @Test("every take in another process reaches the shared directory and the watch stream through the daemon")
    func takesReachTheBar() throws {
        // (How fast is measured by scripts/bench, not here: DESIGN §8.)
        let h = try DaemonTest.harness()
        let d = try DaemonTest.startDaemon(h)
        let w = try LiveProcess(["watch", "--format", "json"], env: h.env, root: h.root, captureStdout: true)
        var line = try #require(w.readLine(timeout: 10), "watch printed no first line")
        // `take` writes its own copy elsewhere, so only the daemon updates the watched directory.
        var env = h.env
        env["DOSEBAR_DIR"] = h.root + "/elsewhere"
        func snapshot() -> [String: Any] {
            guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json") else { return [:] }
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }
        func ibuprofenToday(_ s: [String: Any]) -> Int? {
            ((s["as_needed"] as? [[String: Any]])?.first { $0["medication"] as? String == "Ibuprofen" })?["taken_today"] as? Int
        }
        for n in 1...5 {
            let p = Harness.process(["take", "Ibuprofen"], env: env)
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            #expect(DaemonTest.waitUntil(10) { ibuprofenToday(snapshot()) == n }, "take \(n) did not reach snapshot.json: \(d.stderr)")
            // The stream may also print an entry change of the real clock (the hour turning
            // between two takes): the line that counts is the first one showing this take.
            var next = try #require(w.readLine(timeout: 10), "take \(n) did not reach the watch stream")
            var seen = [next]
            while ibuprofenToday(try JSONSerialization.jsonObject(with: Data(next.utf8)) as? [String: Any] ?? [:]) != n,
                  seen.count < 3, let more = w.readLine(timeout: 10) {
                next = more
                seen.append(more)
            }
            let object = try JSONSerialization.jsonObject(with: Data(next.utf8)) as? [String: Any]
            #expect(next != line && ibuprofenToday(object ?? [:]) == n, "watch lines after take \(n): \(seen)")
            line = next
        }
        w.signal(SIGTERM)
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("no wake-ups while nothing happens")
    func idle() throws {
        let h = try DaemonTest.harness()
        let d = try DaemonTest.startDaemon(h)
        usleep(3_000_000)
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { DaemonTest.counter("wakeups", in: d.stderr) != nil })
        let err = d.stderr
        let wakeups = DaemonTest.counter("wakeups", in: err) ?? -1
        let deadlines = DaemonTest.counter("deadlines", in: err) ?? -1
        let raw = DaemonTest.counter("epoll_returns", in: err) ?? -1
        // Only a timeline entry may wake it (one at most in 3 s: an hour or a dose boundary);
        // the SIGUSR1 itself is the one wake-up being reported.
        #expect(wakeups - deadlines == 1 && deadlines <= 1, "\(err)")
        #expect(raw == wakeups, "the process woke \(raw) times for \(wakeups) loop turns")
        let status = try String(contentsOfFile: "/proc/\(d.pid)/status", encoding: .utf8)
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS") } ?? "?"
        print("idle 3 s: wakeups=\(wakeups) (deadlines \(deadlines)), epoll returns \(raw); \(rss)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("shared directory = database directory: its own writes do not wake the loop")
    func sameDirectory() throws {
        var h = try DaemonTest.harness()
        h.env["DOSEBAR_DIR"] = h.root + "/data"
        // A directory holding the database is not empty, so dosebar adopts it as its shared
        // directory only once the user marked it as such (DESIGN §9).
        #expect(FileManager.default.createFile(atPath: h.root + "/data/.dosebar-shared", contents: Data("mine\n".utf8)))
        let d = try LiveProcess(["daemon"], env: h.env, root: h.root)
        #expect(DaemonTest.waitUntil(10) { FileManager.default.fileExists(atPath: h.root + "/data/snapshot.json") && d.stderr.contains("daemon: pid") })
        usleep(200_000)
        let before = try String(contentsOfFile: h.root + "/data/snapshot.json", encoding: .utf8)
        #expect(try h.run(["take", "Ibuprofen"], extraEnv: ["DOSEBAR_DIR": h.root + "/elsewhere"]).status == 0)
        #expect(DaemonTest.waitUntil(5) { (try? String(contentsOfFile: h.root + "/data/snapshot.json", encoding: .utf8)) != before })
        usleep(300_000)
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { DaemonTest.counter("wakeups", in: d.stderr) != nil })
        // Wake-ups other than timeline entries (a dose or hour boundary may fall in the window).
        func nonTimerWakeups() -> Int { (DaemonTest.counter("wakeups", in: d.stderr) ?? -1) - (DaemonTest.counter("deadlines", in: d.stderr) ?? 0) }
        let first = nonTimerWakeups()
        usleep(1_500_000)
        d.signal(SIGUSR1)
        #expect(DaemonTest.waitUntil(5) { d.stderr.split(separator: "\n").filter { $0.contains("wakeups=") }.count == 2 })
        let second = nonTimerWakeups()
        #expect(second == first + 1, "the loop woke for its own writes between the two reports: \(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("a take in a terminal that rewrote the files itself still gets the bars nudged")
    func nudgeAfterTerminalTake() throws {
        let h = try DaemonTest.harness()
        // A stand-in waybar: a script that names itself "waybar" (/proc/self/comm) and logs each
        // SIGRTMIN+8. It unblocks the signal first: the test runner's children inherit a blocked mask.
        let bin = h.root + "/fakebin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let log = h.root + "/signals.log"
        try """
        #!/usr/bin/env python3
        import signal, time
        open("/proc/self/comm", "w").write("waybar")
        sig = signal.SIGRTMIN + 8
        signal.signal(sig, lambda *_: open("\(log)", "a").write("rtmin8\\n"))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        open("\(log)", "a").write("ready\\n")
        while True:
            time.sleep(60)
        """.write(toFile: bin + "/waybar", atomically: true, encoding: .utf8)
        chmod(bin + "/waybar", 0o755)
        let waybar = Process()
        waybar.executableURL = URL(fileURLWithPath: bin + "/waybar")
        try waybar.run()
        // SIGKILL: the test runner's children inherit SIGTERM blocked.
        defer { kill(waybar.processIdentifier, SIGKILL); waybar.waitUntilExit() }
        func lines() -> [Substring] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") }
        func count() -> Int { lines().filter { $0 == "rtmin8" }.count }
        #expect(DaemonTest.waitUntil(10) { lines().contains("ready") })

        let d = try DaemonTest.startDaemon(h)
        #expect(DaemonTest.waitUntil(5) { count() >= 1 }, "no nudge at start-up")
        usleep(300_000)
        let before = count()
        // Same shared directory: the take rewrites waybar.json itself (often before the daemon looks).
        try h.ok("take", "Ibuprofen")
        #expect(DaemonTest.waitUntil(5) { count() > before }, "the daemon did not signal waybar after the take")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("READY=1 and STATUS= reach NOTIFY_SOCKET (a path and an abstract name); STOPPING=1 on exit", arguments: [false, true])
    func sdNotify(abstract: Bool) throws {
        let h = try DaemonTest.harness()
        let name = abstract ? "@dosebar-test-\(getpid())-\(UUID().uuidString.prefix(6))" : h.root + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        let len = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        #expect(bound == 0)

        func receive() -> String? {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 5000) > 0 else { return nil }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, 0)
            return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }
        let d = try DaemonTest.startDaemon(h, extraEnv: ["NOTIFY_SOCKET": name])
        let first = receive()
        #expect(first?.contains("READY=1") == true && first?.contains("STATUS=") == true, "got \(first ?? "nothing")")
        d.signal(SIGTERM)
        var rest = ""
        while let m = receive() { rest += m + "\n"; if m.contains("STOPPING=1") { break } }
        #expect(rest.contains("STOPPING=1"))
        #expect(d.waitExit() == 0)
    }
}
