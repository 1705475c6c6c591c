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

    @Test("an empty name matches no medicine: with one medicine, `take ''` used to take it")
    func emptyName() throws {
        let h = Harness(now: "2026-11-22T08:05:00+09:00")
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00")
        let before = h.dump()
        for args in [["take", ""], ["skip", "  "], ["take", "", "--force"], ["undo", ""], ["refill", "", "3"]] {
            let r = try h.run(args)
            #expect(r.status == 64 && r.err == "dosebar: a medicine name cannot be empty (see 'dosebar list')\n", "\(args): \(r.status) \(r.err)")
        }
        #expect(h.dump() == before)
    }

    @Test("a duration needs a unit: `--min-interval 6` is not read as six minutes")
    func durationsNeedAUnit() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        let before = h.dump()
        let bare = try h.run(["add", "Ibuprofen", "--as-needed", "--min-interval", "6"])
        #expect(bare.status == 64 && bare.err.contains("--min-interval: '6' needs a unit: 6m for minutes, 6h for hours"), "\(bare.err)")
        let window = try h.run(["add", "Aspirin", "--at", "08:00", "--window", "90"])
        #expect(window.status == 64 && window.err.contains("--window: '90' needs a unit"), "\(window.err)")
        #expect(h.dump() == before)
        try h.ok("add", "Aspirin", "--at", "08:00", "--window", "0")
        try h.ok("add", "Ibuprofen", "--as-needed", "--min-interval", "6h")
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
