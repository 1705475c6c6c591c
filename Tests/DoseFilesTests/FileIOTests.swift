import DoseFiles
import DoseTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one file-writing helper: a replace is whole or nothing and private, directories are private.
@Suite struct FileIOTests {
    func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func replaceWritesWholeAndPrivateWhateverTheUmask() throws {
        let dir = TemporaryDirectory(prefix: "dosebar-fileio")
        let path = dir.file("report.html")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        let old = umask(0)
        defer { umask(old) }
        let text = String(repeating: "dose ", count: 200_000)  // 1 MB: many write(2) calls
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { try FileIO.replace(path, bytes: UnsafeRawBufferPointer($0)) { ".\($0).tmp" } }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.html"])
    }

    @Test func aFailedReplaceLeavesTheOldFileAndNoTemporary() throws {
        let dir = TemporaryDirectory(prefix: "dosebar-fileio")
        let path = dir.file("snapshot.json")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        // A directory in the file's place: the rename fails; the temporary must go.
        let blocked = dir.file("blocked")
        mkdir(blocked, 0o700)
        mkdir(blocked + "/x", 0o700)
        var bytes = Array("new".utf8)
        #expect(throws: FileIO.Failure.self) {
            try bytes.withUnsafeMutableBytes { try FileIO.replace(blocked, bytes: UnsafeRawBufferPointer($0)) { ".\($0).tmp" } }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["snapshot.json", "blocked"])
    }

    @Test func directoriesItMakesArePrivateAndOnesThatExistAreLeftAlone() throws {
        let dir = TemporaryDirectory(prefix: "dosebar-fileio")
        chmod(dir.path, 0o755)
        let old = umask(0o022)
        defer { umask(old) }
        let made = try FileIO.makePrivateDirectories(dir.path + "/a/b/c")
        #expect(made == [dir.path + "/a", dir.path + "/a/b", dir.path + "/a/b/c"])
        #expect([dir.path + "/a", dir.path + "/a/b", dir.path + "/a/b/c"].map(mode) == [0o700, 0o700, 0o700])
        #expect(mode(dir.path) == 0o755)
        #expect(try FileIO.makePrivateDirectories(dir.path + "/a/b/c").isEmpty)
        try "x".write(toFile: dir.file("file"), atomically: false, encoding: .utf8)
        let failure = try #require(throws: FileIO.Failure.self) { try FileIO.makePrivateDirectories(dir.file("file") + "/d") }
        #expect(failure.path == dir.file("file") + "/d" && failure.code == ENOTDIR)
    }

    /// Every path form a person may type splits without trapping (NSString's
    /// deletingLastPathComponent trapped on "." and " "), as a shell reads it.
    static let pathForms: [(path: String, directory: String, name: String)] = [
        ("a/b", "a", "b"), ("b", ".", "b"), ("/b", "/", "b"), ("a/b/", "a", "b"), (".", ".", "."), ("./", ".", "."),
        (" ", ".", " "), ("", ".", ""), ("/", "/", ""), ("a//b", "a", "b"), ("../x.sqlite", "..", "x.sqlite"),
    ]

    @Test(arguments: pathForms)
    func splitsEveryPathForm(_ form: (path: String, directory: String, name: String)) {
        let (path, directory, name) = form
        let split = FileIO.split(path)
        #expect(split.directory == directory && split.name == name, "\(path.debugDescription): \(split)")
    }
}
