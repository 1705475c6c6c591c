import Foundation
import Testing

/// Another device's file written by hand, as a hostile tester would (issue 20, DESIGN §10): a line
/// that fails the gate, has a malformed stamp or id, an unknown kind, or reuses an id, is skipped
/// with one warning naming file and line, never stops the lines after it, is never half-applied,
/// and `sync status` lists it; afterwards every command still works.
@Suite("sync: hostile lines in another device's file")
struct SyncHostileTests {
    static let now = "2026-11-22T08:30:00+09:00"
    /// 2026-11-22T08:05:00+09:00: when the valid take after the hostile lines was taken.
    static let takenAt = 1_795_302_300

    /// Device A (Aspirin daily 08:00, stock 30; Ibuprofen as needed) whose file B reads, with
    /// hand-written lines appended to B's copy of it.
    struct Pair {
        let a = Harness(), b = Harness()
        var dirA: String { a.root + "/Sync" }
        var dirB: String { b.root + "/Sync" }
        var deviceA = "", aspirin = "", ibuprofen = "", base = ""
        /// B's copy of A's file.
        var target: String { dirB + "/dosebar/" + deviceA + ".jsonl" }

        init() throws {
            try a.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", "--from", "2026-11-01")
            try a.ok("add", "Ibuprofen", "--as-needed", "--from", "2026-11-01")
            try a.ok("sync", "init", dirA)
            try b.ok("sync", "init", dirB)
            deviceA = String(try a.ok("sync", "status").out.split(separator: "\n")[0]
                .components(separatedBy: "This device is ")[1].prefix(16))
            base = try String(contentsOfFile: dirA + "/dosebar/" + deviceA + ".jsonl", encoding: .utf8)
            for line in base.split(separator: "\n") {
                let op = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if op["kind"] as? String == "add" && op["name"] as? String == "Aspirin" { aspirin = op["medicine"] as! String }
                if op["kind"] as? String == "add" && op["name"] as? String == "Ibuprofen" { ibuprofen = op["medicine"] as! String }
            }
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root)
        }

        /// A well-formed stamp of A at `second` (Unix), counter `n`.
        func stamp(_ second: Int, _ n: Int = 0) -> String {
            String(format: "%013lld-%05d-", Int64(second) * 1000, n) + deviceA
        }

        /// A take of Aspirin's 08:00 dose today at 08:05, stamped after every line before it.
        func validTake(counter: Int = 90) -> [String: Any] {
            ["at": SyncHostileTests.takenAt, "day": "2026-11-22", "device": deviceA, "id": UUID().uuidString.lowercased(),
             "kind": "take", "medicine": aspirin, "slot": "08:00", "stamp": stamp(SyncHostileTests.takenAt, counter), "units": 1]
        }

