@testable import DoseCore
import DoseExport
import DoseTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The shared-directory writer, in temporary directories. Serialized: one test changes the umask.
@Suite(.serialized) struct SharedDirectoryTests {
    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func entries(_ dir: SharedDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    func expectConfigError(_ dir: SharedDirectory, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try dir.prepare()
            Issue.record("prepare() accepted \(dir.path)", sourceLocation: sourceLocation)
        } catch let error as DosebarError {
            guard case .config(let message) = error else {
                Issue.record("expected .config, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(!message.contains("\n"), sourceLocation: sourceLocation)
            for word in [dir.path] + words {
                #expect(message.contains(word), "\(message) should mention \(word)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func prepareCreatesMissingParentsPrivately() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let old = umask(0)
        defer { umask(old) }
        let dir = SharedDirectory(path: temp.path + "/a/b/dosebar/")
        #expect(try dir.prepare() == .created)
        #expect(dir.path == temp.path + "/a/b/dosebar")
        #expect(mode(temp.path + "/a") == 0o700)
        #expect(mode(temp.path + "/a/b") == 0o700)
        #expect(mode(dir.path) == 0o700)
        // The marker says whose the directory is, privately.
        let marker = dir.path(of: SharedDirectory.markerName)
        #expect(marker.hasSuffix("/.dosebar-shared"))
        #expect(fileStatus(marker).map { $0.st_mode & S_IFMT == S_IFREG } == true)
        #expect(mode(marker) == 0o600)
        let text = try #require(read(marker))
        #expect(text.contains("dosebar") && text.hasSuffix("\n") && text.split(separator: "\n").count == 1, "\(text)")
        #expect(entries(dir) == [".dosebar-shared"])
        #expect(try dir.prepare() == .alreadyDosebars)  // idempotent
        #expect(read(marker) == text)
    }

    @Test func prepareRefusesASymlink() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        #expect(mkdir(temp.path + "/real", 0o700) == 0)
        #expect(symlink(temp.path + "/real", temp.path + "/link") == 0)
        expectConfigError(SharedDirectory(path: temp.path + "/link"), mentioning: ["symlink"])
        #expect(throws: DosebarError.self) {
            try SharedDirectory(path: temp.path + "/link").write(name: "snapshot.txt", contents: "x\n")
        }
        #expect(fileStatus(temp.path + "/real/snapshot.txt") == nil, "nothing written through the symlink")
    }

    @Test func prepareRefusesADirectoryOfAnotherUser() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let path = temp.path + "/theirs"
        #expect(mkdir(path, 0o700) == 0)
        try #require(chown(path, 65534, 65534) == 0, "chown needs root")
        expectConfigError(SharedDirectory(path: path), mentioning: ["uid 65534", "uid \(geteuid())"])
        #expect(fileStatus(path)?.st_uid == 65534)
    }

    @Test func prepareRefusesAFile() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let path = temp.path + "/file"
        try "x".write(toFile: path, atomically: false, encoding: .utf8)
        expectConfigError(SharedDirectory(path: path), mentioning: ["not a directory"])
    }

