import Foundation
import Testing

/// Every help page as a person reads it in an 80-column terminal: nothing wider, no example
/// broken in the middle of a command (copy-paste must work), the command's own options before
/// the global ones, and no pointer to a file an installed user does not have.
@Suite("help pages")
struct HelpPagesTests {
    /// Every command path (`[]` is `dosebar` itself), read from the binary's own description of
    /// its commands, so a command added later is checked without editing this test.
    static func commandPaths(_ h: Harness) throws -> [[String]] {
        let dump = try h.run(["--experimental-dump-help"])
        let tool = try #require(dump.json as? [String: Any], "dump-help: \(dump.status) \(dump.err)")
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(tool["command"] as? [String: Any]), [])
        return paths
    }

    /// Columns a line takes in a terminal: Hangul and other wide characters take two.
    static func columns(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { width, scalar in
            let v = scalar.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v)
            return width + (wide ? 2 : 1)
        }
    }

    /// What is wrong with one rendered page, one problem a line.
    static func problems(_ page: String) -> [String] {
        var found: [String] = []
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines where columns(line) > 80 {
            found.append("\(columns(line)) columns: \(line)")
        }
        // Files of the source tree. An installed path that ends in one of these names
        // (<prefix>/share/dosebar/integrations/waybar) is fine: a path in the tree is not.
        for word in ["DESIGN", "README", "§", "integrations/", "Sources/", "Tests/", "scripts/"] {
            for line in lines where line.contains(word) {
                let inTree = line.components(separatedBy: word).dropLast().contains { !$0.hasSuffix("/") }
                if inTree { found.append("names \(word), which an installed user does not have: \(line)") }
            }
        }
        for (index, line) in lines.enumerated() where index > 0 && line.isEmpty && lines[index - 1].isEmpty
            && index < lines.count - 1 {
            found.append("two blank lines in a row before: \(lines[index + 1])")
        }
        // An example block runs from "Example(s):" to the next blank line. Each line starts a
        // command ("  $ ") or continues the line before, which then ends with a backslash; a line
        // that starts in column 0 is a command the renderer wrapped.
        var inExamples = false
        var previous: Substring = ""
        for line in lines {
            if line == "Examples:" || line == "Example:" {
                inExamples = true
            } else if line.isEmpty {
                inExamples = false
            } else if inExamples {
                let continues = previous.hasSuffix("\\") && line.hasPrefix("      ")
                if !line.hasPrefix("  $ ") && !continues {
                    found.append("example broken mid-command: \(previous) ⏎ \(line)")
                } else if columns(line) > 77 {
                    // The manual page shows an example 3 columns further right (scripts/install-man).
                    found.append("example wider than 77 columns, too wide for the manual page: \(line)")
                }
            }
            previous = line
        }
        // Section headers in the order the page shows them: the global options come last.
        let headers = lines.filter { line in
            line.hasSuffix(":") && line.first?.isUppercase == true && line.allSatisfy { $0.isUppercase || $0 == " " || $0 == ":" }
        }
        if let global = headers.firstIndex(of: "GLOBAL OPTIONS:"), global != headers.count - 1 {
            found.append("global options before \(headers[(global + 1)...].joined(separator: ", "))")
        }
        return found
    }

    @Test("every help page fits 80 columns, keeps examples whole, own options first, no DESIGN/README")
    func everyPageAtEightyColumns() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let paths = try Self.commandPaths(h)
        // The walk reaches nested commands (not only the first level).
        #expect(paths.contains(["sync", "init"]) && paths.contains(["import", "csv"]), "\(paths)")
        for path in paths {
            let r = try h.run(path + ["--help"], extraEnv: ["COLUMNS": "80", "LINES": "24"])
            let name = (["dosebar"] + path).joined(separator: " ")
            #expect(r.status == 0 && r.out.hasPrefix("OVERVIEW:"), "\(name) --help: \(r.status) \(r.err)")
            let problems = Self.problems(r.out)
            #expect(problems.isEmpty, "\(name) --help:\n\(problems.joined(separator: "\n"))")
            if !path.isEmpty, !r.out.contains("\nSUBCOMMANDS:\n") {
                // A leaf command has its own options and then the global ones.
                #expect(r.out.contains("\nOPTIONS:\n") && r.out.contains("\nGLOBAL OPTIONS:\n"), "\(name) --help")
            }
        }
    }

    /// `dosebar take …` is parsed first with `take` as the root of its own tree (Dosebar.parse); what
    /// `take` alone cannot parse into itself goes to the whole tree. Each leaf command answers its
    /// help flag, `--version`, `--generate-completion-script` and an unknown option exactly as the
    /// whole tree does (`help take` is the whole tree's page: `take` alone leaves out `--version`).
    @Test("a command parsed on its own answers help, --version, completion and typos as the whole tree")
    func leafCommandsAnswerAsTheWholeTree() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let paths = try Self.commandPaths(h)
        let leaves = paths.filter { path in !path.isEmpty && !paths.contains { $0.count > path.count && Array($0.prefix(path.count)) == path } }
        #expect(leaves.contains(["take"]) && leaves.contains(["sync", "now"]) && !leaves.contains(["sync"]), "\(leaves)")
        let version = try h.ok("--version").out
        let completion = try h.ok("--generate-completion-script", "bash").out
        #expect(!version.isEmpty && completion.contains("complete"))
        for path in leaves {
            let name = (["dosebar"] + path).joined(separator: " ")
            let page = try h.run(path + ["--help"])
            let wholeTreePage = try h.run(["help"] + path).out
            #expect(page.status == 0 && page.out == wholeTreePage, "\(name) --help")
            #expect(page.out.contains("--version"), "\(name) --help: no --version line")
            let ownVersion = try h.run(path + ["--version"]).out
            #expect(ownVersion == version, "\(name) --version")
            let ownCompletion = try h.run(path + ["--generate-completion-script", "bash"]).out
            #expect(ownCompletion == completion, "\(name) --generate-completion-script")
            let typo = try h.run(path + ["--no-such-option"])
            #expect(typo.status == 64 && typo.err.hasSuffix("(see '\(name) --help')\n") && typo.err.split(separator: "\n").count == 1,
                    "\(name) --no-such-option: \(typo.status) \(typo.err)")
        }
    }

    @Test("the checks catch what they are for")
    func checksCanFail() {
        #expect(Self.problems(String(repeating: "x", count: 81)).count == 1)
        #expect(Self.problems(String(repeating: "가", count: 41)).count == 1)
        #expect(Self.problems(String(repeating: "가", count: 40)).isEmpty)
        #expect(Self.problems("Examples:\n  $ dosebar history --json | jq '.[] |\nselect(.x)'\n").count == 1)
        #expect(Self.problems("Examples:\n  $ dosebar history --json \\\n      | jq .\n").isEmpty)
        #expect(Self.problems("Examples:\n  $ dosebar " + String(repeating: "x", count: 68) + "\n").count == 1)
        #expect(Self.problems("A line (DESIGN §4).").count == 2)
        #expect(Self.problems("  $ systemctl --user enable --now dosebar   # see integrations/systemd").count == 1)
        #expect(Self.problems("See <prefix>/share/dosebar/integrations/<bar>.").isEmpty)
        #expect(Self.problems("GLOBAL OPTIONS:\n  --db\n\nOPTIONS:\n  --json\n").count == 1)
        #expect(Self.problems("OPTIONS:\n  --json\n\nGLOBAL OPTIONS:\n  --db\n").isEmpty)
        #expect(Self.problems("OPTIONS:\n  --json\n\n\nGLOBAL OPTIONS:\n  --db\n").count == 1)
    }
}
