import DoseApp
import DoseCore
import DoseExport
import Foundation
import Glibc

/// `dosebar watch`: prints the line of one file of the shared directory, then a new line each
/// time its content changes, flushed at once, until the reader goes away (a closed pipe).
/// The directory is followed with inotify (`DirectoryFollower`), never polled.
public enum WatchStream {
    /// Streams `output`'s file for the context `options` give; returns when the reader is gone.
    public static func run(_ options: AppOptions, format output: OutputFormat) throws {
        // A closed pipe must surface as EPIPE from write(2), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        // Whoever started us may have left SIGTERM/SIGINT/SIGHUP blocked or ignored (exec keeps
        // both): a bar stopping its module must still end this process.
        var stop = sigset_t()
        sigemptyset(&stop)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stop, s); signal(s, SIG_DFL) }
        sigprocmask(SIG_UNBLOCK, &stop, nil)
        let context = try AppContext(options)
        // A directory dosebar would refuse to write (not its own, writable by others, a symlink) is
        // not one whose files it vouches for: refused here too, with the same line (exit 78).
        try SharedDirectory(path: context.dirPath).examine()
        let follower = try DirectoryFollower(directory: context.dirPath, fileName: output.fileName)
        if follower.read() == nil {
            do {
                let leftAlone = try Refresh.export(context, try context.openStore()).leftAlone
                if !leftAlone.isEmpty { Output.warning(leftAlone.joined(separator: "; ")) }
            } catch let e as DosebarError {
                Output.warning("\(follower.path) does not exist yet and could not be written (\(e.description)); waiting for it")
            }
        }
        let epoll = try Epoll()
        try epoll.add(follower.inotify.fd)
        // Events 0: only errors and hang-ups, i.e. the reader of a pipe went away. Not possible for
        // a regular file or /dev/null (EPERM): then the next failed write tells.
        let stdoutWatched = (try? epoll.add(1, events: 0)) != nil

        var last: String?
        func emit() throws {
            guard let content = follower.read() else { return }
            let text = WatchStream.line(content, format: output)
            guard text != last else { return }
            last = text
            if !WatchStream.write(text + "\n") { throw Gone() }
        }
        do {
            try emit()
            while true {
                for (fd, _) in try epoll.wait() {
                    if stdoutWatched && fd == 1 { return }
                    if fd == follower.inotify.fd, follower.handleEvents() { try emit() }
                }
            }
        } catch is Gone {
            return
        }
    }

    /// The reader went away.
    private struct Gone: Error {}

    /// One line for the bar from a file's content: i3blocks' three lines become the JSON object
    /// of i3blocks' `format=json`; other files are one line already (line breaks become spaces).
    public static func line(_ content: String, format: OutputFormat) -> String {
        var text = content
        while text.hasSuffix("\n") { text.removeLast() }
        if format == .i3blocks {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            func at(_ i: Int) -> String { i < lines.count ? lines[i] : "" }
            return JSONValue.object { o in
                o.set("full_text", at(0))
                o.set("short_text", at(1))
                if !at(2).isEmpty { o.set("color", at(2)) }
            }.text
        }
        return text.replacingOccurrences(of: "\n", with: " ")
    }

    /// Writes all of `text` to stdout; false once the reader is gone (EPIPE and the like).
    public static func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