    @Test func writeIsAtomicAndPrivate() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let old = umask(0)
        defer { umask(old) }
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        #expect(try dir.write(name: "snapshot.txt", contents: "one\n"))
        let first = try #require(fileStatus(dir.path(of: "snapshot.txt")))
        #expect(first.st_mode & 0o7777 == 0o600)
        #expect(try dir.write(name: "snapshot.txt", contents: "two\n"))
        let second = try #require(fileStatus(dir.path(of: "snapshot.txt")))
        #expect(second.st_ino != first.st_ino, "replaced by rename, not rewritten in place")
        #expect(second.st_mode & 0o7777 == 0o600)
        #expect(read(dir.path(of: "snapshot.txt")) == "two\n")
        #expect(entries(dir) == [".dosebar-shared", "snapshot.txt"], "no temporary file left behind")
    }

    @Test func unchangedContentIsNotRewritten() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        #expect(try dir.write(name: "tmux.txt", contents: "#[fg=#e5484d]x#[default]\n"))
        let before = try #require(fileStatus(dir.path(of: "tmux.txt")))
        usleep(20_000)
        #expect(try dir.write(name: "tmux.txt", contents: "#[fg=#e5484d]x#[default]\n") == false)
        let after = try #require(fileStatus(dir.path(of: "tmux.txt")))
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(after.st_ctim.tv_nsec == before.st_ctim.tv_nsec)
    }

    @Test func aFileWithLooseModeIsRewrittenEvenIfEqual() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        try dir.write(name: "snapshot.txt", contents: "same\n")
        #expect(chmod(dir.path(of: "snapshot.txt"), 0o644) == 0)
        #expect(try dir.write(name: "snapshot.txt", contents: "same\n"))
        #expect(mode(dir.path(of: "snapshot.txt")) == 0o600)
    }

    @Test func timelineChangeOfGeneratedAtAloneIsSkipped() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        let timeline = Fixtures.timeline([Fixtures.newYork])
        var regenerated = timeline
        regenerated.generatedAt = Fixtures.at("2026-03-09", "13:31", Fixtures.newYorkEDT)
        let first = try TimelineJSON.text(timeline) + "\n"
        #expect(try dir.write(name: "timeline.json", contents: first))
        let before = try #require(fileStatus(dir.path(of: "timeline.json")))
        #expect(try dir.write(name: "timeline.json", contents: TimelineJSON.text(regenerated) + "\n") == false)
        #expect(fileStatus(dir.path(of: "timeline.json"))?.st_ino == before.st_ino)
        #expect(read(dir.path(of: "timeline.json")) == first, "the old generated_at stays")

        // A real change is written, with its new generated_at.
        regenerated.entries[0].progress = 60
        let changed = try TimelineJSON.text(regenerated) + "\n"
        #expect(try dir.write(name: "timeline.json", contents: changed))
        #expect(read(dir.path(of: "timeline.json")) == changed)

        // Other files get no such leniency.
        try dir.write(name: "other.json", contents: first)
        #expect(try dir.write(name: "other.json", contents: TimelineJSON.text(regenerated.withGeneratedAt(timeline.generatedAt)) + "\n"))
    }

    @Test func badNamesAreRefused() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path)
        for name in ["", ".", "..", "../x", "a/b"] {
            #expect(throws: DosebarError.self) { try dir.write(name: name, contents: "x") }
        }
    }

    /// ENOSPC on a 64 KiB tmpfs, then EROFS on the same mount made read-only: each time
    /// an `.io` error of one line, the old file whole, no temporary file left.
    @Test(.enabled(if: TmpfsProbe.available, "needs root with CAP_SYS_ADMIN to mount a tmpfs; a missing mount tool fails under CI (TmpfsProbe)"))
    func fullAndReadOnlyDisks() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let mount = temp.path + "/mnt"
        #expect(mkdir(mount, 0o700) == 0)
        try #require(try run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mount]).status == 0)
        defer { _ = try? run(["umount", mount]) }

        let dir = SharedDirectory(path: mount + "/dosebar")
        try dir.prepare()
        let old = "old snapshot\n"
        try dir.write(name: "snapshot.json", contents: old)

        func expectIOError(_ fragment: String, _ contents: String, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                try dir.write(name: "snapshot.json", contents: contents)
                Issue.record("the write succeeded", sourceLocation: sourceLocation)
            } catch DosebarError.io(let message) {
                #expect(message.contains(dir.path(of: "snapshot.json")), "\(message)", sourceLocation: sourceLocation)
                #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation)
                #expect(!message.contains("\n"), sourceLocation: sourceLocation)
            } catch {
                Issue.record("expected DosebarError.io, got \(error)", sourceLocation: sourceLocation)
            }
            #expect(read(dir.path(of: "snapshot.json")) == old, "the old file stays whole", sourceLocation: sourceLocation)
            #expect(entries(dir) == [".dosebar-shared", "snapshot.json"], "the temporary file is removed", sourceLocation: sourceLocation)
        }

        expectIOError("No space left on device", String(repeating: "x", count: 256 * 1024))
        try #require(try run(["mount", "-o", "remount,ro", mount]).status == 0)
        expectIOError("Read-only file system", "new snapshot\n")
    }
}

