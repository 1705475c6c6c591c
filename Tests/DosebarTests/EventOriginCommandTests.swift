import Foundation
import Testing

/// DESIGN §2, "every event records where it came from", through the real binary: a take without a
/// terminal is a `click`, one in a pty a `terminal`, an imported one `import`; the report's JSON
/// slot rows say so (null for a dose not taken). A click that took nothing leaves its refusal for
/// the daemon in `<database>-click` (0600), never from a terminal nor with `[notify] clicks = false`.
/// (Fails on the code before: no `origin` in the report, no click record.)
@Suite("Event origins and the refused click's record (commands)")
struct EventOriginCommandTests {
    /// `dosebar args…` in a pseudo-terminal (util-linux `script`), as a person types it.
    static func inTerminal(_ h: Harness, _ args: [String], now: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([Harness.binary] + args).map { "'" + $0 + "'" }.joined(separator: " ")
        p.arguments = ["-qec", command, "/dev/null"]
        var env = h.env
        env["DOSEBAR_NOW"] = now
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    @Test("the report's JSON slots say click, terminal, import, or null", .enabled(if: hasScript || Harness.underCI))
    func reportOrigins() throws {
        let h = Harness(now: "2026-11-20T07:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00")
        try h.ok("add", "Iron", "--at", "08:00")
        try h.ok("add", "Zinc", "--at", "12:00")
        let csv = h.root + "/in.csv"
        try ("date,scheduled,medication,dose,status,taken_at,late_minutes,time_known,over_limit\r\n"
            + "2026-11-21,2026-11-21T12:00:00+09:00,Zinc,,taken,2026-11-21T12:00:00+09:00,,true,false\r\n")
            .write(toFile: csv, atomically: true, encoding: .utf8)
        try h.ok("import", "csv", csv, now: "2026-11-22T07:00:00+09:00")
        try h.ok("take", "Aspirin", now: "2026-11-22T08:01:00+09:00")
        #expect(try Self.inTerminal(h, ["take", "Iron"], now: "2026-11-22T08:02:00+09:00") == 0)
        let report = try h.ok("report", "--format", "json", "--from", "2026-11-21", "--to", "2026-11-22", now: "2026-11-22T13:00:00+09:00")
        let slots = try #require((report.json as? [String: Any])?["slots"] as? [[String: Any]], "\(report.out)")
        func origin(_ date: String, _ name: String) -> String {
            guard let row = slots.first(where: { $0["date"] as? String == date && $0["medication"] as? String == name }) else { return "absent" }
            return row["origin"] is NSNull ? "null" : row["origin"] as? String ?? "missing key"
        }
        #expect(origin("2026-11-22", "Aspirin") == "click", "\(slots)")
        #expect(origin("2026-11-22", "Iron") == "terminal", "\(slots)")
        #expect(origin("2026-11-21", "Zinc") == "import", "\(slots)")
        #expect(origin("2026-11-21", "Aspirin") == "null", "missed: \(slots)")
        // CSV keeps its columns.
        let csvOut = try h.ok("report", "--format", "csv", "--from", "2026-11-22", "--to", "2026-11-22", now: "2026-11-22T13:00:00+09:00").out
        #expect(!csvOut.contains("origin") && !csvOut.contains("click"))
    }

    @Test("a click that took nothing leaves its refusal (0600) for the daemon; a terminal or clicks = false leaves nothing",
          .enabled(if: hasScript || Harness.underCI))
    func refusalRecord() throws {
        let h = Harness(now: "2026-11-22T06:00:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", "--window", "30m")
        let record = h.db + "-click"
        // From a terminal: refused, nothing left.
        #expect(try Self.inTerminal(h, ["take"], now: "2026-11-22T07:00:00+09:00") == 65)
        #expect(!FileManager.default.fileExists(atPath: record))
        // A click: refused, its refusal left.
        let r = try h.run("take", now: "2026-11-22T07:00:00+09:00")
        #expect(r.status == 65)
        let data = try #require(FileManager.default.contents(atPath: record), "no record left")
        let parsed = try JSONSerialization.jsonObject(with: data)
        let object = try #require(parsed as? [String: Any])
        #expect(object["text"] as? String == r.err.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "dosebar: ", with: ""),
                "\(object) vs \(r.err)")
        let mode = (try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int) ?? 0
        #expect(mode & 0o077 == 0, "private")
        // A named take that fails is a typo, not a click on a bar: nothing left.
        try FileManager.default.removeItem(atPath: record)
        #expect(try h.run("take", "Nope", now: "2026-11-22T07:00:00+09:00").status == 65)
        #expect(!FileManager.default.fileExists(atPath: record))
        // [notify] clicks = false: nothing left.
        try FileManager.default.createDirectory(atPath: h.root + "/config/dosebar", withIntermediateDirectories: true)
        try "[notify]\nclicks = false\n".write(toFile: h.root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        #expect(try h.run("take", now: "2026-11-22T07:00:00+09:00").status == 65)
        #expect(!FileManager.default.fileExists(atPath: record))
        // `dosebar config` shows the setting and where it came from.
        let config = try h.ok("config").out
        #expect(config.contains("notify.clicks") && config.contains("false"), "\(config)")
    }
}
