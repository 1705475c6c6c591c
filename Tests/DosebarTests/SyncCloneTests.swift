import Foundation
import Glibc
import Testing

/// Homes copied to a second machine, Syncthing's conflict copies, and device files that are links
/// or FIFOs (DESIGN §10): nothing either machine wrote is lost, nothing is followed or blocks.
@Suite("sync: copied homes, conflict copies, links")
struct SyncCloneTests {
    let at = "2026-11-22T12:30:00+09:00"

    func device(_ h: Harness) throws -> String { try h.syncDevice() }

    /// A copy of `source`'s database files into `target`'s home, as `cp -a ~/.local/share/dosebar` does.
    func copyHome(_ source: Harness, to target: Harness) throws {
        let from = (source.db as NSString).deletingLastPathComponent, to = (target.db as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    func remove(_ hs: Harness...) { for h in hs { try? FileManager.default.removeItem(atPath: h.root) } }

    @Test("a home copied to a second machine: both notice, take new ids, and three devices end with every dose of both")
    func copiedHome() throws {
        let a = Harness(), b = Harness(), c = Harness()
        defer { remove(a, b, c) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("add", "Zinc", "--at", "12:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try c.ok("sync", "init", shared)
        try a.ok("sync", "now")
        let original = try device(a)

        // The home goes to a new laptop; both machines go on, each appending to "its" file.
        try copyHome(a, to: b)
        #expect(try device(b) == original)
        try a.ok("take", "Aspirin", "--at", "08:05", now: at)
        try b.ok("take", "Zinc", "--at", "12:10", now: at)

        let nowA = try a.ok("sync", "now", now: at)
        #expect(nowA.err.contains("this home was copied from another machine"), "\(nowA.err)")
        #expect(nowA.err.contains(original + ".jsonl:"), "names the file and line: \(nowA.err)")
        let nowB = try b.ok("sync", "now", now: at)
        #expect(nowB.err.contains("this home was copied from another machine"), "\(nowB.err)")
        let (idA, idB) = (try device(a), try device(b))
        #expect(idA != original && idB != original && idA != idB, "\(original) \(idA) \(idB)")
        #expect(try a.ok("sync", "status").out.contains("continues as \(idA)"))
        let doctor = try a.run(["doctor"])
        #expect(doctor.out.contains("copied from another machine"), "\(doctor.out)")

        // Once noticed, nothing more is said, and new changes go to each machine's own file.
        try a.ok("add", "Iron", "--at", "12:00", "--from", "2026-11-01", now: at)
        for h in [a, b] { try h.ok("sync", "now", now: at) }
        try b.ok("take", "Iron", "--at", "12:25", now: at)
        for h in [a, b, c, a, b] {
            let r = try h.ok("sync", "now", now: at)
            #expect(!r.err.contains("copied"), "\(r.err)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: shared + "/dosebar").sorted()
        let mine = Set([original, idA, idB].map { $0 + ".jsonl" })
        #expect(Set(files).subtracting([try device(c) + ".jsonl"]) == mine, "\(files)")
        // Both machines' doses everywhere: A's Aspirin, B's Zinc, and B's take of the Iron A added
        // under its new id.
        let expected = ["Aspirin:taken", "Iron:taken", "Zinc:taken"]
        for h in [a, b, c] {
            let statuses = try h.statuses(at: at).sorted()
            #expect(statuses == expected, "\(h.root): \(statuses)")
        }
        let history = { (h: Harness) throws -> String in
            let days = try h.ok("history", "--json", "--from", "2026-11-22", "--to", "2026-11-22", now: at).json
            return String(describing: (days as? [[String: Any]])?.first?["taken"] ?? "none")
        }
        #expect(try [history(a), history(b), history(c)] == ["3", "3", "3"])
    }

    @Test("the other machine's version of the own file, put in its place by Syncthing, is noticed even when it is exactly as long")
    func replacedBySameLength() throws {
        let a = Harness()
        defer { remove(a) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try a.ok("sync", "now", now: at)
        try a.ok("take", "Aspirin", "--at", "08:05", now: at)
        try a.ok("sync", "now", now: at)
        let deviceA = try device(a)
        let file = shared + "/dosebar/" + deviceA + ".jsonl"
        let mine = try String(contentsOfFile: file, encoding: .utf8)
        // The copy's last line: the same operation but for its id, as long as this machine's.
        var lines = mine.split(separator: "\n").map(String.init)
        let last = try #require(lines.last)
        let id = try #require(last.firstMatch(of: /"id":"([0-9a-f-]{36})"/)?.1)
        lines[lines.count - 1] = last.replacingOccurrences(of: String(id), with: UUID().uuidString.lowercased())
        let theirs = lines.joined(separator: "\n") + "\n"
        #expect(theirs.utf8.count == mine.utf8.count)
        try mine.write(toFile: shared + "/dosebar/" + deviceA + ".sync-conflict-20261122-123000-ABCDEFG.jsonl", atomically: true, encoding: .utf8)
        try theirs.write(toFile: file, atomically: true, encoding: .utf8)
        let now = try a.ok("sync", "now", now: at)
        #expect(now.err.contains("this home was copied from another machine"), "\(now.err)")
        #expect(try device(a) != deviceA)
        #expect(try a.statuses(at: at) == ["Aspirin:taken"])
    }

    @Test("a conflict copy of a device's file is read by every device, that device included, by id: nothing twice")
    func conflictCopy() throws {
        let a = Harness(), c = Harness()
        defer { remove(a, c) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00,20:00", "--stock", "30", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try c.ok("sync", "init", shared)
        try a.ok("take", "Aspirin", "--at", "08:05", now: at)
        try a.ok("refill", "Aspirin", "10", now: at)
        let deviceA = try device(a)
        let file = shared + "/dosebar/" + deviceA + ".jsonl"
        let whole = try String(contentsOfFile: file, encoding: .utf8)
        let lines = whole.split(separator: "\n")
        // Syncthing kept an older version as the file and the newer one as a conflict copy.
        let copy = shared + "/dosebar/" + deviceA + ".sync-conflict-20261122-123000-ABCDEFG.jsonl"
        try whole.write(toFile: copy, atomically: true, encoding: .utf8)
        try (lines.dropLast(2).joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)

        let nowC = try c.ok("sync", "now", now: at)
        #expect(nowC.err.isEmpty, "\(nowC.err)")
        let stock = { (h: Harness) throws -> Int? in
            ((try h.ok("list", "--json").json as? [[String: Any]])?.first?["stock"] as? Int)
        }
        #expect(try stock(c) == 39, "the take and the refill, from the conflict copy")
        #expect(try c.statuses(at: at) == ["Aspirin:taken", "Aspirin:upcoming"])
        // A reads its own copy: every line is its own, so nothing is applied twice and nothing said.
        let nowA = try a.ok("sync", "now", now: at)
        #expect(nowA.err.isEmpty, "\(nowA.err)")
        #expect(try device(a) == deviceA)
        #expect(try stock(a) == 39)
        // Read again: still once.
        try c.ok("sync", "now", now: at)
        #expect(try stock(c) == 39)
        let history = try c.ok("history", "--json", "--from", "2026-11-22", "--to", "2026-11-22", now: at).json
        #expect(((history as? [[String: Any]])?.first?["duplicates"] as? Int ?? 0) == 0, "\(String(describing: history))")
    }

    @Test("the own file is never written through a symbolic link, and a FIFO among the device files blocks nothing")
    func linksAndFifos() throws {
        let a = Harness(), c = Harness()
        defer { remove(a, c) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try c.ok("sync", "init", shared)
        let deviceA = try device(a), deviceC = try device(c)
        let own = shared + "/dosebar/" + deviceA + ".jsonl"
        let victim = a.root + "/victim.txt"
        try "mine\n".write(toFile: victim, atomically: true, encoding: .utf8)
        #expect(unlink(own) == 0 && symlink(victim, own) == 0)

        let take = try a.run(["take", "Aspirin"], now: "2026-11-22T08:05:00+09:00")
        #expect(take.err.contains("symbolic link"), "\(take.status) \(take.err)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "mine\n")
        let now = try a.run(["sync", "now"], now: "2026-11-22T08:06:00+09:00")
        #expect(now.status == 74 && now.err.contains(own) && now.err.contains("symbolic link"), "\(now.status) \(now.err)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "mine\n")

        // C: a FIFO named like a device file, and a link to a private file, beside A's real file.
        #expect(unlink(own) == 0)
        try a.ok("sync", "now", now: "2026-11-22T08:07:00+09:00")
        #expect(mkfifo(shared + "/dosebar/0123456789abcdef.jsonl", 0o600) == 0)
        #expect(symlink(victim, shared + "/dosebar/fedcba9876543210.jsonl") == 0)
        let started = Date()
        let nowC = try c.run(["sync", "now"], now: "2026-11-22T08:08:00+09:00")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(nowC.status == 0, "\(nowC.err)")
        #expect(nowC.err.contains("0123456789abcdef.jsonl: is not a regular file"), "\(nowC.err)")
        #expect(nowC.err.contains("fedcba9876543210.jsonl: is a symbolic link"), "\(nowC.err)")
        #expect(try c.statuses(at: "2026-11-22T08:08:00+09:00") == ["Aspirin:taken"], "A's file still applied")
        // A FIFO in the place of a file C had read (C keeps where it stopped, and what came before).
        #expect(unlink(own) == 0 && mkfifo(own, 0o600) == 0)
        let again = Date()
        let nowFifo = try c.run(["sync", "now"], now: "2026-11-22T08:09:00+09:00")
        #expect(Date().timeIntervalSince(again) < 30)
        #expect(nowFifo.status == 0 && nowFifo.err.contains(deviceA + ".jsonl: is not a regular file"), "\(nowFifo.err)")
        _ = deviceC
    }

    @Test("a purged medicine's lines, left in a conflict copy made before the purge, are not taken for another machine's")
    func purgeIsNotAClone() throws {
        let a = Harness()
        defer { remove(a) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Zebrafoxium", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try a.ok("take", "Zebrafoxium", "--at", "08:05", now: at)
        let deviceA = try device(a)
        let file = shared + "/dosebar/" + deviceA + ".jsonl"
        let copy = shared + "/dosebar/" + deviceA + ".sync-conflict-20261122-123000-ABCDEFG.jsonl"
        try String(contentsOfFile: file, encoding: .utf8).write(toFile: copy, atomically: true, encoding: .utf8)
        try a.ok("purge", "Zebrafoxium", "--yes", now: at)
        let now = try a.ok("sync", "now", now: at)
        #expect(!now.err.contains("copied"), "\(now.err)")
        #expect(try device(a) == deviceA)
        #expect(try a.statuses(at: at) == ["Aspirin:late"])
    }

    @Test("a restore on a syncing machine keeps what it wrote after the backup, and is not taken for a copied home")
    func restoreIsNotAClone() throws {
        let a = Harness(), c = Harness()
        defer { remove(a, c) }
        let shared = a.root + "/Sync"
        try a.ok("add", "Aspirin", "--at", "08:00,20:00", "--from", "2026-11-01")
        try a.ok("sync", "init", shared)
        try c.ok("sync", "init", shared)
        try a.ok("backup", a.root + "/a.sqlite")
        let deviceA = try device(a)
        try a.ok("take", "Aspirin", "--at", "08:05", now: at)
        try a.ok("restore", a.root + "/a.sqlite")
        let now = try a.ok("sync", "now", now: at)
        #expect(!now.err.contains("copied"), "\(now.err)")
        #expect(try device(a) == deviceA)
        try c.ok("sync", "now", now: at)
        #expect(try a.statuses(at: at) == ["Aspirin:taken", "Aspirin:upcoming"], "the take after the backup is back")
        #expect(try c.statuses(at: at) == ["Aspirin:taken", "Aspirin:upcoming"])
    }
}
