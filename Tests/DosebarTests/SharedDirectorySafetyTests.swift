import Foundation
import Glibc
import Testing

/// The shared directory is dosebar's own (DESIGN §9), end to end with the real binary: `--dir`,
/// `DOSEBAR_DIR` and the default location aimed at directories full of the user's files, at ones
/// others can write, at symlinks and other users' directories, and bar files replaced by
/// symlinks, FIFOs and directories. Nothing of the user's is changed, replaced or removed.
@Suite struct SharedDirectorySafetyTests {
    static let now = "2026-11-22T08:30:00+09:00"

    /// A harness with Aspirin due at 08:00 (its own shared directory written by `add`). It is added
    /// at 07:00, before that slot: a medicine is tracked from the instant it is added (DESIGN §3).
    func world() throws -> Harness {
        let h = Harness(now: Self.now)
        try h.ok("add", "Aspirin", "--at", "08:00", now: "2026-11-22T07:00:00+09:00")
        return h
    }

    /// A pid no process has.
    static let deadPID: Int32 = {
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        return pid
    }()

    func file(_ path: String, _ text: String, mode: mode_t = 0o600) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) && chmod(path, mode) == 0, "\(path)")
    }

    func directory(_ path: String, mode: mode_t) {
        #expect(mkdir(path, 0o700) == 0 && chmod(path, mode) == 0, "\(path)")
    }

    func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    /// `dosebar args…`, killed after 20 s: an old dosebar blocks for ever opening a FIFO planted as a bar file.
    func run(_ h: Harness, _ args: [String], extra: [String: String] = [:]) throws -> Fault.Exit {
        try Fault.dosebar(h, args, extra: extra, timeout: 20)
    }

    func kind(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }

    func bits(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
    }

    @Test func aDirectoryFullOfTheUsersFilesIsRefusedAndSurvivesByteForByte() throws {
        let h = try world()
        let mine = h.root + "/mine", victim = h.root + "/victim"
        file(victim, "precious")
        directory(mine, mode: 0o700)
        file(mine + "/notes.txt", "dear diary\n", mode: 0o644)
        file(mine + "/waybar.json", "{\"my\": \"own waybar.json\"}\n")
        file(mine + "/.backup.2024.12", "a backup")
        file(mine + "/.photo.31337.cafe", "a photo")
        file(mine + "/.photo.\(Self.deadPID).cafe", "another photo")
        file(mine + "/.snapshot.json.\(Self.deadPID).1f2e", "looks like an old temporary")
        file(mine + "/.dosebar-tmp.waybar.json.\(Self.deadPID).1f2e", "looks like dosebar's, but no marker")
        directory(mine + "/album", mode: 0o755)
        file(mine + "/album/1.jpg", "jpeg")
        #expect(symlink(victim, mine + "/snapshot.txt") == 0)
        #expect(mkfifo(mine + "/tmux.txt", 0o600) == 0)
        let before = DirectorySnapshot(mine)

        for args in [["export", "--dir", mine], ["export"], ["daemon"], ["watch", "--format", "waybar"]] {
            let r = try run(h, args, extra: ["DOSEBAR_DIR": mine])
            #expect(r.status == 78, "\(args): \(r.status) \(r.err)")
            #expect(lines(r.err).count == 1 && r.err.contains(mine) && r.err.contains("not dosebar's"), "\(args): \(r.err)")
        }
        // A take is kept (DESIGN §9's one exception) and says the bar was not updated.
        let take = try run(h, ["take", "Aspirin", "--dir", mine])
        #expect(take.status == 0 && lines(take.err).count == 1 && take.err.contains("not updated"), "\(take.err)")
        #expect(try h.statuses().contains("Aspirin:taken"))
        let doctor = try run(h, ["doctor", "--dir", mine])
        #expect(doctor.status == 1)
        #expect(lines(doctor.out).contains { $0.hasPrefix("FIX") && $0.contains(mine) && $0.contains("not dosebar's") }, "\(doctor.out)")

        let after = DirectorySnapshot(mine)
        #expect(after == before, "the user's directory changed:\n\(after.changes(since: before))")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test(arguments: [0o1777, 0o770] as [mode_t])
    func aDirectoryOthersCanWriteIsRefusedWithItsModeUnchanged(_ mode: mode_t) throws {
        let h = try world()
        let shared = h.root + "/open"
        directory(shared, mode: mode)
        let before = DirectorySnapshot(shared)
        for args in [["export"], ["daemon"]] {
            let r = try run(h, args, extra: ["DOSEBAR_DIR": shared])
            #expect(r.status == 78, "\(args): \(r.status) \(r.err)")
            #expect(lines(r.err).count == 1 && r.err.contains(shared) && r.err.contains("mode \(String(mode, radix: 8))"), "\(r.err)")
        }
        #expect(bits(shared) == mode)
        #expect(DirectorySnapshot(shared) == before, "\(DirectorySnapshot(shared).changes(since: before))")
        let doctor = try run(h, ["doctor"], extra: ["DOSEBAR_DIR": shared])
        #expect(lines(doctor.out).contains { $0.hasPrefix("FIX") && $0.contains(shared) && $0.contains("written by") }, "\(doctor.out)")
    }

    @Test func anEmptyDirectoryIsAdoptedWithItsModeAndPrivateFiles() throws {
        let h = try world()
        let shared = h.root + "/empty"
        directory(shared, mode: 0o755)
        let r = try run(h, ["export"], extra: ["DOSEBAR_DIR": shared])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(bits(shared) == 0o755)
        for name in ScenarioGoldenTests.files + [".dosebar-shared"] {
            #expect(kind(shared + "/" + name) == S_IFREG && bits(shared + "/" + name) == 0o600, "\(name)")
        }
        #expect(try String(contentsOfFile: shared + "/snapshot.txt", encoding: .utf8).contains("Aspirin"))
    }

    @Test func aSymlinkOrAnotherUsersDirectoryIsRefused() throws {
        let h = try world()
        let real = h.root + "/real", link = h.root + "/link"
        directory(real, mode: 0o700)
        #expect(symlink(real, link) == 0)
        let r = try run(h, ["export", "--dir", link])
        #expect(r.status == 78 && lines(r.err).count == 1 && r.err.contains("symlink"), "\(r.err)")
        #expect(DirectorySnapshot(real).entries.isEmpty)

        guard geteuid() == 0 else { return }  // only root can give a directory to someone else
        let theirs = h.root + "/theirs"
        directory(theirs, mode: 0o755)
        #expect(chown(theirs, 65534, 65534) == 0)
        let before = DirectorySnapshot(theirs)
        let t = try run(h, ["export", "--dir", theirs])
        #expect(t.status == 78 && lines(t.err).count == 1 && t.err.contains("owned by"), "\(t.err)")
        #expect(DirectorySnapshot(theirs) == before)
    }

    @Test func aSymlinkFIFOOrDirectoryInPlaceOfABarFileIsLeftAloneAndTheRestKeptCurrent() throws {
        let h = try world()
        let victim = h.root + "/victim"
        file(victim, "precious")
        #expect(unlink(h.dir + "/waybar.json") == 0 && symlink(victim, h.dir + "/waybar.json") == 0)
        #expect(unlink(h.dir + "/tmux.txt") == 0 && mkfifo(h.dir + "/tmux.txt", 0o600) == 0)
        #expect(unlink(h.dir + "/polybar.txt") == 0)
        directory(h.dir + "/polybar.txt", mode: 0o700)
        file(h.dir + "/polybar.txt/inside", "kept")
        let placed = ["waybar.json", "tmux.txt", "polybar.txt"].map { DirectorySnapshot(h.dir + "/" + $0) }

        // The take is kept and warns in one line naming each; the other files show it.
        let take = try run(h, ["take", "Aspirin"])
        #expect(take.status == 0, "\(take.err)")
        #expect(lines(take.err).count == 1 && ["waybar.json", "tmux.txt", "polybar.txt", "symlink", "FIFO", "directory"].allSatisfy(take.err.contains),
                "\(take.err)")
        #expect(try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8).contains("1/1"))
        #expect(try String(contentsOfFile: h.dir + "/conky.txt", encoding: .utf8).contains("Aspirin"))
        // `export` says so and exits 78; `doctor` names it.
        let export = try run(h, ["export"])
        #expect(export.status == 78 && lines(export.err).count == 1 && export.err.contains(h.dir + "/waybar.json"), "\(export.err)")
        let doctor = try run(h, ["doctor"])
        #expect(lines(doctor.out).contains { $0.hasPrefix("FIX") && $0.contains(h.dir + "/waybar.json") && $0.contains("symlink") }, "\(doctor.out)")
        for (name, was) in zip(["waybar.json", "tmux.txt", "polybar.txt"], placed) {
            #expect(DirectorySnapshot(h.dir + "/" + name) == was, "\(name) was replaced")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")

        // Once the user removes them, the bar files are written again.
        for name in ["waybar.json", "tmux.txt", "polybar.txt/inside", "polybar.txt"] { #expect(remove(h.dir + "/" + name) == 0) }
        let again = try run(h, ["export"])
        #expect(again.status == 0 && again.err.isEmpty, "\(again.err)")
        for name in ["waybar.json", "tmux.txt", "polybar.txt"] {
            #expect(kind(h.dir + "/" + name) == S_IFREG && bits(h.dir + "/" + name) == 0o600, "\(name)")
        }
    }

    /// The daemon keeps the other files current and notifications going; it names the file once.
    @Test func theDaemonWarnsOnceAboutAFileLeftAlone() throws {
        let h = try DaemonTest.harness()
        #expect(unlink(h.dir + "/waybar.json") == 0 && symlink("/etc/hostname", h.dir + "/waybar.json") == 0)
        let d = try DaemonTest.startDaemon(h)
        defer { if d.process.isRunning { d.signal(SIGKILL) } }
        let before = try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8)
        try h.ok("take", "Ibuprofen")
        // The daemon refreshes again after the take it sees in the database.
        let refreshed = DaemonTest.waitUntil(10) {
            d.signal(SIGUSR1)
            usleep(100_000)
            return (DaemonTest.counter("refreshes", in: d.stderr) ?? 0) >= 2
        }
        #expect(refreshed, "\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitExit() == 0, "\(d.stderr)")
        let warnings = lines(d.stderr).filter { $0.contains("waybar.json") }
        #expect(warnings.count == 1 && warnings[0].contains("symlink"), "\(d.stderr)")
        #expect(kind(h.dir + "/waybar.json") == S_IFLNK)
        #expect(try String(contentsOfFile: h.dir + "/snapshot.json", encoding: .utf8) != before)
    }

    @Test func lookalikeTemporariesSurviveAndDosebarsOwnStaleOnesAreRemoved() throws {
        let h = try world()
        let dead = Self.deadPID
        let own = ".dosebar-tmp.snapshot.json.\(dead).1f2e"
        file(h.dir + "/" + own, "half written")
        let theirs = [".backup.2024.12", ".photo.31337.cafe", ".photo.\(dead).cafe", ".waybar.json.\(dead).1f2e",
                      ".dosebar-tmp.notes.\(dead).xyz"]
        for name in theirs { file(h.dir + "/" + name, "user's \(name)", mode: 0o644) }
        let before = DirectorySnapshot(h.dir)
        let r = try run(h, ["export"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(kind(h.dir + "/" + own) == nil, "dosebar's own stale temporary stays")
        for name in theirs {
            #expect(DirectorySnapshot(h.dir).entries[name] == before.entries[name], "\(name) changed or went")
        }
    }

    /// Users' bars already point at a directory an older dosebar made (no marker): an upgrade
    /// keeps writing it, and adopts it.
    @Test func aDirectoryAnOlderDosebarMadeIsAdoptedOnUpgrade() throws {
        let h = try world()
        #expect(unlink(h.dir + "/.dosebar-shared") == 0)
        let stale = ".waybar.json.\(Self.deadPID).1f2e"
        file(h.dir + "/" + stale, "an older writer's")
        #expect(bits(h.dir) == 0o700)
        let take = try run(h, ["take", "Aspirin"])
        #expect(take.status == 0 && take.err.isEmpty, "\(take.err)")
        #expect(kind(h.dir + "/.dosebar-shared") == S_IFREG && bits(h.dir + "/.dosebar-shared") == 0o600)
        #expect(kind(h.dir + "/" + stale) == nil)
        #expect(try String(contentsOfFile: h.dir + "/snapshot.txt", encoding: .utf8).contains("1/1"))
        #expect(bits(h.dir) == 0o700)
    }

    @Test func theDefaultDirectoriesFollowTheSameRules() throws {
        let h = try world()
        var env = h.env
        env["DOSEBAR_DIR"] = nil
        // $XDG_RUNTIME_DIR/dosebar, then the state fallback (no XDG_RUNTIME_DIR).
        let runtime = h.root + "/run"
        directory(runtime, mode: 0o700)
        let fallback = h.root + "/.local/state/dosebar/shared"
        try FileManager.default.createDirectory(atPath: fallback, withIntermediateDirectories: true)
        // Modes set, not left to the umask: tests of other suites in this process set it to 0 for a
        // moment (SharedDirectoryTests, FileIOTests), and a fallback made then was 0777 (refused).
        for path in [h.root + "/.local", h.root + "/.local/state", h.root + "/.local/state/dosebar"] { chmod(path, 0o755) }
        chmod(fallback, 0o700)
        for (dir, runtimeDir) in [(runtime + "/dosebar", runtime as String?), (fallback, nil)] {
            if kind(dir) == nil { directory(dir, mode: 0o700) }
            file(dir + "/notes.txt", "mine")
            let before = DirectorySnapshot(dir)
            var e = env
            e["XDG_RUNTIME_DIR"] = runtimeDir
            let r = try Fault.run("/usr/bin/env", [Harness.binary, "export"], env: e, timeout: 60)
            #expect(r.status == 78 && r.err.contains(dir) && r.err.contains("not dosebar's"), "\(r.err)")
            #expect(DirectorySnapshot(dir) == before)
            // Emptied, it is adopted.
            #expect(unlink(dir + "/notes.txt") == 0)
            let ok = try Fault.run("/usr/bin/env", [Harness.binary, "export", "--quiet"], env: e, timeout: 60)
            #expect(ok.status == 0, "\(ok.err)")
            #expect(kind(dir + "/.dosebar-shared") == S_IFREG && kind(dir + "/waybar.json") == S_IFREG)
        }
    }
}
