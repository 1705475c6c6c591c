import Foundation
import Testing

/// DESIGN §8: work that can take longer than a second — `sync init`, a first `sync now`, an import,
/// the first export after one — shows one self-rewriting line on stderr when stderr is a terminal
/// (`script` gives the command one), cleared before the result is printed; nothing in a pipe, nor
/// under `export --quiet`. `DOSEBAR_PROGRESS_AFTER=0` (test only) shows the line at once, so small
/// scenarios are enough.
@Suite struct ProgressLineTests {
    static let now = "2026-11-22T12:00:00+09:00"
    static let knob = ["DOSEBAR_PROGRESS_AFTER": "0"]
    static let clear = "\r\u{1B}[K"

    /// `dosebar args…` on a terminal: everything it wrote, stdout and stderr, as the terminal got it.
    static func onTerminal(_ h: Harness, _ args: [String], now: String = now) throws -> (status: Int32, text: String) {
        var env = h.env.merging(knob) { $1 }
        env["DOSEBAR_NOW"] = now
        env["TERM"] = "xterm"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qefc", ([Harness.binary] + args).joined(separator: " "), "/dev/null"]
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The line of `work` was drawn (`\r` then its words and a count), then cleared, and `result`
    /// (what the command prints when done) comes after the last drawing.
    static func expectLine(_ text: String, _ work: String, then result: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let drawn = text.components(separatedBy: "\r" + work + ": ")
        #expect(drawn.count > 1, "no progress line '\(work)': \(text.debugDescription)", sourceLocation: sourceLocation)
        guard let last = drawn.last else { return }
        #expect(last.range(of: #"^\d+/\d+"#, options: .regularExpression) != nil, "\(last.debugDescription)", sourceLocation: sourceLocation)
        #expect(last.contains(clear), "the line is not cleared: \(last.debugDescription)", sourceLocation: sourceLocation)
        if !result.isEmpty {
            #expect(last.components(separatedBy: clear).dropFirst().joined().contains(result),
                    "'\(result)' is not printed after the line was cleared: \(last.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// A database with a month of Aspirin: thirty takes and the medicine, tracked since 10-23.
    static func history(_ h: Harness) throws {
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        for day in 23...52 {
            let date = day <= 31 ? String(format: "2026-10-%02d", day) : String(format: "2026-11-%02d", day - 31)
            try h.ok("take", "Aspirin", now: "\(date)T08:05:00+09:00")
        }
    }

    @Test("sync init and sync now: the history written and another device's operations applied, on a terminal; nothing in a pipe")
    func sync() throws {
        let a = Harness(), b = Harness(), c = Harness()
        let folder = a.root + "/sync"
        defer { for h in [a, b, c] { try? FileManager.default.removeItem(atPath: h.root) } }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.history(a)
        let initA = try Self.onTerminal(a, ["sync", "init", folder])
        #expect(initA.status == 0, "\(initA.text)")
        Self.expectLine(initA.text, "Writing this device's history", then: "This device is")
        // Then it reads back the file it wrote (the check against a copied home).
        Self.expectLine(initA.text, "Checking this device's file", then: "This device is")

        // B applies A's file at its `sync init`; C at its first `sync now` (sync set up on an empty folder first).
        let initB = try Self.onTerminal(b, ["sync", "init", folder])
        #expect(initB.status == 0, "\(initB.text)")
        Self.expectLine(initB.text, "Applying other devices' operations", then: "Applied")
        // Before it applies, it reads the file (the parsing of a long one takes seconds).
        Self.expectLine(initB.text, "Reading another device's file", then: "Applied")
        let empty = c.root + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try c.ok("sync", "init", empty)
        try FileManager.default.copyItem(atPath: folder + "/dosebar/" + (try a.syncDevice()) + ".jsonl",
                                        toPath: empty + "/dosebar/" + (try a.syncDevice()) + ".jsonl")
        let now = try Self.onTerminal(c, ["sync", "now"])
        #expect(now.status == 0, "\(now.text)")
        Self.expectLine(now.text, "Applying other devices' operations", then: "Applied")

        // The same work in a pipe: stderr says nothing.
        let d = Harness()
        defer { try? FileManager.default.removeItem(atPath: d.root) }
        try Self.history(d)
        let piped = try d.run(["sync", "init", d.root + "/sync"], extraEnv: Self.knob)
        #expect(piped.status == 0 && piped.err.isEmpty, "\(piped.err.debugDescription)")
        let e = Harness()
        defer { try? FileManager.default.removeItem(atPath: e.root) }
        let pipedApply = try e.run(["sync", "init", folder], extraEnv: Self.knob)
        #expect(pipedApply.status == 0 && pipedApply.out.contains("Applied") && pipedApply.err.isEmpty, "\(pipedApply.err.debugDescription)")
    }

    @Test("import csv counts its doses and the export after it the days it summarises, on a terminal; nothing in a pipe")
    func importCSV() throws {
        let a = Harness(), b = Harness()
        defer { for h in [a, b] { try? FileManager.default.removeItem(atPath: h.root) } }
        try Self.history(a)
        let csv = a.root + "/report.csv"
        try a.ok("report", "--format", "csv", "--from", "2026-10-23", "--to", "2026-11-21", "--output", csv)
        try b.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        let imported = try Self.onTerminal(b, ["import", "csv", csv])
        #expect(imported.status == 0, "\(imported.text)")
        // Before anything is written: the file's lines as they are read, then its rows as they are checked.
        Self.expectLine(imported.text, "Reading the file", then: "Doses imported")
        Self.expectLine(imported.text, "Checking its rows", then: "Doses imported")
        Self.expectLine(imported.text, "Importing doses", then: "Doses imported")
        // The import changed the past: the export after it summarises those days again.
        Self.expectLine(imported.text, "Summarising past days", then: "")

        let c = Harness()
        defer { try? FileManager.default.removeItem(atPath: c.root) }
        try c.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        let piped = try c.run(["import", "csv", csv], extraEnv: Self.knob)
        #expect(piped.status == 0 && piped.out.contains("Doses imported") && piped.err.isEmpty, "\(piped.err.debugDescription)")
    }

    @Test("import dosage counts the history's entries as it reads them, on a terminal; nothing in a pipe")
    func importDosage() throws {
        let a = Harness(tz: "Asia/Seoul", now: ImportTests.noon)
        defer { try? FileManager.default.removeItem(atPath: a.root) }
        let imported = try Self.onTerminal(a, ["import", "dosage", ImportTests.fixtures + "/current"], now: ImportTests.noon)
        #expect(imported.status == 0, "\(imported.text)")
        Self.expectLine(imported.text, "Reading its history", then: "Added Aspirin")

        let b = Harness(tz: "Asia/Seoul", now: ImportTests.noon)
        defer { try? FileManager.default.removeItem(atPath: b.root) }
        let piped = try b.run(["import", "dosage", ImportTests.fixtures + "/current"], extraEnv: Self.knob)
        #expect(piped.status == 0 && piped.out.contains("Added Aspirin") && piped.err.isEmpty, "\(piped.err.debugDescription)")
    }

    @Test("export shows the days it summarises on a terminal, not under --quiet, not in a pipe")
    func export() throws {
        let h = Harness()
        defer { try? FileManager.default.removeItem(atPath: h.root) }
        try h.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        // A year later: a year of days to summarise, at each of the three exports below (none writes the database first).
        let later = "2027-11-22T12:00:00+09:00"
        let shown = try Self.onTerminal(h, ["export"], now: later)
        #expect(shown.status == 0, "\(shown.text)")
        Self.expectLine(shown.text, "Summarising past days", then: "Wrote")

        let g = Harness()
        defer { try? FileManager.default.removeItem(atPath: g.root) }
        try g.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        let quiet = try Self.onTerminal(g, ["export", "--quiet"], now: later)
        #expect(quiet.status == 0 && quiet.text.isEmpty, "\(quiet.text.debugDescription)")
        let k = Harness()
        defer { try? FileManager.default.removeItem(atPath: k.root) }
        try k.ok("add", "Aspirin", "--at", "08:00", "--from", "2026-10-23", now: "2026-10-23T07:00:00+09:00")
        let piped = try k.run(["export"], now: later, extraEnv: Self.knob)
        #expect(piped.status == 0 && piped.err.isEmpty, "\(piped.err.debugDescription)")
    }
}
