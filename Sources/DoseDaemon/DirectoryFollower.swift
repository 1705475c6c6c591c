import DoseFiles
import Foundation
import Glibc

/// Follows one file of a directory with inotify on the directory, never on the file (an atomic
/// rename replaces the file's inode and would end a watch on it). While the directory does not
/// exist, the nearest existing ancestor is watched until it appears; when it is removed or moved
/// away, that search starts again, so `watch` survives the directory being created later or
/// recreated.
public final class DirectoryFollower {
    public let directory: String
    public let fileName: String
    public let inotify: Inotify
    private var watch: Int32?
    /// Whether `watch` is on `directory` itself (otherwise on an ancestor).
    private(set) var watchingDirectory = false

    static let directoryMask = Inotify.movedTo | Inotify.closeWrite | Inotify.create | Inotify.deleteSelf
        | Inotify.moveSelf | Inotify.delete | Inotify.movedFrom | Inotify.onlyDirectory
    static let ancestorMask = Inotify.create | Inotify.movedTo | Inotify.deleteSelf | Inotify.moveSelf
        | Inotify.onlyDirectory

    public init(directory: String, fileName: String) throws {
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.fileName = fileName
        inotify = try Inotify()
        arm()
    }

    public var path: String { directory + "/" + fileName }

    /// Watches the directory, or its nearest existing ancestor.
    private func arm() {
        // The next step towards the directory can appear between failing to watch it and watching its
        // parent: its creation is then never reported, so look again after every ancestor watch.
        for _ in 0..<64 {
            if let watch { inotify.remove(watch) }
            watch = nil
            watchingDirectory = false
            var candidate = directory
            var missing: String?
            while true {
                if let wd = inotify.add(candidate, mask: candidate == directory ? Self.directoryMask : Self.ancestorMask) {
                    watch = wd
                    watchingDirectory = candidate == directory
                    break
                }
                missing = candidate
                let parent = FileIO.split(candidate).directory
                if parent == candidate { return }
                candidate = parent
            }
            guard !watchingDirectory, let missing, FileManager.default.fileExists(atPath: missing) else { return }
        }
    }

    /// Reads the queued events; returns whether the file may have changed (then read it again).
    public func handleEvents() -> Bool {
        var mayHaveChanged = false
        var rearm = false
        for event in inotify.read() {
            if event.has(Inotify.overflow) { mayHaveChanged = true; rearm = true; continue }
            guard event.watch == watch else { continue }
            if event.has(Inotify.deleteSelf) || event.has(Inotify.moveSelf) || event.has(Inotify.ignored) {
                rearm = true
            } else if watchingDirectory {
                if event.name == fileName { mayHaveChanged = true }
            } else {
                // Something appeared in an ancestor: maybe the next step towards the directory.
                rearm = true
            }
        }
        if rearm {
            let before = watchingDirectory
            arm()
            // Newly arrived in the directory (or it went away): what is there now is what counts.
            if watchingDirectory || before { mayHaveChanged = true }
        }
        return mayHaveChanged
    }

    /// The file's content, or nil when it does not exist (or is not readable).
    public func read() -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
