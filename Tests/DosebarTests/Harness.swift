import DoseTestSupport
import Foundation
import Testing

/// Runs the real `dosebar` binary against a fresh temporary database and shared directory.
struct Harness {
    /// The built binary: `.build/debug/dosebar` next to this package (override with DOSEBAR_BIN).
    static let binary: String = {
        if let b = ProcessInfo.processInfo.environment["DOSEBAR_BIN"] { return b }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(".build/debug/dosebar").path
    }()

    let root: String
    var env: [String: String]

    /// Under CI (`CI=true`) a test may not be disabled for a missing tool (`CI.active`, the one flag).
    static var underCI: Bool { CI.active }

    var db: String { root + "/data/dosebar.sqlite" }
    var dir: String { root + "/shared" }

    /// Every harness's directory, removed when the test process exits (a run left hundreds in /tmp).
    private static let made = TemporaryRoots()

    init(tz: String = "Asia/Seoul", now: String = "2026-11-22T07:00:00+09:00") {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-e2e-" + UUID().uuidString).path
        Harness.made.add(root)
        // The database's directory exists, as it would for a user who names one with --db/DOSEBAR_DB
        // (only the default location's directories are created: DESIGN §9).
        try? FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        env = ["PATH": "/usr/bin:/bin", "HOME": root, "DOSEBAR_DB": root + "/data/dosebar.sqlite",
               "DOSEBAR_DIR": root + "/shared", "TZ": tz, "DOSEBAR_NOW": now, "LANG": "C.UTF-8",
               "XDG_CONFIG_HOME": root + "/config",
               // The machine's own tmux servers (or a socket a killed one left) are not the test's:
               // a daemon would nudge them, and its child's exit would wake it.
               "TMUX_TMPDIR": root + "/tmux"]
        env.merge(TestClock.environment) { $1 }
    }

    /// A harness for processes on the real clock (the daemon's timer needs one): no
    /// `DOSEBAR_NOW`, in `TestClock.zone`. Under `scripts/test-hours` that clock is moved.
    static func realClock() -> Harness {
        var h = Harness(tz: TestClock.zone)
        h.env["DOSEBAR_NOW"] = nil
        return h
    }

    /// A process that runs the binary under test. It goes through `/usr/bin/env` (which
    /// execs it, so the pid is the binary's): spawned directly by Foundation with libfaketime
    /// preloaded, the binary sees no arguments.
    static func process(_ arguments: [String], env: [String: String]) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [binary] + arguments
        p.environment = env
        return p
    }

    struct Result {
        var status: Int32
        var out: String
        var err: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(out.utf8)) }
    }

    /// Runs `dosebar args…`, optionally at another instant.
    @discardableResult
    func run(_ args: String..., now: String? = nil, extraEnv: [String: String] = [:]) throws -> Result {
        try run(args, now: now, extraEnv: extraEnv)
    }

    func run(_ args: [String], now: String? = nil, extraEnv: [String: String] = [:]) throws -> Result {
        var e = env
        if let now { e["DOSEBAR_NOW"] = now }
        e.merge(extraEnv) { $1 }
        let p = Harness.process(args, env: e)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: r, as: UTF8.self))
    }

    /// Runs and requires exit 0.
    @discardableResult
    func ok(_ args: String..., now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let r = try run(args, now: now)
        #expect(r.status == 0, "dosebar \(args.joined(separator: " ")) failed: \(r.err)", sourceLocation: sourceLocation)
        return r
    }

    /// This home's sync device id, as the first line of `sync status` names it.
    func syncDevice() throws -> String {
        let first = try ok("sync", "status").out.split(separator: "\n").first.map(String.init) ?? ""
        return first.components(separatedBy: "This device is ").last?.components(separatedBy: ",").first ?? ""
    }

    /// `today --json` as a dictionary.
    func today(at now: String? = nil) throws -> [String: Any] {
        let r = try run(["today", "--json"], now: now)
        #expect(r.status == 0, "today --json failed: \(r.err)")
        return (r.json as? [String: Any]) ?? [:]
    }

    /// `[(medication, status)]` of today's doses.
    func statuses(at now: String? = nil) throws -> [String] {
        let doses = (try today(at: now)["doses"] as? [[String: Any]]) ?? []
        return doses.map { "\($0["medication"]!):\($0["status"]!)" }
    }

    /// A text dump of the database (sqlite3 CLI), to show a failed command changed nothing.
    func dump() -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, ".dump"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try? p.run()
        let d = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: d, as: UTF8.self)
    }
}

/// The wall clock that processes on the real clock see. Normally the machine's. `scripts/test-hours`
/// sets `DOSEBAR_TEST_TZ` and `DOSEBAR_TEST_CLOCK=HH:MM` (or `HH:MM:SS`, just before an hour turns): every binary the tests start then runs
/// under libfaketime, shifted so that the suite starts at that local time in that zone, which
/// shows the suite passes at any hour (DESIGN §9).
enum TestClock {
    static let variables = ProcessInfo.processInfo.environment

    /// The zone of real-clock scenarios (default Asia/Seoul).
    static let zone = variables["DOSEBAR_TEST_TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? "Asia/Seoul"

    static let faketimeLibrary = ["/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
                                  "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
                                  "/usr/local/lib/faketime/libfaketime.so.1"].first { FileManager.default.fileExists(atPath: $0) }

    /// Seconds added to the real clock, or nil when the clock is not moved.
    static let offset: Int? = {
        guard let clock = variables["DOSEBAR_TEST_CLOCK"], !clock.isEmpty else { return nil }
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 || parts.count == 3, let tz = TimeZone(identifier: zone) else {
            fatalError("DOSEBAR_TEST_CLOCK must be HH:MM[:SS] and DOSEBAR_TEST_TZ a known zone (got \(clock), \(zone))")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        let now = Date()
        var target = calendar.dateComponents([.year, .month, .day], from: now)
        target.hour = parts[0]
        target.minute = parts[1]
        target.second = parts.count == 3 ? parts[2] : 0
        guard let at = calendar.date(from: target) else { fatalError("no \(clock) today in \(zone)") }
        // Rounded up: the moved clock starts at the time given or just after, never before it.
        return Int(at.timeIntervalSince(now).rounded(.up))
    }()

    /// What a process needs to see the moved clock (empty when it is not moved).
    static let environment: [String: String] = {
        guard let offset else { return [:] }
        guard let library = faketimeLibrary else { fatalError("DOSEBAR_TEST_CLOCK needs libfaketime (apt-get install libfaketime)") }
        return ["LD_PRELOAD": library, "FAKETIME": (offset >= 0 ? "+" : "") + String(offset),
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_NO_CACHE": "1"]
    }()

    /// Now, as the processes under test see it.
    static func now() -> Date { Date().addingTimeInterval(Double(offset ?? 0)) }
}

/// Directories to remove at exit: not when a harness goes out of use (a value's last use may come
/// before the test is done with the paths it gave).
final class TemporaryRoots: @unchecked Sendable {
    private let lock = NSLock()
    private var roots: [String] = []
    nonisolated(unsafe) private static var shared: TemporaryRoots?

    init() {
        TemporaryRoots.shared = self
        atexit { TemporaryRoots.shared?.removeAll() }
    }

    func add(_ root: String) {
        lock.lock(); defer { lock.unlock() }
        roots.append(root)
    }

    func removeAll() {
        lock.lock(); defer { lock.unlock() }
        for r in roots { try? FileManager.default.removeItem(atPath: r) }
        roots = []
    }
}
