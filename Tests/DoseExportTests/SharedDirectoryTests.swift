@testable import DoseCore
import DoseExport
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
        let temp = try TemporaryDirectory()
        let old = umask(0)
        defer { umask(old) }
        let dir = SharedDirectory(path: temp.path + "/a/b/dosebar/")
        try dir.prepare()
        #expect(dir.path == temp.path + "/a/b/dosebar")
        #expect(mode(temp.path + "/a") == 0o700)
        #expect(mode(temp.path + "/a/b") == 0o700)
        #expect(mode(dir.path) == 0o700)
        try dir.prepare()  // idempotent
    }

    @Test func prepareTightensAnExistingDirectory() throws {
        let temp = try TemporaryDirectory()
        let path = temp.path + "/shared"
        #expect(mkdir(path, 0o755) == 0)
        #expect(chmod(path, 0o755) == 0)
        try SharedDirectory(path: path).prepare()
        #expect(mode(path) == 0o700)
    }

    @Test func prepareRefusesASymlink() throws {
        let temp = try TemporaryDirectory()
        #expect(mkdir(temp.path + "/real", 0o700) == 0)
        #expect(symlink(temp.path + "/real", temp.path + "/link") == 0)
        expectConfigError(SharedDirectory(path: temp.path + "/link"), mentioning: ["symlink"])
        #expect(throws: DosebarError.self) {
            try SharedDirectory(path: temp.path + "/link").write(name: "snapshot.txt", contents: "x\n")
        }
        #expect(fileStatus(temp.path + "/real/snapshot.txt") == nil, "nothing written through the symlink")
    }

    @Test func prepareRefusesADirectoryOfAnotherUser() throws {
        let temp = try TemporaryDirectory()
        let path = temp.path + "/theirs"
        #expect(mkdir(path, 0o700) == 0)
        try #require(chown(path, 65534, 65534) == 0, "chown needs root")
        expectConfigError(SharedDirectory(path: path), mentioning: ["uid 65534", "uid \(geteuid())"])
        #expect(fileStatus(path)?.st_uid == 65534)
    }

    @Test func prepareRefusesAFile() throws {
        let temp = try TemporaryDirectory()
        let path = temp.path + "/file"
        try "x".write(toFile: path, atomically: false, encoding: .utf8)
        expectConfigError(SharedDirectory(path: path), mentioning: ["not a directory"])
    }

    @Test func writeIsAtomicAndPrivate() throws {
        let temp = try TemporaryDirectory()
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
        #expect(entries(dir) == ["snapshot.txt"], "no temporary file left behind")
    }

    @Test func unchangedContentIsNotRewritten() throws {
        let temp = try TemporaryDirectory()
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
        let temp = try TemporaryDirectory()
        let dir = SharedDirectory(path: temp.path + "/shared")
        try dir.prepare()
        try dir.write(name: "snapshot.txt", contents: "same\n")
        #expect(chmod(dir.path(of: "snapshot.txt"), 0o644) == 0)
        #expect(try dir.write(name: "snapshot.txt", contents: "same\n"))
        #expect(mode(dir.path(of: "snapshot.txt")) == 0o600)
    }

    @Test func timelineChangeOfGeneratedAtAloneIsSkipped() throws {
        let temp = try TemporaryDirectory()
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
        let temp = try TemporaryDirectory()
        let dir = SharedDirectory(path: temp.path)
        for name in ["", ".", "..", "../x", "a/b"] {
            #expect(throws: DosebarError.self) { try dir.write(name: name, contents: "x") }
        }
    }

    /// ENOSPC on a 64 KiB tmpfs, then EROFS on the same mount made read-only: each time
    /// an `.io` error of one line, the old file whole, no temporary file left.
    @Test(.enabled(if: TmpfsProbe.available, "needs root with CAP_SYS_ADMIN to mount a tmpfs; a missing mount tool fails under CI (TmpfsProbe)"))
    func fullAndReadOnlyDisks() throws {
        let temp = try TemporaryDirectory()
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
            #expect(entries(dir) == ["snapshot.json"], "the temporary file is removed", sourceLocation: sourceLocation)
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

@Suite struct StaleTemporaryTests {
    @Test func removesOnlyTemporariesOfDeadWriters() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dosebar-stale-" + UUID().uuidString).path
        let shared = SharedDirectory(path: dir)
        try shared.prepare()
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = dir + "/.snapshot.json.\(dead).1f2e"
        let live = dir + "/.waybar.json.\(getpid()).abcd"
        for f in [stale, live, dir + "/snapshot.json", dir + "/.lock"] {
            FileManager.default.createFile(atPath: f, contents: Data("x".utf8))
        }
        #expect(shared.removeStaleTemporaries() == 1)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: dir + "/snapshot.json"))
        #expect(FileManager.default.fileExists(atPath: dir + "/.lock"))
    }
}