        /// Writes A's file with `extra` lines after its own into B's folder; returns the number of the first.
        @discardableResult
        func write(_ extra: [Any]) throws -> Int {
            let lines = try extra.map { item -> String in
                if let text = item as? String { return text }
                return String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys, .withoutEscapingSlashes]),
                              as: UTF8.self)
            }
            try (base + lines.map { $0 + "\n" }.joined()).write(toFile: target, atomically: true, encoding: .utf8)
            return base.split(separator: "\n").count + 1
        }

        /// Every command a person runs still works on B.
        func everythingWorks(sourceLocation: SourceLocation = #_sourceLocation) throws {
            for args in [["today"], ["today", "--json"], ["history"], ["status"], ["list"], ["export"], ["sync", "status"],
                         ["take", "Ibuprofen"], ["stats"]] {
                let r = try b.run(args, now: SyncHostileTests.now)
                #expect(r.status == 0, "dosebar \(args.joined(separator: " ")): exit \(r.status): \(r.err)", sourceLocation: sourceLocation)
            }
        }
    }

    /// One hostile line (or a few), what its warning says, and what B shows after.
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        /// The lines, given A's pair (a dictionary is encoded, a string written as it is).
        var lines: @Sendable (Pair) -> [Any]
        /// A part of the warning's reason.
        var reason: String
        /// Aspirin's stock after (A set 30; the valid take uses 1).
        var stock = 29
        var testDescription: String { label }
    }

    static func op(_ p: Pair, _ kind: String, _ n: Int, _ fields: [String: Any]) -> [String: Any] {
        var op: [String: Any] = ["device": p.deviceA, "id": UUID().uuidString.lowercased(), "kind": kind, "medicine": p.aspirin,
                                 "stamp": p.stamp(takenAt - 60, n)]
        op.merge(fields) { $1 }
        return op
    }

    static func schedule(_ p: Pair, _ n: Int, _ s: [String: Any]) -> [String: Any] {
        var sched: [String: Any] = ["kind": "daily", "times": ["08:00"], "window": 7200, "start": "2026-11-01"]
        sched.merge(s) { $1 }
        return op(p, "schedule", n, ["effective": "2026-11-20", "schedule": sched])
    }

    static let cases: [Case] = [
        Case(label: "every_days a:0", lines: { [schedule($0, 1, ["kind": "every_days", "a": 0])] }, reason: "schedule"),
        Case(label: "cycle 0/0", lines: { [schedule($0, 1, ["kind": "cycle", "a": 0, "b": 0])] }, reason: "schedule"),
        Case(label: "25:00", lines: { [schedule($0, 1, ["times": ["25:00"]])] }, reason: "25:00"),
        Case(label: "unknown schedule kind", lines: { [schedule($0, 1, ["kind": "fortnightly"])] }, reason: "fortnightly"),
        Case(label: "per_dose 2^63-1", lines: { [op($0, "edit", 1, ["changed": ["per_dose"], "per_dose": Int.max])] }, reason: "per dose"),
        Case(label: "per_dose 0", lines: { [op($0, "edit", 1, ["changed": ["per_dose"], "per_dose": 0])] }, reason: "per dose"),
        Case(label: "per_dose 0.125", lines: { [op($0, "edit", 1, ["changed": ["per_dose"], "per_dose": 0.125])] }, reason: "two decimals"),
        Case(label: "per_dose 1e300", lines: { [op($0, "edit", 1, ["changed": ["per_dose"], "per_dose": 1e300])] }, reason: "per dose"),
        Case(label: "stock 9.755", lines: { [op($0, "stock", 1, ["stock": 9.755])] }, reason: "two decimals"),
        Case(label: "refill 0.001", lines: { [op($0, "refill", 1, ["units": 0.001])] }, reason: "two decimals"),
        Case(label: "stock -0.5", lines: { [op($0, "stock", 1, ["stock": -0.5])] }, reason: "stock"),
        Case(label: "stamp 2^63-1", lines: { p in
            var o = op(p, "refill", 1, ["units": 5]); o["stamp"] = "9223372036854775807-00000-" + p.deviceA; return [o]
        }, reason: "stamp"),
        Case(label: "stamp ~", lines: { p in
            var o = op(p, "edit", 1, ["changed": ["name"], "name": "Poison"]); o["stamp"] = "~"; return [o]
        }, reason: "stamp"),
        Case(label: "unpadded stamp", lines: { p in
            var o = op(p, "edit", 1, ["changed": ["name"], "name": "Poison"]); o["stamp"] = "5-00000-" + p.deviceA; return [o]
        }, reason: "stamp"),
        Case(label: "stock 2^63-1 then a refill", lines: { p in
            [op(p, "stock", 1, ["stock": Int.max]), op(p, "refill", 2, ["units": 10])]
        }, reason: "stock", stock: 39),
        Case(label: "stock -5", lines: { [op($0, "stock", 1, ["stock": -5])] }, reason: "stock"),
        Case(label: "units -2^63", lines: { p in
            [op(p, "take", 1, ["units": Int.min, "day": "2026-11-21", "slot": "08:00", "at": takenAt - 86_400])]
        }, reason: "units"),
        Case(label: "at -1e300", lines: { [op($0, "take", 1, ["day": "2026-11-21", "slot": "08:00", "at": -1e300])] }, reason: "at"),
        Case(label: "at 1e300", lines: { [op($0, "take", 1, ["day": "2026-11-21", "slot": "08:00", "at": 1e300])] }, reason: "at"),
        Case(label: "a take dated tomorrow", lines: {
            [op($0, "take", 1, ["day": "2026-11-23", "slot": "08:00", "at": takenAt + 86_400])]
        }, reason: "at"),
        Case(label: "ESC and BEL in a name", lines: {
            [op($0, "edit", 1, ["changed": ["name"], "name": "Asp\u{1B}[31mirin\u{07}"])]
        }, reason: "name"),
        Case(label: "NUL in a name", lines: { [op($0, "edit", 1, ["changed": ["name"], "name": "Asp\u{0}irin"])] }, reason: "name"),
        Case(label: "a bidi override in a name", lines: {
            [op($0, "edit", 1, ["changed": ["name"], "name": "Asp\u{202E}nirip"])]
        }, reason: "name"),
        Case(label: "a 10,000-character name", lines: {
            [op($0, "edit", 1, ["changed": ["name"], "name": String(repeating: "A", count: 10_000)])]
        }, reason: "name"),
        Case(label: "a 5 MB note", lines: {
            [op($0, "edit", 1, ["changed": ["note"], "note": String(repeating: "n", count: 5_000_000)])]
        }, reason: "note"),
        Case(label: "an unknown kind", lines: { [op($0, "purge-everything", 1, [:])] }, reason: "unknown kind"),
        Case(label: "a malformed id", lines: { p in var o = op(p, "refill", 1, ["units": 5]); o["id"] = "1"; return [o] }, reason: "id"),
        Case(label: "a missing field", lines: { [op($0, "take", 1, ["slot": "08:00", "at": takenAt - 60])] }, reason: "day"),
        Case(label: "wrong JSON types", lines: { [op($0, "refill", 1, ["units": "ten"])] }, reason: "not a dosebar operation"),
        Case(label: "an add whose only schedule is invalid", lines: { p in
            let gid = UUID().uuidString.lowercased()
            var add = op(p, "add", 1, ["name": "Half", "per_dose": 1, "low_days": 7]); add["medicine"] = gid
            var s = schedule(p, 2, ["kind": "every_days", "a": 0]); s["medicine"] = gid
            return [s, add]
        }, reason: "schedule"),
    ]

    @Test("a hostile line is skipped with one warning naming file and line; the valid take after it shows; every command works",
          arguments: cases)
    func hostileLine(_ c: Case) throws {
        let p = try Pair()
        defer { p.remove() }
        let hostile = c.lines(p)
        let first = try p.write(hostile + [p.validTake()])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0, "sync now: exit \(r.status): \(r.err)")
        let warnings = r.err.split(separator: "\n").map(String.init)
        #expect(warnings.contains { $0.contains(p.target + ":\(first): ") && $0.contains(c.reason) }, "\(r.err)")
        #expect(!warnings.contains { $0.contains(":\(first + hostile.count):") }, "the valid take is not warned about: \(r.err)")
        // The take after it applied: the person does not take the dose again.
        let statuses = try p.b.statuses(at: Self.now)
        #expect(statuses.contains("Aspirin:taken"), "\(statuses)")
        // Nothing of the line: names and stock as A has them, every medicine with its schedule.
        let list = try #require(try p.b.ok("list", "--json", now: Self.now).json as? [[String: Any]])
        #expect(Set(list.compactMap { $0["name"] as? String }) == ["Aspirin", "Ibuprofen"], "\(list)")
        #expect(list.first { $0["name"] as? String == "Aspirin" }?["stock"] as? Int == c.stock, "\(list)")
        // `sync status` lists it, with file and line.
        let status = try p.b.ok("sync", "status", now: Self.now).out
        #expect(status.contains("skipped " + p.target + ":\(first): "), "\(status)")
        try p.everythingWorks()
        // Warned once: a second run says nothing of it.
        let again = try p.b.run(["sync", "now"], now: Self.now)
        #expect(again.status == 0 && again.err.isEmpty, "\(again.err)")
    }

    @Test("an operation stamped more than a day ahead is held: not applied, the clock not moved, listed; applied once the clock is within a day")
    func heldStamp() throws {
        let p = try Pair()
        defer { p.remove() }
        // One stamped 100 years ahead (held for good), one two days ahead (held until tomorrow).
        var far = p.validTake(), soon = p.validTake()
        far["stamp"] = p.stamp(Self.takenAt + 100 * 365 * 86_400)
        far["medicine"] = p.ibuprofen; far["slot"] = nil
        soon["stamp"] = p.stamp(Self.takenAt + 2 * 86_400)
        let first = try p.write([far, soon])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(try p.b.statuses(at: Self.now).contains("Aspirin:due"), "held, not applied")
        let status = try p.b.ok("sync", "status", now: Self.now).out
        #expect(status.contains("held " + p.target + ":\(first) (take)"), "\(status)")
        #expect(status.contains("held " + p.target + ":\(first + 1) (take)"), "\(status)")
        // B's own next change is stamped by its own clock, not by the held stamps.
        try p.b.ok("take", "Ibuprofen", now: Self.now)
        let own = try String(contentsOfFile: p.dirB + "/dosebar/" + (try deviceOf(p.b)) + ".jsonl", encoding: .utf8)
        let last = try #require(own.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let stamp = try #require(last["stamp"] as? String)
        #expect(stamp < String(format: "%013lld", Int64(Self.takenAt + 3_600) * 1000), "\(stamp)")
        try p.everythingWorks()
        // 36 hours later the clock is within a day of the second: applied; the first stays held.
        let later = "2026-11-23T20:30:00+09:00"
        let applied = try p.b.run(["sync", "now"], now: later)
        #expect(applied.status == 0 && applied.out.contains("Applied 1 operation"), "\(applied.out) \(applied.err)")
        let statusLater = try p.b.ok("sync", "status", now: later).out
        #expect(statusLater.contains("held " + p.target + ":\(first) (take)") && !statusLater.contains(":\(first + 1) (take)"), "\(statusLater)")
        let history = try #require(try p.b.ok("history", "--json", "--from", "2026-11-22", "--to", "2026-11-22", now: later).json as? [[String: Any]])
        #expect(history.first?["taken"] as? Int == 1, "\(history)")
    }

    func deviceOf(_ h: Harness) throws -> String {
        String(try h.ok("sync", "status").out.split(separator: "\n")[0].components(separatedBy: "This device is ")[1].prefix(16))
    }

    @Test("the same operation id with other content is refused and listed; the first version stays, on both devices")
    func reusedID() throws {
        let p = try Pair()
        defer { p.remove() }
        // A renames Aspirin; a forged line in A's file reuses the rename's id with another name.
        try p.a.ok("edit", "Aspirin", "--rename", "Aspirin 100", now: Self.now)
        let own = try String(contentsOfFile: p.dirA + "/dosebar/" + p.deviceA + ".jsonl", encoding: .utf8)
        let rename = try #require(own.split(separator: "\n").last.map(String.init))
        var forged = try #require(try JSONSerialization.jsonObject(with: Data(rename.utf8)) as? [String: Any])
        forged["name"] = "Poison"
        let base = own
        let forgedLine = String(decoding: try JSONSerialization.data(withJSONObject: forged, options: [.sortedKeys]), as: UTF8.self)
        try (base + forgedLine + "\n").write(toFile: p.target, atomically: true, encoding: .utf8)
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0, "\(r.err)")
        let number = base.split(separator: "\n").count + 1
        #expect(r.err.contains(p.target + ":\(number): operation \(forged["id"]!) was already received with other content"), "\(r.err)")
        #expect(r.err.contains("refused"), "\(r.err)")
        for h in [p.a, p.b] {
            let names = try #require(try h.ok("list", "--json", now: Self.now).json as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(Set(names) == ["Aspirin 100", "Ibuprofen"], "\(names)")
        }
        #expect(try p.b.ok("sync", "status", now: Self.now).out.contains("skipped " + p.target + ":\(number): "))
        try p.everythingWorks()
    }

    @Test("a dose's id reused by a line stamped later (a take, a stock, a take that waits for its medicine) is refused and listed; sync goes on")
    func reusedDoseID() throws {
        let p = try Pair()
        defer { p.remove() }
        // The take's event keeps its id; the lines after it reuse that id with later stamps, which
        // are past the device's high-water (no look-up by id there: the events' index refuses them).
        let take = p.validTake(counter: 90)
        let id = take["id"] as! String
        var again = take; again["stamp"] = p.stamp(Self.takenAt, 91); again["at"] = Self.takenAt + 60
        let first = try p.write([take, again])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0, "exit \(r.status): \(r.err)")
        #expect(r.err.contains(p.target + ":\(first + 1): operation \(id) was already received with other content"), "\(r.err)")
        #expect(try p.b.statuses(at: Self.now).contains("Aspirin:taken"))
        // In a later read: a stock with the take's id, and a take of a medicine that arrives after it.
        let gid = UUID().uuidString.lowercased()
        var stock = Self.op(p, "stock", 92, ["stock": 5]); stock["id"] = id; stock["stamp"] = p.stamp(Self.takenAt, 92)
        var waiting = take; waiting["medicine"] = gid; waiting["stamp"] = p.stamp(Self.takenAt, 93)
        var add = Self.op(p, "add", 94, ["name": "Later", "per_dose": 1, "low_days": 7])
        add["medicine"] = gid; add["stamp"] = p.stamp(Self.takenAt, 94)
        var s = Self.schedule(p, 95, [:]); s["medicine"] = gid; s["stamp"] = p.stamp(Self.takenAt, 95)
        try p.write([take, again, stock, waiting])
        let second = try p.b.run(["sync", "now"], now: Self.now)
        #expect(second.status == 0, "exit \(second.status): \(second.err)")
        #expect(second.err.contains(p.target + ":\(first + 2): operation \(id) was already received with other content"), "\(second.err)")
        try p.write([take, again, stock, waiting, add, s])
        let third = try p.b.run(["sync", "now"], now: Self.now)
        #expect(third.status == 0, "exit \(third.status): \(third.err)")
        #expect(third.err.contains(p.target + ":\(first + 3): operation \(id) was already received with other content"), "\(third.err)")
        let status = try p.b.ok("sync", "status", now: Self.now).out
        for n in [first + 1, first + 2, first + 3] { #expect(status.contains("skipped " + p.target + ":\(n): "), "\(n): \(status)") }
        #expect(!status.contains("waiting"), "\(status)")
        // The first version stays: Aspirin taken once (stock 30 - 1), the stock line not applied.
        let list = try #require(try p.b.ok("list", "--json", now: Self.now).json as? [[String: Any]])
        let aspirin = try #require(list.first { $0["name"] as? String == "Aspirin" })
        #expect("\(aspirin["stock"] ?? "nil")" == "29", "\(aspirin)")
        #expect(try p.b.statuses(at: Self.now).contains("Later:taken") == false)
        try p.everythingWorks()
    }

    @Test("a take that waits for its medicine, then its id with other content in the same read: the second is refused, the first still waits")
    func reusedWaitingID() throws {
        let p = try Pair()
        defer { p.remove() }
        // The first take waits (its medicine has not arrived): its id is in `operation`, stored by
        // this very batch, and the second line's stamp is past the device's high-water.
        let gid = UUID().uuidString.lowercased()
        var waiting = p.validTake(counter: 80); waiting["medicine"] = gid
        var again = waiting; again["stamp"] = p.stamp(Self.takenAt, 81); again["at"] = Self.takenAt + 60
        let first = try p.write([waiting, again])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0, "exit \(r.status): \(r.err)")
        #expect(r.err.contains(p.target + ":\(first + 1): operation \(waiting["id"]!) was already received with other content"), "\(r.err)")
        let status = try p.b.ok("sync", "status", now: Self.now).out
        #expect(status.contains("waiting " + p.target + ":\(first) (take)"), "\(status)")
        #expect(status.contains("skipped " + p.target + ":\(first + 1): "), "\(status)")
        try p.everythingWorks()
    }

    @Test("an undo of an id that never arrives waits and is listed as waiting, with why; later lines apply")
    func undoOfUnknown() throws {
        let p = try Pair()
        defer { p.remove() }
        let missing = UUID().uuidString.lowercased()
        let first = try p.write([Self.op(p, "undo", 1, ["target": missing, "at": Self.takenAt - 30]), p.validTake()])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(try p.b.statuses(at: Self.now).contains("Aspirin:taken"))
        let status = try p.b.ok("sync", "status", now: Self.now).out
        #expect(status.contains("waiting " + p.target + ":\(first) (undo): waits for the operation it undoes (\(missing))"), "\(status)")
        try p.everythingWorks()
    }

    @Test("200,000 junk lines: one warning naming the first few and how many more, once; the file is read on from where it stopped")
    func junk() throws {
        let p = try Pair()
        defer { p.remove() }
        var lines: [Any] = []
        for n in 0..<200_000 { lines.append(n % 2 == 0 ? "junk \(n)" : "{\"id\":\(n)}") }
        let first = try p.write(lines + [p.validTake()])
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0, "\(r.err)")
        let warnings = r.err.split(separator: "\n")
        #expect(warnings.count == 6, "\(warnings.prefix(8))")
        #expect(warnings.first?.contains(":\(first): not a dosebar operation") == true)
        #expect(warnings.last?.contains("and 199995 more lines skipped") == true, "\(warnings.last ?? "")")
        #expect(try p.b.statuses(at: Self.now).contains("Aspirin:taken"))
        // `sync status` lists the first 20 and counts the rest.
        let status = try p.b.ok("sync", "status", now: Self.now).out.split(separator: "\n")
        #expect(status.filter { $0.hasPrefix("skipped " + p.target + ":") }.count == 20, "\(status.prefix(30))")
        #expect(status.contains("skipped 199980 more lines of " + p.target), "\(status.suffix(3))")
        // A new take appended: only it is read, nothing warned again.
        var next = p.validTake(counter: 91)
        next["slot"] = nil; next["medicine"] = p.ibuprofen
        let text = try String(contentsOfFile: p.target, encoding: .utf8)
            + String(decoding: try JSONSerialization.data(withJSONObject: next, options: [.sortedKeys]), as: UTF8.self) + "\n"
        try text.write(toFile: p.target, atomically: true, encoding: .utf8)
        let again = try p.b.run(["sync", "now"], now: Self.now)
        #expect(again.status == 0 && again.err.isEmpty, "\(again.err)")
        #expect(again.out.contains("Applied 1 operation"), "\(again.out)")
    }

    /// How many operations of `device` B's database holds (sqlite3, while `sync now` writes: WAL readers do not wait):
    /// rows of `operation`, and its doses kept in their events (schema `v11-synced-doses`).
    static func stored(_ h: Harness, device: String) -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [h.db, "SELECT (SELECT count(*) FROM operation WHERE device = '\(device)') + (SELECT count(*) FROM event WHERE op_device = '\(device)')"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        let d = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Int(String(decoding: d, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("a sync killed midway keeps what it applied: every batch of lines (20,000, the first ones fewer) is committed with the file's position, and the next run reads on")
    func killedMidway() throws {
        let p = try Pair()
        defer { p.remove() }
        let n = 60_000
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = seoul
        var lines: [Any] = []
        for i in 0..<n {
            // One Ibuprofen dose a minute up to the take after the hostile lines; stamped in file order.
            let at = Self.takenAt - 60 * (n - i)
            let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(at)))
            lines.append(["at": at, "day": String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!), "device": p.deviceA,
                          "id": UUID().uuidString.lowercased(), "kind": "take", "medicine": p.ibuprofen, "units": 1,
                          "stamp": p.stamp(Self.takenAt, i % 100_000)])
        }
        try p.write(lines)
        let total = p.base.split(separator: "\n").count + n
        let before = Self.stored(p.b, device: p.deviceA)
        var env = p.b.env
        env["DOSEBAR_NOW"] = Self.now
        let process = Harness.process(["sync", "now"], env: env)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once a batch is committed, well before the end.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Self.stored(p.b, device: p.deviceA) < before + SyncBatch.size && Date() < deadline {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "sync now finished before it could be killed")
        let kept = Self.stored(p.b, device: p.deviceA) - before
        #expect(kept >= SyncBatch.size && kept < total && SyncBatch.ends(upTo: total).contains(kept), "\(kept) operations kept")
        // The next run applies the rest, none twice, and warns about nothing.
        let r = try p.b.run(["sync", "now"], now: Self.now)
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(r.out.contains("Applied \(total - kept) operations"), "\(r.out)")
        #expect(Self.stored(p.b, device: p.deviceA) == before + total)
    }
}

/// ``SyncService``'s batch: how many lines one transaction applies.
enum SyncBatch {
    static let size = 20_000

    /// How many lines a read has applied after each of its batches, up to `total`: the first batches
    /// an eighth, a quarter and a half of ``size`` (applying starts before a whole batch is parsed).
    static func ends(upTo total: Int) -> [Int] {
        var ends: [Int] = [], done = 0, next = size / 8
        while done < total { done = min(done + next, total); ends.append(done); next = min(next * 2, size) }
        return ends
    }
}
