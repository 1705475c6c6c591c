import ArgumentParser
import DoseDaemon
import DoseExport

/// `dosebar watch`: print one line per change for bars that stream.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the current line for a bar, then one line per change.",
        usage: "dosebar watch [--format <format>] [--json] [<global options>]",
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

    @Option(name: .long, help: "The output format (default text; conky reads conky.txt itself).") var format: StreamFormat?
    @Flag(name: .long, help: "Print JSON lines (the same as --format json).") var json = false

    @OptionGroup(title: "Global options") var global: GlobalOptions

    func validate() throws { _ = try JSONFlag.format(json: json, format: format?.output, default: .text) }

    func run() throws {
        try WatchStream.run(global.options, format: try JSONFlag.format(json: json, format: format?.output, default: .text))
    }
}