extension Timeline {
    func withGeneratedAt(_ instant: LocalInstant) -> Timeline {
        var copy = self
        copy.generatedAt = instant
        return copy
    }
}


/// The shared directory is dosebar's own (DESIGN §9): what it adopts, what it refuses, and that
/// nothing of the user's is changed, replaced or removed.
@Suite struct SharedDirectoryOwnershipTests {
    /// Every entry of a directory: type, permission bits, owner, inode and bytes (a symlink: its target).
    struct Tree: Equatable, CustomStringConvertible {
        var entries: [String: String] = [:]
        init(_ path: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let full = path + "/" + name
                guard let st = fileStatus(full) else { continue }
                var content = ""
                switch st.st_mode & S_IFMT {
                case S_IFREG: content = (try? Data(contentsOf: URL(fileURLWithPath: full))).map { $0.base64EncodedString() } ?? "?"
                case S_IFLNK: content = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?"
                case S_IFDIR: content = Tree(full).description
                default: break
                }
                entries[name] = "\(String(st.st_mode, radix: 8)) uid \(st.st_uid) ino \(st.st_ino) \(content)"
            }
        }
        var description: String { entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") }
    }

    /// A pid no process has.
    static let deadPID: Int32 = {
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        return pid
    }()

    func make(_ path: String, mode: mode_t) {
        #expect(mkdir(path, 0o700) == 0 && chmod(path, mode) == 0)
    }

