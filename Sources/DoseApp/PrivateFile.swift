import DoseCore
import DoseFiles
import Foundation

/// Writes a file the user asked for (a report) privately and whole: a temporary file (0600) in
/// the same directory, fsynced, renamed over the target (and the directory fsynced). On failure
/// nothing is left behind. Whether the target may be replaced is ``OutputTarget``'s to say, first.
public enum PrivateFile {
    public static func write(_ contents: String, to path: String) throws {
        let (dir, name) = FileIO.split(path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw DosebarError.io("cannot write \(path): the directory \(dir) does not exist")
        }
        var bytes = Array(contents.utf8)
        // A report is medicine data: its temporary goes with a signal too (``Temporaries``).
        let temporary = "." + name + ".\(getpid()).tmp"
        let registered = Temporaries.register(dir + "/" + temporary)
        defer { Temporaries.unregister(registered) }
        do {
            try bytes.withUnsafeMutableBytes { buffer in
                try FileIO.replace(path, bytes: UnsafeRawBufferPointer(buffer)) { _ in temporary }
            }
        } catch let failure as FileIO.Failure {
            throw DosebarError.io("cannot write \(path): \(failure.reason)")
        }
    }
}
