import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// A medicine's tracking start travels with sync (DESIGN §3 Tracking start, §10): the `add` carries
/// it, an import that moves it earlier says so on its doses, a line of an older dosebar without it
/// falls back on its stamp, and a malformed value skips its line only. Two devices on real files.
@Suite("Sync: the tracking start arrives equal on every device")
struct SyncTrackingTests {
    let sim = SyncSimulationTests()
    typealias Device = SyncSimulationTests.Device

    func pair() throws -> (Device, Device) {
        let d = try sim.devices(2)
        _ = try d[0].sync.initialise(dir: d[0].folder)
        _ = try d[1].sync.initialise(dir: d[1].folder)
        return (d[0], d[1])
    }

    func tracked(_ d: Device) throws -> [String: Date?] {
        try d.store.read { r in
            Dictionary(uniqueKeysWithValues: try r.medications(includeArchived: true).map { ($0.name, $0.trackedFrom) })
        }
    }

    /// Writes `text` as a CSV report and imports it on `d`.
    func importCSV(_ d: Device, _ rows: [String]) throws {
        let file = d.root + "/import.csv"
        try ("date,scheduled,medication,dose,status,taken_at,late_minutes\r\n" + rows.joined(separator: "\r\n") + "\r\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let context = try d.context()
        _ = try ImportService(context: context, store: d.store).apply(try ReportCSVReader(context: context).plan(path: file), dryRun: false)
    }

    func date(_ text: String) -> Date { ISO8601.parse(text)! }

    @Test("add: tracked from the command's now on A, the same instant on B; a medicine tracked from its first day travels as null")
    func add() throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let d = try sim.devices(2)
        let (a, b) = (d[0], d[1])
        a.now = "2026-11-20T13:45:30+09:00"
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Yaz", ["22:00"], stock: nil))
        // As an older database migrated without a known start: NULL.
        _ = try a.store.write { try $0.insertMedication(sim.daily("Zinc", ["08:00"], stock: nil)) }
        // `sync init` later: its adds carry what the medicines have.
        a.now = "2026-11-21T10:00:00+09:00"
        _ = try a.sync.initialise(dir: a.folder)
        _ = try b.sync.initialise(dir: b.folder)
        let lines = try String(contentsOfFile: try a.ownFile, encoding: .utf8)
        #expect(lines.contains("\"tracked_from\":\(Int(date("2026-11-20T13:45:30+09:00").timeIntervalSince1970))"), "\(lines)")
        #expect(lines.contains("\"tracked_from\":null"), "\(lines)")
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        let onA = try tracked(a), onB = try tracked(b)
        #expect(onA["Yaz"] == .some(date("2026-11-20T13:45:30+09:00")))
        #expect(onA["Zinc"] == .some(nil))
        #expect(onB["Yaz"] == onA["Yaz"] && onB["Zinc"] == .some(nil), "\(onB)")
    }

