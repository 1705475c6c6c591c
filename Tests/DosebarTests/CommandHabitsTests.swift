import Foundation
import Testing

/// What users of git, systemctl or taskwarrior expect of a command line (DESIGN §2).
@Suite("command-line habits")
struct CommandHabitsTests {
    @Test("`dosebar` alone shows today, as `dosebar today` does")
    func bareCommandIsToday() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let bare = try h.ok()
        let today = try h.ok("today")
        #expect(bare.out == today.out && bare.out.contains("Aspirin"), "\(bare.out)")
        #expect(try h.ok("--help").out.contains("USAGE"))
    }

    /// `dosebar today` on a terminal (`script` gives it one), with NO_COLOR as given (nil: unset).
    func onTerminal(_ h: Harness, noColor: String?) throws -> String {
        var env = h.env
        env["NO_COLOR"] = noColor
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qfc", Harness.binary + " today", "/dev/null"]
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("NO_COLOR turns colour off only when it is set to a value (no-color.org); an empty one does not")
    func noColor() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let escape = "\u{1B}["
        let unset = try onTerminal(h, noColor: nil), empty = try onTerminal(h, noColor: ""), set = try onTerminal(h, noColor: "1")
        #expect(unset.contains("Aspirin") && unset.contains(escape), "\(unset.debugDescription)")
        #expect(empty.contains(escape), "an empty NO_COLOR keeps colour: \(empty.debugDescription)")
        #expect(set.contains("Aspirin") && !set.contains(escape), "\(set.debugDescription)")
    }
}
