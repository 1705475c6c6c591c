import ArgumentParser
import DoseApp
import DoseCore
import DoseDaemon
import DoseExport
import Foundation
import Glibc

/// `dosebar watch`: print one line per change for bars that stream.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the current line for a bar, then one line per change.",
        discussion: """
        Prints the line of the format's file in the shared directory (waybar.json, polybar.txt, \
        i3blocks.txt as one JSON object, tmux.txt, snapshot.txt, snapshot.json), then a new line \
        each time that file's content changes; every line is flushed at once. The directory is \
        watched with inotify (no polling); it may be created later or recreated. When the file does \
        not exist yet, watch exports once so the bar shows something at once. Exits 0 when the \
        reader goes away (closed pipe).

        Examples (the daemon keeps the files current):
          waybar:    "exec": "dosebar watch --format waybar", "return-type": "json"
          polybar:   exec = dosebar watch --format polybar   (tail = true)
          i3blocks:  command=dosebar watch --format i3blocks
                     (interval=persist, format=json)
        """
    )

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "The output format (conky reads conky.txt itself).") var format: Format = .text

    /// The output formats that fit on one line.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case waybar, polybar, i3blocks, tmux, text, json

        var output: OutputFormat { OutputFormat(rawValue: rawValue)! }
    }

    func run() throws {
        let output = format.output
        // A closed pipe must surface as EPIPE from write(2), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        // Whoever started us may have left SIGTERM/SIGINT/SIGHUP blocked or ignored (exec keeps
        // both): a bar stopping its module must still end this process.
        var stop = sigset_t()
        sigemptyset(&stop)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stop, s); signal(s, SIG_DFL) }
        sigprocmask(SIG_UNBLOCK, &stop, nil)
        let context = try AppContext(global.options)
        let follower = try DirectoryFollower(directory: context.dirPath, fileName: output.fileName)
        if follower.read() == nil {
            do {
                try Refresh.export(context, try context.openStore())
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
            let line = Watch.line(content, format: output)
            guard line != last else { return }
            last = line
            if !Watch.write(line + "\n") { throw ExitCode.success }
        }
        try emit()
        while true {
            for (fd, _) in try epoll.wait() {
                if stdoutWatched && fd == 1 { throw ExitCode.success }
                if fd == follower.inotify.fd, follower.handleEvents() { try emit() }
            }
        }
    }

    /// One line for the bar from a file's content: i3blocks' three lines become the JSON object
    /// of i3blocks' `format=json`; other files are one line already (line breaks become spaces).
    static func line(_ content: String, format: OutputFormat) -> String {
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
    static func write(_ text: String) -> Bool {
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