    @Test("import into an existing medicine moves its start to the earliest imported dose, on both devices; a new medicine from the import too")
    func importMoves() throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try pair()
        a.now = "2026-11-20T07:00:00+09:00"
        try MedicationService(context: try a.context(), store: a.store).add(sim.daily("Aspirin", ["08:00"], stock: nil))
        try a.sync.flush()
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        #expect(try tracked(b)["Aspirin"] == .some(date("2026-11-20T07:00:00+09:00")))
        a.now = "2026-11-22T12:00:00+09:00"
        try importCSV(a, [
            "2026-11-18,2026-11-18T08:00:00+09:00,Aspirin,,taken,2026-11-18T08:10:00+09:00,",
            "2026-11-17,2026-11-17T08:00:00+09:00,Aspirin,,skipped,2026-11-17T09:00:00+09:00,",
            "2026-11-19,2026-11-19T08:00:00+09:00,Aspirin,,taken,2026-11-19T08:00:00+09:00,",
            "2026-11-16,,Ibuprofen,,as_needed,2026-11-16T15:00:00+09:00,",
        ])
        try a.sync.flush()
        let onA = try tracked(a)
        // A skip is recorded at its slot's instant (what `report --format csv` leaves empty).
        #expect(onA["Aspirin"] == .some(date("2026-11-17T08:00:00+09:00")), "the earliest imported dose: \(onA)")
        #expect(onA["Ibuprofen"] == .some(date("2026-11-16T15:00:00+09:00")), "a new medicine: min(now, its earliest dose)")
        try sim.deliver(a, to: b)
        _ = try b.sync.now()
        let onB = try tracked(b)
        #expect(onB["Aspirin"] == onA["Aspirin"] && onB["Ibuprofen"] == onA["Ibuprofen"], "\(onB)")
        // A second import of the same data adds nothing and moves nothing; a later dose never moves it later.
        try importCSV(a, ["2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,,taken,2026-11-21T08:00:00+09:00,"])
        #expect(try tracked(a)["Aspirin"] == onA["Aspirin"])
    }

    @Test("an add of an older dosebar (no tracked_from) is tracked from its stamp; a malformed value skips that line only")
    func olderAndMalformed() throws {
        defer { try? FileManager.default.removeItem(atPath: sim.root) }
        let (a, b) = try pair()
        a.now = "2026-11-20T07:00:00+09:00"
        let service = MedicationService(context: try a.context(), store: a.store)
        try service.add(sim.daily("Old", ["08:00"], stock: nil))
        try service.add(sim.daily("Bad", ["08:00"], stock: nil))
        try service.add(sim.daily("Good", ["08:00"], stock: nil))
        a.now = "2026-11-20T09:00:00+09:00"
        _ = try DoseRecorder(context: try a.context(), store: a.store).record(.taken, names: ["Good"], at: nil, next: false)
        try a.sync.flush()
        let file = try a.ownFile
        let value = "\"tracked_from\":\(Int(date("2026-11-20T07:00:00+09:00").timeIntervalSince1970))"
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        var stamp: String?
        for (i, line) in lines.enumerated() where line.contains("\"kind\":\"add\"") {
            #expect(line.contains(value), "\(line)")
            if line.contains("\"name\":\"Old\"") {
                lines[i] = line.replacingOccurrences(of: "," + value, with: "")
                stamp = SyncOperation.parse(Substring(lines[i]))?.stamp
            } else if line.contains("\"name\":\"Bad\"") {
                lines[i] = line.replacingOccurrences(of: value, with: "\"tracked_from\":\"yesterday\"")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: b.folder + "/dosebar/" + (file as NSString).lastPathComponent,
                                                        atomically: true, encoding: .utf8)
        b.now = "2026-11-20T10:00:00+09:00"
        _ = try b.sync.now()
        let onB = try tracked(b)
        let millis = try #require(stamp.flatMap { SyncOperation.stampMillis($0, device: try a.sync.setup()!.device) })
        #expect(onB["Old"] == .some(Date(timeIntervalSince1970: Double(millis) / 1000)), "\(onB)")
        #expect(onB["Good"] == .some(date("2026-11-20T07:00:00+09:00")))
        #expect(onB["Bad"] == nil, "its add was skipped")
        let skipped = try b.sync.status().skipped
        #expect(skipped.count == 1 && skipped.first?.reason.contains("tracked_from") == true, "\(skipped)")
        // The rest applied: Good's take is there.
        #expect(try sim.history(b).contains("Good taken 2026-11-20 08:00"))
    }

    @Test("the gate: tracked_from an instant no later than an hour after the stamp, not before 1970, not null on a dose")
    func gate() {
        var add = SyncOperation(kind: .add, medicine: "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d")
        add.id = "6f1c0b6e-2f0a-4c1e-9a7b-0c2d3e4f5a6b"; add.device = SyncLineGateTests.device
        add.stamp = "1795302300000-00001-" + SyncLineGateTests.device; add.name = "Yaz"; add.lowDays = 7
        #expect(add.refusal() == nil)
        add.trackedFrom = .firstScheduleDay
        #expect(add.refusal() == nil)
        for ok in [0, 1_795_302_300 + 3_600] as [Double] {
            add.trackedFrom = .instant(ok)
            #expect(add.refusal() == nil, "\(ok)")
        }
        for bad in [-1, 1_795_302_300 + 3_601, .infinity, 1e300] as [Double] {
            add.trackedFrom = .instant(bad)
            #expect(add.refusal()?.hasPrefix("tracked_from") == true, "\(bad): \(add.refusal() ?? "passed")")
        }
        var take = SyncLineGateTests.take()
        take.trackedFrom = .instant(1_795_302_000)
        #expect(take.refusal() == nil)
        take.trackedFrom = .firstScheduleDay
        #expect(take.refusal()?.contains("tracked_from") == true)
        take.trackedFrom = .instant(-5)
        #expect(take.refusal()?.hasPrefix("tracked_from") == true)
        for text in ["\"x\"", "true", "[1]", "{}"] {
            let line = try! take.line().replacingOccurrences(of: "\"tracked_from\":-5", with: "\"tracked_from\":" + text)
            let parsed = SyncOperation.parse(Substring(line))
            #expect(parsed?.refusal()?.contains("tracked_from") == true, "\(line)")
        }
    }
}
