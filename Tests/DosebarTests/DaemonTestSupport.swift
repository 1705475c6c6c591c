import Foundation
import Glibc
import Testing

/// A long-running `dosebar` process of a test (`daemon`, `watch`): stderr goes to a file, stdout
/// optionally to a pipe the test reads with a timeout.
final class LiveProcess {
    let process: Process
    let errPath: String
    /// The read end of stdout when captured.
    private(set) var stdoutFD: Int32 = -1
    private var buffered: [UInt8] = []

    init(_ arguments: [String], env: [String: String], root: String, captureStdout: Bool = false) throws {
        errPath = root + "/stderr-\(arguments[0])-\(UUID().uuidString.prefix(8)).txt"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        process = Harness.process(arguments, env: env)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        if captureStdout {
            let pipe = Pipe()
            process.standardOutput = pipe
            stdoutFD = pipe.fileHandleForReading.fileDescriptor
            try process.run()
            // The child has its copy; keep only the read end here.
            try? pipe.fileHandleForWriting.close()
            // Keep the Pipe alive as long as we read its descriptor.
            retained = pipe
        } else {
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
    }
    private var retained: Pipe?

    var pid: pid_t { process.processIdentifier }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Waits for the exit; returns the status, or nil after `timeout` seconds.
    func waitExit(timeout: Double = 5) -> Int32? {
        guard DaemonTest.waitUntil(timeout, { !self.process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The next stdout line, or nil after `timeout` seconds.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = DaemonTest.clock() + timeout
        while true {
            if let nl = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<nl], as: UTF8.self)
                buffered.removeSubrange(...nl)
                return line
            }
            let left = deadline - DaemonTest.clock()
            if left <= 0 { return nil }
            var p = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left * 1000) + 1) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(stdoutFD, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffered += chunk[0..<n]
        }
    }

    /// Closes our end of the captured stdout (the reader goes away).
    func closeStdout() {
        retained.map { try? $0.fileHandleForReading.close() }
        retained = nil
        stdoutFD = -1
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
    }
}

enum DaemonTest {
    /// Monotonic seconds.
    static func clock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Polls `condition` every 2 ms for up to `timeout` seconds.
    static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = clock() + timeout
        while clock() < deadline {
            if condition() { return true }
            usleep(2000)
        }
        return condition()
    }

    /// A harness on the real clock (the daemon's timer needs one), with `Ibuprofen` as needed
    /// (every take changes snapshot.json and every bar's file: the tooltip counts it) and
    /// `Aspirin` daily at 08:00 (upcoming, due, late or taken depending on the hour: no test
    /// relies on which).
    static func harness() throws -> Harness {
        let h = Harness.realClock()
        try h.ok("add", "Ibuprofen", "--as-needed")
        try h.ok("add", "Aspirin", "--at", "08:00")
        return h
    }

    /// Starts `dosebar daemon` and waits until it wrote the shared directory and holds the lock.
    static func startDaemon(_ h: Harness, extraEnv: [String: String] = [:], arguments: [String] = []) throws -> LiveProcess {
        let d = try LiveProcess(["daemon"] + arguments, env: h.env.merging(extraEnv) { $1 }, root: h.root)
        let ready = waitUntil(10) {
            let pid = (try? String(contentsOfFile: h.dir + "/daemon.lock", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return pid == "\(d.pid)" && FileManager.default.fileExists(atPath: h.dir + "/snapshot.json")
        }
        #expect(ready, "the daemon did not start: \(d.stderr)")
        return d
    }

    /// `key=N` from the daemon's last counters line on stderr (SIGUSR1 or exit).
    static func counter(_ key: String, in stderr: String) -> Int? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.contains("wakeups=") }) else { return nil }
        for field in line.split(separator: " ") where field.hasPrefix(key + "=") {
            return Int(field.dropFirst(key.count + 1))
        }
        return nil
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? .nan : s[s.count / 2]
    }
}
