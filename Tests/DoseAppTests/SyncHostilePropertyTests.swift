import DoseApp
import DoseCore
import DoseStore
import DoseTestSupport
import Foundation
import Testing

/// Random and adversarial lines (fields out of range, wrong JSON types, huge, negative, future,
/// malformed stamps and ids, reused ids, junk) mixed into two devices' real files and fed to
/// devices in different file orders: no device crashes, none half-applies (every medicine has a
/// schedule), and each ends with the same history as one that was fed the valid lines alone
/// (DESIGN §10, issue 20).
@Suite("Sync: hostile lines mixed with valid ones")
struct SyncHostilePropertyTests {
    typealias Device = SyncSimulationTests.Device
    let simulation = SyncSimulationTests()
    let root = NSTemporaryDirectory() + "dosebar-hostile-\(UUID().uuidString)"

    /// Copies `data` into `to`'s sync folder as `name`, as Syncthing would.
    func deliver(_ data: Data, as name: String, to: Device) throws {
        let target = SyncFolder(shared: to.folder).path + "/" + name
        try data.write(to: URL(fileURLWithPath: target + ".tmp"))
        _ = rename(target + ".tmp", target)
    }

    static func json(_ line: Substring) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    static func text(_ op: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: op, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    /// One adversarial line made from the valid lines of a device's file (each certainly fails the
    /// gate, or is held: stamped far ahead), or nil when the file has no line it needs.
    static func hostile(_ lines: [[String: Any]], device: String, rng: inout SplitMix64) -> String? {
        func of(_ kinds: [String]) -> [String: Any]? {
            let found = lines.filter { kinds.contains($0["kind"] as? String ?? "") }
            guard !found.isEmpty else { return nil }
            var op = rng.pick(found)
            op["id"] = UUID().uuidString.lowercased()
            return op
        }
        let stampOf = { (op: [String: Any]) in op["stamp"] as? String ?? "" }
        switch rng.int(0...22) {
        case 0: return rng.pick(["garbage", "{", "[]", "null", "{\"id\":1}", String(repeating: "x", count: 100_000)])
        case 1: guard var op = of(["take", "edit", "refill"]) else { return nil }
            op["stamp"] = rng.pick(["~", "5-00000-" + device, "9223372036854775807-00000-" + device, stampOf(op) + "0",
                                    String(stampOf(op).prefix(13)) + "-000001-" + device, stampOf(op).uppercased() + "X"])
            return text(op)
        case 2: guard var op = of(["take", "refill"]) else { return nil }
            op["id"] = rng.pick(["1", "", UUID().uuidString, "../../etc/passwd", "\u{1B}[31m"]); return text(op)
        case 3: guard var op = of(["take", "refill"]) else { return nil }
            op["kind"] = rng.pick(["nuke", "TAKE", "", "purge-all"]); return text(op)
        case 4: guard var op = of(["add", "edit"]) else { return nil }
            op["per_dose"] = rng.pick([0, -1, Int.max, Int.min, 0.125, -0.5, 1e300, 0.001] as [Any]); op["changed"] = ["per_dose"]; return text(op)
        case 5: guard var op = of(["stock"]) else { return nil }
            op["stock"] = rng.pick([-5, Int.max, Int.min, 1_000_001, 9.755, -0.25, 1_000_000.01] as [Any]); return text(op)
        case 6: guard var op = of(["take"]) else { return nil }
            op["units"] = rng.pick([Int.min, -1, 1_000_001, Int.max, 0.125, -0.5, 0.001] as [Any]); return text(op)
        case 7: guard var op = of(["refill"]) else { return nil }
            op["units"] = rng.pick([0, -3, Int.max, 0.005, -0.25] as [Any]); return text(op)
        case 8: guard var op = of(["take", "skip"]) else { return nil }
            let stamp = Double(stampOf(op).prefix(13)).map { $0 / 1000 } ?? 0
            op["at"] = rng.pick([-1e300, 1e300, -1, stamp + 2 * 86_400]); return text(op)
        case 9: guard var op = of(["take", "skip"]) else { return nil }
            op["day"] = rng.pick(["2300-01-01", "2026-13-01", "26-11-22", "2026-11-22T08:00", "+2026-11-22"]); return text(op)
        case 10: guard var op = of(["take", "skip"]) else { return nil }
            op["slot"] = rng.pick(["25:00", "8:00", "08:60", "-1:00", "０８:００"]); return text(op)
        case 11: guard var op = of(["add", "edit"]) else { return nil }
            op["name"] = rng.pick(["Asp\u{1B}[2Jirin", "Asp\u{0}irin", "Asp\u{7}", "Asp\u{202E}nirip", String(repeating: "N", count: 10_000), " "])
            op["changed"] = ["name"]; return text(op)
        case 12: guard var op = of(["add", "edit"]) else { return nil }
            op["note"] = String(repeating: "n", count: rng.pick([2_001, 5_000_000])); op["changed"] = ["note"]; return text(op)
        case 13: guard var op = of(["schedule"]), var s = op["schedule"] as? [String: Any] else { return nil }
            switch rng.int(0...5) {
            case 0: s["kind"] = "every_days"; s["a"] = 0
            case 1: s["kind"] = "cycle"; s["a"] = 0; s["b"] = 0
            case 2: s["times"] = ["25:00"]
            case 3: s["kind"] = "fortnightly"
            case 4: s["window"] = -1
            default: s["kind"] = "every_weeks"; s["a"] = Int.max
            }
            op["schedule"] = s; return text(op)
        case 14: guard var op = of(["take", "refill"]) else { return nil }
            // Only fields the kind reads: a refill's `day` is no field of a refill.
            let fields = op["kind"] as? String == "take" ? ["units", "at", "medicine", "day"] : ["units", "medicine"]
            op[rng.pick(fields)] = rng.pick(["5", "yesterday", true, [1], ["n": 1]] as [Any]); return text(op)
        case 15: guard var op = of(["take", "skip", "undo", "schedule"]) else { return nil }
            op[rng.pick(["medicine", "day", "at", "target", "schedule"])] = nil
            if op["kind"] as? String == "undo" { op["target"] = nil }
            if op["kind"] as? String == "schedule" { op["schedule"] = nil }
            if ["take", "skip"].contains(op["kind"] as? String) { op["day"] = nil }
            return text(op)
        case 16: guard var op = of(["take", "refill", "edit", "schedule"]) else { return nil }
            // Well-formed, 100 years ahead: held, never applied in this test.
            op["stamp"] = String(format: "%013lld", Int64(4_950_000_000_000) + Int64(rng.int(0...999))) + "-00000-" + device
            return text(op)
        case 17: guard var op = of(["take", "refill"]) else { return nil }
            op["medicine"] = rng.pick(["aspirin", "", "../x"]); return text(op)
        case 18: guard var op = of(["undo"]) ?? of(["take"]) else { return nil }
            op["kind"] = "undo"; op["target"] = "not-an-id"; return text(op)
        case 19: guard var op = of(["edit"]) else { return nil }
            op["changed"] = ["name", "colour"]; return text(op)
        case 20: guard var op = of(["archive"]) ?? of(["edit"]) else { return nil }
            op["kind"] = "archive"; op["archived_on"] = "1969-12-31"; return text(op)
        case 22: guard var add = of(["add"]), var schedule = of(["schedule"]) else { return nil }
            // A new medicine whose only schedule is held: its add waits, never a medicine without a schedule.
            let gid = UUID().uuidString.lowercased()
            add["medicine"] = gid; add["name"] = "Held \(rng.int(0...99_999))"; add["distinct_from"] = nil
            schedule["medicine"] = gid
            schedule["stamp"] = String(format: "%013lld", Int64(4_950_000_000_000)) + "-00000-" + device
            return text(add) + "\n" + text(schedule)
        default: guard var op = of(["add"]) else { return nil }
            op["distinct_from"] = ["x"]; return text(op)
        }
    }

    /// A reused id: a line of the file again, later in it, with other content.
    static func reused(_ lines: [[String: Any]], rng: inout SplitMix64) -> (after: String, line: String)? {
        guard !lines.isEmpty else { return nil }
        var op = rng.pick(lines)
        let original = op["id"] as? String ?? ""
        switch op["kind"] as? String {
        case "take", "skip": op["at"] = ((op["at"] as? Double) ?? 0) - 120
        case "refill": op["units"] = ((op["units"] as? Int) ?? 1) + 7
        case "add", "edit": op["name"] = "Reused \(rng.int(0...9999))"
        default: op["zzz"] = 1 // other content, the same fields
        }
        return (original, text(op))
    }

    @Test("no crash, no half-applied medicine, and the same history as the valid lines alone, in any file order",
          arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func hostileMix(seed: UInt64) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        var rng = SplitMix64(seed: seed) // a failing seed can be replayed
        // Two sources make real changes (and see each other's); three receivers: X and Y get the
        // files with hostile lines in opposite orders, Z the valid files alone.
        let sources = try (0..<2).map { try Device(root: root + "/s\($0)", index: $0) }
        let receivers = try (0..<3).map { try Device(root: root + "/r\($0)", index: 10 + $0) }
        let c0 = try sources[0].context()
        try MedicationService(context: c0, store: sources[0].store).add(simulation.daily("Aspirin", ["08:00", "20:00"], stock: 30))
        try MedicationService(context: c0, store: sources[0].store).add(simulation.daily("Magnesium", ["21:00"], stock: nil))
        try MedicationService(context: try sources[1].context(), store: sources[1].store)
            .add(simulation.daily("Vitamin D", ["09:00"], stock: 10))
        for d in sources + receivers { _ = try d.sync.initialise(dir: d.folder) }
        for step in 0..<30 {
            let d = sources[rng.int(0...1)]
            try simulation.randomChange(d, &rng, step: step)
            if rng.chance(0.3) {
                try simulation.deliver(sources[0], to: sources[1]); try simulation.deliver(sources[1], to: sources[0])
                for s in sources { _ = try s.sync.now() }
            }
        }
        // Each source's file, clean and with hostile lines.
        var clean: [(name: String, data: Data)] = [], dirty: [(name: String, data: Data)] = []
        for s in sources {
            let path = try s.ownFile
            let name = (path as NSString).lastPathComponent
            let device = String(name.dropLast(".jsonl".count))
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            clean.append((name, data))
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            let ops = lines.compactMap { Self.json(Substring($0)) }
            var out: [String] = []
            for line in lines {
                out.append(line)
                if rng.chance(0.5), let bad = Self.hostile(ops, device: device, rng: &rng) { out.append(bad) }
            }
            for _ in 0..<3 {
                guard let (after, line) = Self.reused(ops, rng: &rng),
                      let at = out.firstIndex(where: { $0.contains("\"id\":\"\(after)\"") }) else { continue }
                out.insert(line, at: rng.int((at + 1)...out.count))
            }
            dirty.append((name, Data((out.joined(separator: "\n") + "\n").utf8)))
        }
        var warnings: [String] = []
        func apply(_ r: Device, _ files: [(name: String, data: Data)], torn: Bool) throws {
            for f in files {
                if torn { try deliver(f.data.prefix(f.data.count / 2), as: f.name, to: r); _ = try service(r).now() }
                try deliver(f.data, as: f.name, to: r)
                _ = try service(r).now()
            }
            _ = try service(r).now() // a second run changes nothing
        }
        func service(_ r: Device) throws -> SyncService {
            SyncService(context: try r.context(), store: r.store, warn: { warnings.append($0) })
        }
        try apply(receivers[0], dirty, torn: false)
        let firstWarnings = warnings.count
        try apply(receivers[1], dirty.reversed(), torn: true)
        try apply(receivers[2], clean.reversed(), torn: false)
        #expect(firstWarnings > 0, "the hostile lines were warned about")

        let expected = try simulation.history(receivers[2])
        for r in receivers {
            // Never half-applied: every medicine arrived with its schedule.
            let medicines = try r.store.read { try $0.medications(includeArchived: true) }
            #expect(medicines.allSatisfy { !$0.versions.isEmpty }, "\(medicines.map(\.name))")
            #expect(medicines.allSatisfy { FieldRules.storedProblem($0) == nil })
        }
        let hx = try simulation.history(receivers[0])
        #expect(hx == expected, "X (hostile lines, one order) differs from the valid lines alone: \(Set(hx.split(separator: "\n")).symmetricDifference(expected.split(separator: "\n")))")
        #expect(try simulation.history(receivers[1]) == expected, "Y (hostile lines, the other order, torn) differs from the valid lines alone")
        #expect(try simulation.history(sources[0]).isEmpty == false)
        // Every skipped line is listed by `sync status`, named by file and line.
        let status = try service(receivers[0]).status()
        #expect(!status.skipped.isEmpty && status.skipped.allSatisfy { $0.line > 0 && $0.file.hasSuffix(".jsonl") })
        // No valid line is refused: the device fed the valid lines alone skipped none.
        let cleanStatus = try service(receivers[2]).status()
        #expect(cleanStatus.skipped.isEmpty, "\(cleanStatus.skipped)")
    }
}
