@testable import DoseCore
import DoseExport
import DoseTestSupport
import Foundation
import Testing

/// Every JSON file the exporter writes validates against `schema/*.schema.json`, checked
/// by Python's `jsonschema` (draft 2020-12) in a real subprocess.
@Suite struct SchemaValidationTests {
    static let schemaFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schema")

    static let validator = """
    import json, pathlib, sys
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    folder = pathlib.Path(sys.argv[1])
    schemas = {p.name: json.loads(p.read_text()) for p in folder.glob("*.schema.json")}
    for s in schemas.values():
        Draft202012Validator.check_schema(s)
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    failed = 0
    for arg in sys.argv[2:]:
        schema, path = arg.split("=", 1)
        validator = Draft202012Validator(schemas[schema], registry=registry)
        for error in validator.iter_errors(json.loads(pathlib.Path(path).read_text())):
            failed += 1
            print(f"{path}: /{'/'.join(map(str, error.absolute_path))}: {error.message}")
    sys.exit(1 if failed else 0)
    """

    /// Runs the validator on `(schema file name, path)` pairs; returns its exit status and output.
    static func validate(_ pairs: [(String, String)]) throws -> (status: Int32, output: String) {
        try run(["python3", "-c", validator, schemaFolder.path] + pairs.map { "\($0.0)=\($0.1)" })
    }

    @Test func everyWrittenJSONFileValidates() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        var pairs: [(String, String)] = []
        for (name, snapshot) in Fixtures.scenarios {
            let dir = SharedDirectory(path: temp.path + "/" + name)
            try Exporter().export(Fixtures.timeline([snapshot]), now: snapshot.at.date, to: dir)
            pairs += [("timeline.schema.json", dir.path(of: "timeline.json")),
                      ("snapshot.schema.json", dir.path(of: "snapshot.json")),
                      ("waybar.schema.json", dir.path(of: "waybar.json"))]
        }
        // A multi-entry timeline too (Fish oil, due at 13:00, late at 15:00).
        let all = SharedDirectory(path: temp.path + "/all")
        var entries = [Fixtures.newYork, Fixtures.newYork]
        entries[1].at = Fixtures.at("2026-03-09", "15:00", Fixtures.newYorkEDT)
        let fishOil = try #require(entries[1].doses.firstIndex { $0.medication == "Fish oil" })
        entries[1].doses[fishOil].status = .late
        entries[1].doses[fishOil].lateMinutes = 120
        let iron = try #require(entries[1].doses.firstIndex { $0.medication == "Iron" })
        entries[1].doses[iron].lateMinutes = 240
        try Exporter().export(Fixtures.timeline(entries), now: entries[1].at.date, to: all)
        pairs.append(("timeline.schema.json", all.path(of: "timeline.json")))
        // Just after midnight with last night's doses still open: carried doses, yesterday pending.
        let seed = try #require(TimelineJSONTests.carriedSeeds.first { TimelineJSONTests.carriedDay(seed: $0).entries[0].counts.carried > 0 })
        let night = TimelineJSONTests.carriedDay(seed: seed)
        let carried = SharedDirectory(path: temp.path + "/carried")
        try Exporter().export(night, now: night.entries[0].at.date, to: carried)
        #expect(try String(contentsOfFile: carried.path(of: "snapshot.json"), encoding: .utf8)
            .contains("{\"day\":\"2026-03-08\",\"state\":\"pending\"}"))
        pairs += [("timeline.schema.json", carried.path(of: "timeline.json")), ("snapshot.schema.json", carried.path(of: "snapshot.json"))]

        let result = try Self.validate(pairs)
        #expect(result.status == 0, "schema validation failed:\n\(result.output)")
    }

    /// A half tablet's stock is a decimal in the files, written exactly and valid.
    @Test func fractionalStockIsExactAndValid() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        var snapshot = Fixtures.newYork
        try #require(!snapshot.stock.isEmpty)
        snapshot.stock[0].remaining = Amount(hundredths: 875)
        let dir = SharedDirectory(path: temp.path + "/half")
        try Exporter().export(Fixtures.timeline([snapshot]), now: snapshot.at.date, to: dir)
        for file in ["snapshot.json", "timeline.json"] {
            let text = try String(contentsOfFile: dir.path(of: file), encoding: .utf8)
            #expect(text.contains("\"remaining\":8.75,"), "\(file): \(text)")
        }
        let result = try Self.validate([("timeline.schema.json", dir.path(of: "timeline.json")),
                                        ("snapshot.schema.json", dir.path(of: "snapshot.json"))])
        #expect(result.status == 0, "schema validation failed:\n\(result.output)")
    }

    /// The validator really runs: a file with a wrong field is rejected.
    @Test func aBrokenFileFailsValidation() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let good = SnapshotJSON.snapshot(Fixtures.newYork)
        let broken: [(String, String)] = [
            ("state", good.replacingOccurrences(of: "\"state\":\"late\"", with: "\"state\":\"tardy\"")),
            ("float", good.replacingOccurrences(of: "\"progress\":40", with: "\"progress\":40.5")),
            ("offset", good.replacingOccurrences(of: "\"at\":\"2026-03-09T13:30:00-04:00\"", with: "\"at\":\"2026-03-09T13:30:00\"")),
            ("extra", good.replacingOccurrences(of: "\"schema\":1,", with: "\"schema\":1,\"generated_at\":\"2026-03-09T13:30:00-04:00\",")),
            ("missing", good.replacingOccurrences(of: "\"taken_at\":null,", with: "")),
            ("no day", good.replacingOccurrences(of: "\"day\":\"2026-03-09\",\"scheduled\"", with: "\"scheduled\"")),
            ("no time_known", good.replacingOccurrences(of: "\"time_known\":true,", with: "")),
            ("no carried", good.replacingOccurrences(of: ",\"carried\":0", with: "")),
            ("pending past", good.replacingOccurrences(of: "{\"day\":\"2026-03-07\",\"state\":\"done\"}",
                                                       with: "{\"day\":\"2026-03-07\",\"state\":\"pending\"}")),
            ("negative stock", good.replacingOccurrences(of: "\"remaining\":", with: "\"remaining\":-")),
        ]
        for (name, text) in broken {
            #expect(text != good, "the \(name) mutation did not apply")
            let path = temp.path + "/\(name).json"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let result = try Self.validate([("snapshot.schema.json", path)])
            #expect(result.status == 1, "\(name): expected a validation failure, got \(result.status): \(result.output)")
        }
    }
}
