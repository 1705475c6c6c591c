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

    var db: String { root + "/data/dosebar.sqlite" }
    var dir: String { root + "/shared" }

    init(tz: String = "Asia/Seoul", now: String = "2026-11-22T07:00:00+09:00") {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-e2e-" + UUID().uuidString).path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        env = ["PATH": "/usr/bin:/bin", "HOME": root, "DOSEBAR_DB": root + "/data/dosebar.sqlite",
               "DOSEBAR_DIR": root + "/shared", "TZ": tz, "DOSEBAR_NOW": now, "LANG": "C.UTF-8",
               "XDG_CONFIG_HOME": root + "/config"]
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
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Harness.binary)
        p.arguments = args
        var e = env
        if let now { e["DOSEBAR_NOW"] = now }
        e.merge(extraEnv) { $1 }
        p.environment = e
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
