import Foundation
import Testing

/// Shell completion: the scripts ArgumentParser generates, and medicine names read from the database.
@Suite struct CompletionTests {
    @Test("bash offers subcommands, format values and the medicines' names (removed ones to resume, all to purge)")
    func bash() throws {
        let h = Harness()
        try h.ok("add", "Aspirin", "--at", "08:00")
        try h.ok("add", "Vitamin D", "--at", "09:00")
        try h.ok("add", "Magnesium", "--at", "21:00")
        try h.ok("remove", "Aspirin")
        let script = try h.ok("--generate-completion-script", "bash").out
        try script.write(toFile: h.root + "/dosebar.bash", atomically: true, encoding: .utf8)
        let driver = """
            source "\(h.root)/dosebar.bash"
            comp() {
                COMP_WORDS=("\(Harness.binary)" "$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _dosebar dosebar "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s|' "${COMPREPLY[@]}"; echo
            }
            comp ta
            comp take ''
            comp edit V
            comp status --format ''
            comp take --lang ''
            comp resume ''
            comp purge ''
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", driver]
        // Completion does not read the clock, and under scripts/test-hours' libfaketime a process
        // that bash starts from a preloaded bash sometimes loses its arguments (libfaketime's
        // shared-memory set-up between the two fails): the driver runs on the real clock.
        p.environment = h.env.filter { !$0.key.hasPrefix("FAKETIME") && $0.key != "LD_PRELOAD" }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        p.waitUntilExit()
        #expect(lines == ["take|", "Vitamin D|Magnesium|", "Vitamin D|", "text|json|waybar|polybar|tmux|conky|i3blocks|", "en|ko|",
                          "Aspirin|", "Aspirin|Vitamin D|Magnesium|"], "resume: the removed ones; purge: all")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func scripts(_ shell: String) throws {
        let r = try Harness().ok("--generate-completion-script", shell)
        #expect(r.out.contains("dosebar"))
    }
}
