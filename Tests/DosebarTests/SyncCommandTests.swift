import Foundation
import Glibc
import Testing

/// Two dosebar homes (two databases, the real binary) that sync through a plain directory;
/// Syncthing is simulated by sharing the directory or by copying files, torn copies included.
@Suite("sync init / now / status between two homes")
struct SyncCommandTests {
    /// The JSON without local row ids, which differ between machines.
    static func withoutIDs(_ value: Any?) -> Any? {
        if let d = value as? [String: Any] {
            return d.filter { $0.key != "id" && !$0.key.hasSuffix("_id") }.mapValues { withoutIDs($0) ?? NSNull() }
        }
        if let a = value as? [Any] { return a.map { withoutIDs($0) ?? NSNull() } }
        return value
    }

    static func canonical(_ r: Harness.Result) -> String {
        guard let v = withoutIDs(r.json),
              let data = try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys]) else { return r.out }
        return String(decoding: data, as: UTF8.self)
    }

    /// An as-needed medicine's `taken_today` in the snapshot `h`'s daemon wrote.
    static func takenToday(_ medication: String, bar h: Harness) -> Int? {
        guard let data = FileManager.default.contents(atPath: h.dir + "/snapshot.json"),
              let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return ((s["as_needed"] as? [[String: Any]])?.first { $0["medication"] as? String == medication })?["taken_today"] as? Int
    }

    /// Puts `data` into the sync folder of `dir` as Syncthing does: a temporary file, renamed into place.
    static func deliver(_ data: Data, as name: String, to dir: String) throws {
        let temporary = dir + "/dosebar/.syncthing." + name + ".tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, dir + "/dosebar/" + name) == 0)
    }

    func device(_ h: Harness) throws -> String { try h.syncDevice() }

    @Test("a take on A shows on B; the same medicine and dose on both are not duplicated")
    func sharedDirectory() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Aspirin", "--at", "08:00,20:00", "--stock", "30", "--from", "2026-11-01")
        try a.ok("add", "Magnesium", "--at", "21:00", "--from", "2026-11-01")
        try a.ok("take", "Aspirin", "--at", "08:05", now: "2026-11-22T09:00:00+09:00")
        // B had Aspirin too, and the same morning dose (as after an earlier import).
        try b.ok("add", "aspirin", "--at", "08:00,20:00", "--stock", "30", "--from", "2026-11-01")
        try b.ok("take", "aspirin", "--at", "08:05", now: "2026-11-22T09:00:00+09:00")

        let initA = try a.ok("sync", "init", shared)
        #expect(initA.out.contains("This device is"), "\(initA.out)")
        let initB = try b.ok("sync", "init", shared)
        #expect(initB.out.contains("Applied"), "\(initB.out)")
        try a.ok("sync", "now")

        let listB = try #require(try b.ok("list", "--json").json as? [[String: Any]])
        #expect(listB.map { $0["name"] as? String } .count == 2, "one Aspirin, and Magnesium: \(listB)")
        let history = try #require(try b.ok("history", "--json", "--from", "2026-11-22", "--to", "2026-11-22",
                                           now: "2026-11-22T09:00:00+09:00").json as? [[String: Any]])
        #expect(history.first?["taken"] as? Int == 1, "the morning dose once: \(history)")

        try a.ok("take", "Aspirin", now: "2026-11-22T20:05:00+09:00")
        try a.ok("remove", "Magnesium", now: "2026-11-22T20:05:00+09:00")
        try a.ok("add", "Magnesium", "--at", "21:00", now: "2026-11-22T20:05:00+09:00")
        #expect(FileManager.default.fileExists(atPath: shared + "/dosebar/" + (try device(a)) + ".jsonl"))
        // Each command's operations come after the last one's (the clock is kept), whatever the
        // wall clock says; each id is a lowercase UUID of version 7, never twice, in the order of the stamps.
        let linesA = try String(contentsOfFile: shared + "/dosebar/" + (try device(a)) + ".jsonl", encoding: .utf8)
            .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let stamps = linesA.compactMap { $0["stamp"] as? String }, ids = linesA.compactMap { $0["id"] as? String }
        #expect(linesA.count >= 8 && stamps.count == linesA.count && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps)")
        #expect(Set(ids).count == linesA.count && ids.allSatisfy {
            $0.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil
        }, "\(ids)")
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "\(ids)")
        try b.ok("sync", "now", now: "2026-11-22T20:06:00+09:00")
        let at = "2026-11-22T20:06:00+09:00"
        let statusesB = try b.statuses(at: at)
        // One name wins on both devices (the later add's); which one does not matter here.
        #expect(statusesB.map { $0.lowercased() } == ["aspirin:taken", "aspirin:taken", "magnesium:upcoming"], "\(statusesB)")
        #expect(Self.canonical(try a.run(["today", "--json"], now: at)) == Self.canonical(try b.run(["today", "--json"], now: at)))
        #expect(Self.canonical(try a.run(["list", "--json"], now: at)) == Self.canonical(try b.run(["list", "--json"], now: at)))

        let status = try b.ok("sync", "status").out
        #expect(status.contains(try device(a)) && status.contains("(this device)"), "\(status)")
        #expect(status.split(separator: "\n").count == 3, "\(status)")
    }

    @Test("machines that each had their own medicines write the same snapshot once synced (but for local row ids)")
    func sameSnapshot() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let now = "2026-11-22T09:00:00+09:00"
        try a.ok("add", "Aspirin", "--at", "08:00", "--stock", "3", "--from", "2026-11-01")
        try a.ok("add", "Zinc", "--at", "12:00", "--stock", "40", "--from", "2026-11-01")
        try a.ok("add", "Ibuprofen", "--as-needed", "--from", "2026-11-01")
        try b.ok("add", "Iron", "--at", "09:00", "--stock", "2", "--from", "2026-11-01")
        try b.ok("add", "Advil", "--as-needed", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        try a.ok("sync", "now")
        try a.ok("take", "Aspirin", now: now)
        try b.ok("take", "Iron", now: now)
        try a.ok("sync", "now", now: now)
        try b.ok("sync", "now", now: now)
        func snapshot(_ h: Harness) throws -> String {
            try h.ok("export", now: now)
            let text = try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8)
            return Self.canonical(Harness.Result(status: 0, out: text, err: ""))
        }
        let (sa, sb) = (try snapshot(a), try snapshot(b))
        #expect(sa == sb, "\(sa)\n---\n\(sb)")
        // The most urgent stock first, whichever machine created it: the message names it.
        #expect(sa.contains("Iron: 1 day left, refill soon"), "\(sa)")
    }

    @Test("a slot taken on both devices is resolved once, and history shows the other take (past the kept day outcomes too)")
    func historyShowsDuplicates() throws {
        let a = Harness(), b = Harness()
        let shared = a.root + "/Sync"
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try b.ok("sync", "init", shared)
        try b.ok("take", "Aspirin", "--at", "08:20", now: "2026-11-22T09:00:00+09:00")
        try a.ok("take", "Aspirin", "--at", "08:10", now: "2026-11-22T09:00:00+09:00")
        let later = "2026-11-23T09:00:00+09:00"
        func days(_ h: Harness, _ extra: String...) throws -> [[String: Any]] {
            try #require(try h.run(["history", "--json", "--from", "2026-11-21", "--to", "2026-11-22"] + extra, now: later).json
                as? [[String: Any]])
        }
        // Before the files meet, each device judges (and keeps) the 22nd from its own take alone.
        #expect(try days(a).map { $0["duplicates"] == nil } == [true, true])
        try a.ok("sync", "now", now: later)
        try b.ok("sync", "now", now: later)
        for h in [a, b] {
            let d = try days(h)
            #expect(d.count == 2 && d[0]["duplicates"] == nil, "no key on a day without duplicates: \(d)")
            #expect(d[1]["taken"] as? Int == 1 && d[1]["state"] as? String == "done", "taken once: \(d)")
            #expect(d[1]["duplicates"] as? Int == 1, "the other take is a duplicate: \(d)")
            #expect(try days(h, "Aspirin")[1]["duplicates"] as? Int == 1)
            let calendar = try h.ok("history", "--from", "2026-11-16", "--to", "2026-11-22", now: later).out
            #expect(calendar.contains("1 dose came from another device for a slot its earlier dose decides"), "\(calendar)")
            #expect(calendar.contains("Aspirin 2026-11-22 08:00 taken twice:"), "\(calendar)")
            let before = try h.ok("history", "--from", "2026-11-16", "--to", "2026-11-21", now: later).out
            #expect(!before.contains("another device") && !before.contains("twice"), "\(before)")
        }
        // The earlier take (A's, 08:10) is the dose on both.
        let report = { (h: Harness) throws -> String in
            try h.ok("report", "--from", "2026-11-22", "--to", "2026-11-22", "--format", "csv", now: later).out
        }
        #expect(try report(a) == report(b))
        let reportB = try report(b)
        #expect(reportB.contains("08:10"), "\(reportB)")
    }

    @Test("torn copies wait for the whole file; copies arriving twice or out of order change nothing")
    func tornCopies() throws {
        let a = Harness(), b = Harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00,20:00", "--stock", "30", "--from", "2026-11-01")
        try a.ok("sync", "init", dirA)
        try b.ok("sync", "init", dirB)
        let name = try device(a) + ".jsonl"
        let source = dirA + "/dosebar/" + name, target = dirB + "/dosebar/" + name
        func copy(cut: Int = 0) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            try data.prefix(data.count - cut).write(to: URL(fileURLWithPath: target))
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: source))
        try a.ok("take", "Aspirin", now: "2026-11-22T08:01:00+09:00")
        try a.ok("refill", "Aspirin", "10", now: "2026-11-22T08:02:00+09:00")
        // Late: B first sees the file as it was at init, then a torn copy of the newest one.
        try first.write(to: URL(fileURLWithPath: target))
        try b.ok("sync", "now", now: "2026-11-22T08:03:00+09:00")
        try copy(cut: 5)
        try b.ok("sync", "now", now: "2026-11-22T08:03:00+09:00")
        let stockB = { () throws -> Int? in
            ((try b.ok("list", "--json").json as? [[String: Any]])?.first?["stock"] as? Int)
        }
        #expect(try stockB() == 29, "the take applied, the torn refill waits")
        try copy()
        try b.ok("sync", "now", now: "2026-11-22T08:03:00+09:00")
        try copy()
        try b.ok("sync", "now", now: "2026-11-22T08:03:00+09:00")
        #expect(try stockB() == 39)
        #expect(try b.statuses(at: "2026-11-22T08:03:00+09:00").first == "Aspirin:taken")

        // B undoes A's take: A sees it.
        try b.ok("undo", now: "2026-11-22T08:04:00+09:00")
        let back = dirA + "/dosebar/" + (try device(b)) + ".jsonl"
        try Data(contentsOf: URL(fileURLWithPath: dirB + "/dosebar/" + (try device(b)) + ".jsonl")).write(to: URL(fileURLWithPath: back))
        try a.ok("sync", "now", now: "2026-11-22T08:05:00+09:00")
        #expect(try a.statuses(at: "2026-11-22T08:05:00+09:00").first == "Aspirin:due")
        #expect(((try a.ok("list", "--json").json as? [[String: Any]])?.first?["stock"] as? Int) == 40)
    }

    @Test("another device's file: a malformed line is skipped and a line claiming another device refused, each named by file and line")
    func badLines() throws {
        let a = Harness(), b = Harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--stock", "30", "--from", "2026-11-01")
        try a.ok("sync", "init", dirA)
        try b.ok("sync", "init", dirB)
        try a.ok("take", "Aspirin", now: "2026-11-22T08:01:00+09:00")
        let deviceA = try device(a), deviceB = try device(b)
        let source = try String(contentsOfFile: dirA + "/dosebar/" + deviceA + ".jsonl", encoding: .utf8)
        var lines = source.split(separator: "\n").map(String.init)
        let add = try #require(lines.first { $0.contains("\"kind\":\"add\"") })
        func forged(device: String, name: String) throws -> String {
            var op = try #require(try JSONSerialization.jsonObject(with: Data(add.utf8)) as? [String: Any])
            op["id"] = UUID().uuidString.lowercased(); op["medicine"] = UUID().uuidString.lowercased()
            op["device"] = device; op["name"] = name
            return String(decoding: try JSONSerialization.data(withJSONObject: op, options: [.sortedKeys]), as: UTF8.self)
        }
        // Line 2 claims B itself, line 3 a third device, line 4 is not an operation at all.
        lines.insert(contentsOf: [try forged(device: deviceB, name: "Forged"), try forged(device: "c0ffee", name: "Forged too"),
                                  "{\"id\": \"x\", \"kind\":"], at: 1)
        let target = dirB + "/dosebar/" + deviceA + ".jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: target, atomically: true, encoding: .utf8)
        let now = try b.run(["sync", "now"], now: "2026-11-22T08:02:00+09:00")
        #expect(now.status == 0, "\(now.err)")
        #expect(now.err.contains(target + ":2: an operation of device \(deviceB) in the file of device \(deviceA); refused"), "\(now.err)")
        #expect(now.err.contains(target + ":3: an operation of device c0ffee in the file of device \(deviceA); refused"), "\(now.err)")
        #expect(now.err.contains(target + ":4: not a dosebar operation"), "\(now.err)")
        #expect(now.err.split(separator: "\n").count == 3, "\(now.err)")
        let names = try #require(try b.ok("list", "--json").json as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["Aspirin"], "the forged adds are not applied: \(names)")
        #expect(try b.statuses(at: "2026-11-22T08:02:00+09:00") == ["Aspirin:taken"])
        // c0ffee is no device of B's: only the skipped line names it.
        let status = try b.ok("sync", "status").out.split(separator: "\n")
        #expect(!status.filter { !$0.hasPrefix("skipped ") }.contains { $0.contains("c0ffee") }, "\(status)")
        #expect(status.filter { $0.hasPrefix("skipped ") }.count == 3, "\(status)")
    }

    @Test("restore keeps this machine's sync device id: a backup made on another device, or before sync init, never makes two writers of one file")
    func restoreKeepsDevice() throws {
        let a = Harness(), b = Harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("backup", a.root + "/before-sync.sqlite")
        try a.ok("sync", "init", dirA)
        try b.ok("add", "Zinc", "--at", "12:00", "--from", "2026-11-01")
        try b.ok("sync", "init", dirB)
        try b.ok("backup", b.root + "/b.sqlite")
        try a.ok("backup", a.root + "/a.sqlite")
        let deviceA = try device(a), deviceB = try device(b)
        let header = "This device is \(deviceA), syncing through \(dirA)."

        // A backup of this very device: nothing to say.
        let own = try a.ok("restore", a.root + "/a.sqlite")
        #expect(!own.out.contains("sync device"), "\(own.out)")

        let other = try a.ok("restore", b.root + "/b.sqlite")
        #expect(other.out.contains("made by sync device \(deviceB); this machine keeps its own, \(deviceA)"), "\(other.out)")
        #expect(try a.ok("sync", "status").out.hasPrefix(header))
        try a.ok("take", "Zinc", now: "2026-11-22T12:05:00+09:00")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dirA + "/dosebar") == [deviceA + ".jsonl"])
        let fileA = try String(contentsOfFile: dirA + "/dosebar/" + deviceA + ".jsonl", encoding: .utf8)
        #expect(fileA.contains("\"kind\":\"take\"") && fileA.contains("\"device\":\"\(deviceA)\""), "\(fileA)")
        #expect(!fileA.contains(deviceB), "B's operations stay in B's file: \(fileA)")

        let old = try a.ok("restore", a.root + "/before-sync.sqlite")
        #expect(old.out.contains("made before sync was set up; this machine keeps its sync device \(deviceA)"), "\(old.out)")
        #expect(try a.ok("sync", "status").out.hasPrefix(header))
    }

    @Test("sync now and status before init are usage errors; doctor names a missing Syncthing")
    func notInitialised() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00") // with no database at all, sync now is "no database at …" (74)
        let now = try h.run("sync", "now")
        #expect(now.status == 64 && now.err.contains("sync init"), "\(now.err)")
        #expect(try h.run("sync", "status").status == 64)
        try h.ok("sync", "init", h.root + "/Sync")
        let doctor = try h.run("doctor")
        let running = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains {
            (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("syncthing") == true
        }
        if running {
            #expect(doctor.out.contains("Syncthing is running"), "\(doctor.out)")
        } else {
            #expect(doctor.out.contains("Syncthing is not running") && doctor.status == 1, "\(doctor.out)")
        }
    }

    /// Two homes syncing through their own folders, B's daemon running, and A's file after a take
    /// of Ibuprofen (not yet in B's folder). The caller removes both homes and stops the daemon.
    func daemonAndATake() throws -> (a: Harness, b: Harness, d: LiveProcess, name: String, data: Data) {
        let a = try DaemonTest.harness(), b = try DaemonTest.harness()
        try a.ok("sync", "init", a.root + "/Sync")
        try b.ok("sync", "init", b.root + "/Sync")
        let d = try DaemonTest.startDaemon(b)
        #expect(Self.takenToday("Ibuprofen", bar: b) == 0)
        try a.ok("take", "Ibuprofen")
        let name = try device(a) + ".jsonl"
        return (a, b, d, name, try Data(contentsOf: URL(fileURLWithPath: a.root + "/Sync/dosebar/" + name)))
    }

    @Test("the daemon applies another device's file when it is renamed into the sync folder, and rewrites the bar")
    func daemonApplies() throws {
        let (a, b, d, name, file) = try daemonAndATake()
        var data = file
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirB = b.root + "/Sync"
        func ibuprofenToday() -> Int? { Self.takenToday("Ibuprofen", bar: b) }
        let bad = data.split(separator: 0x0A).count + 1
        data.append(contentsOf: Array("not an operation\n".utf8))
        try Self.deliver(data, as: name, to: dirB)
        #expect(DaemonTest.waitUntil(10) { ibuprofenToday() == 1 }, "the take did not reach B's bar: \(d.stderr)")
        // The bad line is in the daemon's log, named by file and line, once.
        let warning = "\(dirB)/dosebar/\(name):\(bad): not a dosebar operation"
        #expect(DaemonTest.waitUntil(5) { d.stderr.contains(warning) }, "\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("the daemon hands another device's long file to `dosebar sync now` in a child, and the bar shows what it applied")
    func daemonAppliesALongFileInAChild() throws {
        let (a, b, d, name, file) = try daemonAndATake()
        var data = file
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirB = b.root + "/Sync"
        func ibuprofenToday() -> Int? { Self.takenToday("Ibuprofen", bar: b) }
        // Past 1 MB: the take's line again and again (copies of one line change nothing).
        let take = Data(data.split(separator: 0x0A).last!) + Data([0x0A])
        while data.count <= 1 << 20 { data.append(take) }
        try Self.deliver(data, as: name, to: dirB)
        #expect(DaemonTest.waitUntil(20) { ibuprofenToday() == 1 }, "the take did not reach B's bar: \(d.stderr)")
        #expect(DaemonTest.waitUntil(5) { d.stderr.contains("done in") }, "\(d.stderr)")
        #expect(d.stderr.contains("MB of other devices' operations in `dosebar sync now`"), "\(d.stderr)")
        #expect(!d.stderr.contains("failed"), "\(d.stderr)")
        // Applied once: the daemon does not read the file again after the child.
        try b.ok("sync", "now")
        #expect(try b.ok("sync", "status").out.contains(name.replacingOccurrences(of: ".jsonl", with: "")), "\(d.stderr)")
        #expect(ibuprofenToday() == 1)
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }

    @Test("a daemon running before `sync init` follows the folder from then on, without a restart")
    func daemonFollowsInit() throws {
        let a = try DaemonTest.harness(), b = try DaemonTest.harness()
        defer { try? FileManager.default.removeItem(atPath: a.root); try? FileManager.default.removeItem(atPath: b.root) }
        let dirA = a.root + "/Sync", dirB = b.root + "/Sync"
        try a.ok("sync", "init", dirA)
        let d = try DaemonTest.startDaemon(b)
        try b.ok("sync", "init", dirB)
        #expect(DaemonTest.waitUntil(10) { d.stderr.contains("following \(dirB)/dosebar") }, "\(d.stderr)")
        func ibuprofenToday() -> Int? { Self.takenToday("Ibuprofen", bar: b) }
        #expect(ibuprofenToday() == 0)
        try a.ok("take", "Ibuprofen")
        let name = try device(a) + ".jsonl"
        try Self.deliver(try Data(contentsOf: URL(fileURLWithPath: dirA + "/dosebar/" + name)), as: name, to: dirB)
        #expect(DaemonTest.waitUntil(10) { ibuprofenToday() == 1 }, "the take did not reach B's bar: \(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0)
    }
}