    func file(_ path: String, _ text: String, mode: mode_t = 0o600) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) && chmod(path, mode) == 0)
    }

    func refusal(_ dir: SharedDirectory) -> String? {
        do {
            try dir.prepare()
            return nil
        } catch DosebarError.config(let message) {
            return message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func anEmptyDirectoryIsAdoptedWithItsModeAsItIs() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        make(dir.path, mode: 0o755)
        #expect(try dir.prepare() == .adoptedEmpty)
        #expect(mode(dir.path) == 0o755, "the mode of a directory dosebar did not create is the user's")
        #expect(mode(dir.path(of: SharedDirectory.markerName)) == 0o600)
        try dir.write(name: "snapshot.txt", contents: "x\n")
        #expect(mode(dir.path(of: "snapshot.txt")) == 0o600, "the files stay private in a 0755 directory")
        #expect(try dir.prepare() == .alreadyDosebars)
        #expect(mode(dir.path) == 0o755)
    }

    @Test(arguments: [0o1777, 0o777, 0o770, 0o775, 0o720, 0o702, 0o2770] as [mode_t])
    func aDirectoryOthersCanWriteIsRefusedAndKeepsItsMode(_ bits: mode_t) throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        make(dir.path, mode: bits)
        let message = try #require(refusal(dir), "mode \(String(bits, radix: 8)) was adopted")
        #expect(message.contains(dir.path) && message.contains("mode \(String(bits, radix: 8))") && !message.contains("\n"), "\(message)")
        #expect(mode(dir.path) == bits)
        #expect(Tree(dir.path).entries.isEmpty, "nothing written")
        // Already dosebar's makes no difference.
        file(dir.path(of: SharedDirectory.markerName), "x")
        #expect(refusal(dir) != nil)
        #expect(mode(dir.path) == bits)
    }

    @Test func aDirectoryOfTheUsersFilesIsRefusedAndLeftByteForByte() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/mine")
        make(dir.path, mode: 0o700)
        file(dir.path(of: "notes.txt"), "dear diary", mode: 0o644)
        file(dir.path(of: "waybar.json"), "{\"my\": \"own\"}", mode: 0o600)
        file(dir.path(of: ".backup.2024.12"), "backup")
        file(dir.path(of: ".photo.\(Self.deadPID).cafe"), "photo")
        file(dir.path(of: ".photo.31337.cafe"), "photo")
        file(dir.path(of: ".dosebar-tmp.waybar.json.\(Self.deadPID).1f2e"), "not dosebar's: no marker")
        #expect(mkdir(dir.path(of: "album"), 0o700) == 0)
        file(dir.path(of: "album/1.jpg"), "jpeg")
        #expect(symlink("/etc/hostname", dir.path(of: "snapshot.txt")) == 0)
        let before = Tree(dir.path)
        let message = try #require(refusal(dir))
        #expect(message.contains(dir.path) && message.contains(".dosebar-shared") && message.contains("more") && !message.contains("\n"), "\(message)")
        #expect(SharedDirectory(path: dir.path).removeStaleTemporaries() == 0)
        #expect(throws: DosebarError.self) { try dir.write(name: "waybar.json", contents: "{}\n") }
        #expect(throws: DosebarError.self) { try Exporter().export(Fixtures.timeline([Fixtures.newYork]), now: Fixtures.newYork.at.date, to: dir) }
        #expect(Tree(dir.path) == before, "\(Tree(dir.path))\nwas\n\(before)")
        #expect(mode(dir.path) == 0o700)
    }

    @Test func aDirectoryAnOlderDosebarMadeIsAdopted() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/dosebar")
        make(dir.path, mode: 0o700)
        for name in Exporter.fileNames + [".lock", "daemon.lock"] { file(dir.path(of: name), "old \(name)") }
        let stale = ".snapshot.json.\(Self.deadPID).1f2e", live = ".waybar.json.\(getpid()).abcd"
        file(dir.path(of: stale), "half")
        file(dir.path(of: live), "being written")
        #expect(try dir.prepare() == .adoptedFromOlderDosebar)
        #expect(mode(dir.path) == 0o700)
        #expect(mode(dir.path(of: SharedDirectory.markerName)) == 0o600)
        #expect(fileStatus(dir.path(of: stale)) == nil, "a dead older writer's temporary is removed")
        #expect(read(dir.path(of: live)) == "being written", "a live writer's is not")
        #expect(read(dir.path(of: "waybar.json")) == "old waybar.json")
        #expect(try dir.prepare() == .alreadyDosebars)
        // From now on its files are rewritten as usual.
        #expect(try dir.write(name: "waybar.json", contents: "{}\n"))
    }

    /// Only the fingerprint of an older dosebar's directory is adopted: mode 0700 and nothing but
    /// its own names, regular files of the user's readable by nobody else.
    @Test func aLookalikeOfAnOlderDosebarDirectoryIsRefused() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        var cases: [(String, (String) -> Void)] = []
        cases.append(("0755", { d in chmod(d, 0o755); self.file(d + "/waybar.json", "{}") }))
        cases.append(("a 0644 file", { d in self.file(d + "/waybar.json", "{}", mode: 0o644) }))
        cases.append(("another name", { d in self.file(d + "/waybar.json", "{}"); self.file(d + "/notes.txt", "x") }))
        cases.append(("a symlink", { d in _ = symlink("/etc/hostname", d + "/waybar.json") }))
        cases.append(("a directory", { d in _ = mkdir(d + "/timeline.json", 0o700) }))
        cases.append(("a FIFO", { d in _ = mkfifo(d + "/tmux.txt", 0o600) }))
        cases.append(("a temporary of another name", { d in self.file(d + "/.notes.txt.\(Self.deadPID).1f2e", "x") }))
        cases.append(("a temporary with a bad tail", { d in self.file(d + "/.waybar.json.\(Self.deadPID).xyz", "x") }))
        for (index, (what, fill)) in cases.enumerated() {
            let dir = SharedDirectory(path: temp.path + "/d\(index)")
            make(dir.path, mode: 0o700)
            fill(dir.path)
            let before = Tree(dir.path), bits = mode(dir.path)
            #expect(refusal(dir) != nil, "\(what) was adopted")
            #expect(Tree(dir.path) == before, "\(what): changed")
            #expect(mode(dir.path) == bits, "\(what): mode changed")
        }
    }

    @Test func whatDosebarDidNotWriteIsLeftAloneAndTheRestWritten() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        let victim = temp.path + "/victim"
        file(victim, "precious")
        #expect(symlink(victim, dir.path(of: "waybar.json")) == 0)
        #expect(mkfifo(dir.path(of: "tmux.txt"), 0o600) == 0)
        #expect(mkdir(dir.path(of: "polybar.txt"), 0o700) == 0)
        file(dir.path(of: "polybar.txt/inside"), "kept")
        let before = Tree(dir.path)

        let outcome = try Exporter().write(Fixtures.timeline([Fixtures.newYork]), now: Fixtures.newYork.at.date, to: dir)
        #expect(outcome.changed == Exporter.fileNames.filter { !["waybar.json", "tmux.txt", "polybar.txt"].contains($0) })
        #expect(outcome.leftAlone.count == 3)
        for (name, what) in [("waybar.json", "symlink"), ("polybar.txt", "directory"), ("tmux.txt", "FIFO")] {
            #expect(outcome.leftAlone.contains { $0.contains(dir.path(of: name)) && $0.contains(what) && !$0.contains("\n") }, "\(outcome.leftAlone)")
            #expect(Tree(dir.path).entries[name] == before.entries[name], "\(name) was replaced")
        }
        #expect(read(victim) == "precious")
        #expect(read(dir.path(of: "snapshot.txt")) != nil)
        #expect(throws: DosebarError.config(outcome.leftAlone.joined(separator: "; "))) {
            try Exporter().export(Fixtures.timeline([Fixtures.newYork]), now: Fixtures.newYork.at.date, to: dir)
        }
        #expect(throws: DosebarError.self) { try dir.write(name: "waybar.json", contents: "{}\n") }
        #expect(read(victim) == "precious")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func anotherUsersFileIsLeftAlone() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        file(dir.path(of: "waybar.json"), "theirs")
        #expect(chown(dir.path(of: "waybar.json"), 65534, 65534) == 0)
        #expect(throws: DosebarError.self) { try dir.write(name: "waybar.json", contents: "{}\n") }
        #expect(read(dir.path(of: "waybar.json")) == "theirs")
        #expect(fileStatus(dir.path(of: "waybar.json"))?.st_uid == 65534)
    }

    @Test func onlyDosebarsOwnStaleTemporariesAreRemoved() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        let dead = Self.deadPID
        let own = ".dosebar-tmp.snapshot.json.\(dead).1f2e"
        file(dir.path(of: own), "half")
        let kept = [".dosebar-tmp.waybar.json.\(getpid()).abcd",  // its writer is alive
                    ".backup.2024.12", ".photo.31337.cafe", ".photo.\(dead).cafe", ".snapshot.json.\(dead).1f2e",
                    ".dosebar-tmp.x.\(dead).xyz", ".dosebar-tmp.\(dead).1f", ".dosebar-tmp.a.\(dead).1f2e3d4c5",
                    ".dosebar-tmp.a.-\(dead).1f", ".dosebar-tmp.a.\(dead).1F"]
        for name in kept { file(dir.path(of: name), name) }
        #expect(mkdir(dir.path(of: ".dosebar-tmp.b.\(dead).1f"), 0o700) == 0)
        #expect(symlink(temp.path, dir.path(of: ".dosebar-tmp.c.\(dead).1f")) == 0)
        let before = Tree(dir.path).entries.filter { $0.key != own }
        #expect(dir.removeStaleTemporaries() == 1)
        #expect(fileStatus(dir.path(of: own)) == nil)
        #expect(Tree(dir.path).entries == before)

        // Not in a directory that is not dosebar's, whatever the name.
        #expect(unlink(dir.path(of: SharedDirectory.markerName)) == 0)
        file(dir.path(of: own), "half")
        #expect(dir.removeStaleTemporaries() == 0)
        #expect(read(dir.path(of: own)) == "half")
    }

    @Test func aWriteNeedsADirectoryThatIsDosebars() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/shared")
        make(dir.path, mode: 0o700)
        #expect(throws: DosebarError.self) { try dir.write(name: "snapshot.txt", contents: "x\n") }
        #expect(Tree(dir.path).entries.isEmpty)
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
}
