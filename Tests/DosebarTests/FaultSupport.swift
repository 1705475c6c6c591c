import DoseExport
import DoseTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fault and fuzz suites' generator (SplitMix64, shared with the other test targets). Seeded
/// from `DOSEBAR_FAULT_SEED` when set, so a failing run can be replayed; every failure message
/// prints the seed in use.
struct FaultRandom {
    private var generator: SplitMix64
    let seed: UInt64

    static let baseSeed: UInt64 = {
        let env = ProcessInfo.processInfo.environment["DOSEBAR_FAULT_SEED"]?.lowercased()
        if let env, env.hasPrefix("0x"), let v = UInt64(env.dropFirst(2), radix: 16) { return v }
        if let env, let v = UInt64(env) { return v }
        return 0xFA17_D05E_BA20_2026
    }()

    init(salt: UInt64) {
        seed = FaultRandom.baseSeed ^ (salt &* 0x9E37_79B9_7F4A_7C15)
        generator = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 { generator.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int { generator.int(range) }
    mutating func chance(_ p: Double) -> Bool { generator.chance(p) }
    mutating func pick<T>(_ items: [T]) -> T { generator.pick(items) }

    /// `seed 0x…` for failure messages (replay with DOSEBAR_FAULT_SEED set to the base seed).
    var label: String { "fault seed base 0x\(String(FaultRandom.baseSeed, radix: 16)), case 0x\(String(seed, radix: 16))" }
}

/// Process, file and SQLite helpers for the fault suite.
enum Fault {
    /// Output of a finished child and how it ended.
    struct Exit {
        var status: Int32
        /// Killed by this signal (0 when it exited).
        var signal: Int32
        var out: String
        var err: String
    }

    /// Runs `path args` with `env`, waiting at most `timeout` seconds (then SIGKILL).
    @discardableResult
    static func run(_ path: String, _ args: [String], env: [String: String]? = nil, input: String? = nil,
                    timeout: TimeInterval = 60) throws -> Exit {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        if let env { p.environment = env }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        if let input {
            let inPipe = Pipe()
            p.standardInput = inPipe
            try p.run()
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        } else {
            p.standardInput = FileHandle.nullDevice
            try p.run()
        }
        let pid = p.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errData = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        watchdog.cancel()
        let signalled = p.terminationReason == .uncaughtSignal
        return Exit(status: signalled ? -1 : p.terminationStatus, signal: signalled ? p.terminationStatus : 0,
                    out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData.data, as: UTF8.self))
    }

    /// `dosebar args…` in the harness's environment plus `extra`.
    @discardableResult
    static func dosebar(_ h: Harness, _ args: [String], extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> Exit {
        try run("/usr/bin/env", [Harness.binary] + args, env: h.env.merging(extra) { $1 }, timeout: timeout)
    }

    /// Starts `dosebar args…` and SIGKILLs it after `delay` seconds if it is still running.
    /// Returns whether it was killed, its exit status otherwise, and how long it ran (to the ms).
    static func killAfter(_ h: Harness, _ args: [String], delay: TimeInterval, extra: [String: String] = [:])
        throws -> (killed: Bool, status: Int32, elapsed: TimeInterval) {
        let p = Harness.process(args, env: h.env.merging(extra) { $1 })
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let t0 = DaemonTest.clock()
        while DaemonTest.clock() - t0 < delay && p.isRunning { usleep(500) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        let killed = p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL
        return (killed, p.terminationStatus, DaemonTest.clock() - t0)
    }

    /// `sqlite3 DB SQL` → stdout (trimmed). Uses a busy timeout so it waits for writers.
    static func sql(_ db: String, _ query: String) throws -> String {
        let r = try run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", db, query])
        guard r.status == 0 else { throw DosebarFaultError("sqlite3 \(query): \(r.err)") }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func integrity(_ db: String) throws -> String { try sql(db, "PRAGMA integrity_check;") }

    /// Every file of the shared directory that must be whole: JSON files parse, one-line files are one line.
    static func sharedFileProblems(_ dir: String) -> [String] {
        var problems: [String] = []
        for name in ["timeline.json", "snapshot.json", "waybar.json"] {
            guard let data = FileManager.default.contents(atPath: dir + "/" + name) else { continue }
            if (try? JSONSerialization.jsonObject(with: data)) == nil { problems.append("\(name) does not parse (\(data.count) bytes)") }
            if !data.isEmpty && data.last != UInt8(ascii: "\n") { problems.append("\(name) does not end with a newline") }
        }
        for name in ["snapshot.txt", "polybar.txt", "tmux.txt", "waybar.json", "snapshot.json"] {
            guard let text = try? String(contentsOfFile: dir + "/" + name, encoding: .utf8) else { continue }
            if text.split(separator: "\n", omittingEmptySubsequences: false).count != 2 { problems.append("\(name) is not one line") }
        }
        if let text = try? String(contentsOfFile: dir + "/i3blocks.txt", encoding: .utf8),
           text.split(separator: "\n", omittingEmptySubsequences: false).count != 4 {
            problems.append("i3blocks.txt is not three lines")
        }
        return problems
    }

    /// Names in the shared directory that are not one of its files: temporary files of writers.
    static func strayFiles(_ dir: String) -> [String] {
        let known = Set(Exporter.fileNames + ["daemon.lock", ".lock", ".dosebar-shared"])
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { !known.contains($0) }.sorted()
    }

    /// Whether a process with this pid exists.
    static func alive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// `mount …` / `umount …` (we run as root in CI; nil error = done).
    static func mount(_ args: [String]) -> String? {
        guard let r = try? run("/bin/mount", args) else { return "cannot run mount" }
        return r.status == 0 ? nil : r.err.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func umount(_ path: String) {
        _ = try? run("/bin/umount", [path])
        // A lazy unmount if something still holds it.
        _ = try? run("/bin/umount", ["-l", path])
    }
}

/// Bytes handed from a reader thread to the waiting one (the group's wait orders the accesses).
final class DataBox: @unchecked Sendable {
    var data = Data()
}

struct DosebarFaultError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
