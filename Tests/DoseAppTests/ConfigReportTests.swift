@testable import DoseApp
import DoseCore
import Foundation
import Testing

/// `config` as a DoseApp call (``ConfigReport``): the settings a context runs with, where each came
/// from, as lines for a person and as JSON.
@Suite("config report")
struct ConfigReportTests {
    let root = NSTemporaryDirectory() + "dosebar-config-\(UUID().uuidString)"

    func context(config: String) throws -> AppContext {
        try FileManager.default.createDirectory(atPath: root + "/config/dosebar", withIntermediateDirectories: true)
        try config.write(toFile: root + "/config/dosebar/config.toml", atomically: true, encoding: .utf8)
        // A long database path: its line passes 80 columns.
        return try .test(root: root, env: ["DOSEBAR_DB": root + "/" + String(repeating: "d", count: 60) + ".sqlite"],
                         configErrors: .useDefaults)
    }

    func json(_ report: ConfigReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
    }

    @Test("values and sources from the config file, the environment and the defaults; nested keys; long lines wrapped")
    func sources() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context(config: "icons = \"nerd\"\nwindow = \"90m\"\n")
        let report = ConfigReport(context)
        let j = try json(report)
        func entry(_ a: String, _ b: String? = nil) -> [String: Any] {
            let top = j[a] as? [String: Any] ?? [:]
            return b.map { top[$0] as? [String: Any] ?? [:] } ?? top
        }
        #expect(entry("icons")["value"] as? String == "nerd" && entry("icons")["source"] as? String == "config")
        #expect(entry("window")["value"] as? Int == 90 && entry("window")["source"] as? String == "config")
        #expect(entry("database")["source"] as? String == "environment" && entry("database")["name"] as? String == "DOSEBAR_DB")
        #expect(entry("database")["exists"] as? Bool == false)
        #expect(entry("clock")["value"] as? String == "2026-11-22T08:05:00+09:00" && entry("clock")["name"] as? String == "DOSEBAR_NOW")
        #expect(entry("colors", "due")["source"] as? String == "default", "colors.due nests under colors")
        #expect(j["colors.due"] == nil)

        let c = Catalog.english
        let lines = report.lines(c)
        // A line that would pass 80 columns (the long database path) has its source on a line of its own.
        let database = try #require(lines.firstIndex { $0.hasPrefix(c.text("config.database")) })
        #expect(lines[database].hasSuffix(context.dbPath))
        #expect(lines[database + 1].trimmingCharacters(in: .whitespaces).hasPrefix("(" + c.text("config.from.env", ["name": "DOSEBAR_DB"])))
        #expect(lines.filter { !$0.contains(root) }.allSatisfy { $0.count <= 80 })
        #expect(lines.contains { $0.hasPrefix("icons") && $0.hasSuffix("nerd  (" + c.text("config.from.file") + ")") })
    }

    @Test("a config file with an error: shown with the error, the defaults in force")
    func brokenFile() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context(config: "icons = \"sparkles\"\n")
        let report = ConfigReport(context)
        let file = try #require(try json(report)["config_file"] as? [String: Any])
        let problem = try #require(file["problem"] as? String)
        #expect(file["exists"] as? Bool == true && problem == context.configProblem)
        #expect((try json(report)["icons"] as? [String: Any])?["value"] as? String == "emoji")
        #expect(report.lines(Catalog.english).contains { $0.contains(Catalog.english.text("config.problem", ["problem": problem])) })
    }
}
