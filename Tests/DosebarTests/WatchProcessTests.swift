import Foundation
import Glibc
import Testing

/// The real `dosebar watch`: a line at start, one per change, through a directory that may come and go.
@Suite("Watch process", .serialized)
struct WatchProcessTests {
    /// A harness on a fixed clock (no daemon involved: `take` rewrites the files itself). The
    /// medicines are added at 07:00, before Aspirin's 08:00 slot, so that slot is tracked (DESIGN §3)
    /// and due at 08:30.
    func harness() throws -> Harness {
        let h = Harness(now: "2026-11-22T08:30:00+09:00")
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        try h.ok("add", "Magnesium", "--at", "21:00", now: "2026-11-22T07:00:00+09:00")
        return h
    }

    @Test("the current line at once, then one line per change and none for a rewrite without change")
    func linePerChange() throws {
        let h = try harness()
        try h.ok("export")
        let w = try LiveProcess(["watch", "--format", "text"], env: h.env, root: h.root, captureStdout: true)
        let first = w.readLine()
        #expect(first == (try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8)).trimmingCharacters(in: .newlines))
        try h.ok("export") // nothing changed: no line
        #expect(w.readLine(timeout: 0.5) == nil)
        try h.ok("take", "Aspirin")
        let second = w.readLine()
        #expect(second != nil && second != first)
        #expect(second == (try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8)).trimmingCharacters(in: .newlines))
        w.signal(SIGTERM)
        #expect(w.waitExit(timeout: 3) != nil, "watch did not end on SIGTERM")
    }

    @Test("waybar, polybar, tmux and json lines are the files; i3blocks is one JSON object; conky is refused")
    func formats() throws {
        let h = try harness()
        try h.ok("export")
        for (format, file) in [("waybar", "waybar.json"), ("polybar", "polybar.txt"), ("tmux", "tmux.txt"), ("json", "snapshot.json")] {
            let w = try LiveProcess(["watch", "--format", format], env: h.env, root: h.root, captureStdout: true)
            #expect(w.readLine() == (try String(contentsOfFile: h.dir + "/" + file, encoding: .utf8)).trimmingCharacters(in: .newlines))
            w.signal(SIGTERM)
            _ = w.waitExit()
        }
        let w = try LiveProcess(["watch", "--format", "i3blocks"], env: h.env, root: h.root, captureStdout: true)
        let line = try #require(w.readLine())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        let lines = try String(contentsOfFile: h.dir + "/i3blocks.txt", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(object["full_text"] == String(lines[0]))
        #expect(object["short_text"] == String(lines[1]))
        w.signal(SIGTERM)
        _ = w.waitExit()
        let conky = try h.run("watch", "--format", "conky")
        #expect(conky.status == 64)
        #expect(conky.err.contains("conky"))
    }

    @Test("survives the directory being removed and recreated")
    func recreatedDirectory() throws {
        let h = try harness()
        try h.ok("export")
        let w = try LiveProcess(["watch"], env: h.env, root: h.root, captureStdout: true)
        let first = try #require(w.readLine())
        try FileManager.default.removeItem(atPath: h.dir)
        usleep(100_000)
        try h.ok("take", "Aspirin") // recreates the directory with a new line
        let second = w.readLine()
        #expect(second != nil && second != first, "no line after the directory was recreated")
        // And once more, moved away this time.
        try FileManager.default.moveItem(atPath: h.dir, toPath: h.root + "/moved")
        usleep(100_000)
        try h.ok("undo")
        #expect(w.readLine() == first)
        w.signal(SIGTERM)
        _ = w.waitExit()
    }

    @Test("waits for a directory that does not exist yet")
    func directoryCreatedLater() throws {
        let h = try harness()
        var env = h.env
        // The first export fails (the database path is unusable), so nothing exists yet.
        env["DOSEBAR_DB"] = "/dev/null/none.sqlite"
        env["DOSEBAR_DIR"] = h.root + "/later/shared"
        let w = try LiveProcess(["watch"], env: env, root: h.root, captureStdout: true)
        #expect(DaemonTest.waitUntil(5) { w.stderr.contains("waiting for it") }, "stderr: \(w.stderr)")
        #expect(w.readLine(timeout: 0.3) == nil)
        try h.ok("export", "--dir", h.root + "/later/shared")
        let line = w.readLine()
        #expect(line == (try String(contentsOfFile: h.root + "/later/shared/snapshot.txt", encoding: .utf8)).trimmingCharacters(in: .newlines))
        w.signal(SIGTERM)
        _ = w.waitExit()
    }

    @Test("a missing file is exported once so the bar shows something at once")
    func exportsWhenMissing() throws {
        let h = try harness()
        let w = try LiveProcess(["watch", "--format", "waybar"], env: h.env, root: h.root, captureStdout: true)
        let line = try #require(w.readLine())
        #expect(line.hasPrefix("{\"text\":"))
        w.signal(SIGTERM)
        _ = w.waitExit()
    }

    @Test("exits 0 when its reader goes away, without waiting for a change")
    func readerGone() throws {
        let h = try harness()
        try h.ok("export")
        let w = try LiveProcess(["watch"], env: h.env, root: h.root, captureStdout: true)
        #expect(w.readLine() != nil)
        w.closeStdout()
        #expect(w.waitExit(timeout: 3) == 0, "stderr: \(w.stderr)")
        #expect(w.stderr.isEmpty)
    }
}
