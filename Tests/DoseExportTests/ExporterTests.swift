@testable import DoseCore
import DoseExport
import DoseTestSupport
import Foundation
import Testing

@Suite struct ExporterTests {
    /// A day with three entries: 13:30 (late), 13:30:30 (same but later: the late minutes are the
    /// same), 21:00 (done).
    var timeline: Timeline {
        let o = Fixtures.newYorkEDT
        var second = Fixtures.moved(Fixtures.newYork, to: LocalInstant(date: Fixtures.newYork.at.date.addingTimeInterval(30), offset: o))
        second.validUntil = Fixtures.at("2026-03-09", "21:00", o)
        var third = Fixtures.moved(Fixtures.newYork, to: Fixtures.at("2026-03-09", "21:00", o))
        third.validUntil = Fixtures.at("2026-03-10", "00:00", o)
        third.state = .done
        third.progress = 100
        third.text = "✅ 5/5"
        return Fixtures.timeline([Fixtures.newYork, second, third])
    }

    @Test func writesEveryFileOnceAndThenNothing() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/dosebar")
        let exporter = Exporter()
        let now = Fixtures.at("2026-03-09", "13:45", Fixtures.newYorkEDT).date
        #expect(try exporter.export(timeline, now: now, to: dir) == Exporter.fileNames)
        #expect(Exporter.fileNames == ["timeline.json", "snapshot.json", "snapshot.txt", "waybar.json", "polybar.txt",
                                       "tmux.txt", "conky.txt", "i3blocks.txt"])
        for name in Exporter.fileNames {
            let text = try String(contentsOfFile: dir.path(of: name), encoding: .utf8)
            #expect(text.hasSuffix("\n"), "\(name) ends in a newline")
            #expect(mode(dir.path(of: name)) == 0o600)
        }
        #expect(mode(dir.path) == 0o700)
        #expect(try exporter.export(timeline, now: now, to: dir) == [])

        // A new export a minute later: only generated_at differs, nothing is rewritten.
        var regenerated = timeline
        regenerated.generatedAt = Fixtures.at("2026-03-09", "13:46", Fixtures.newYorkEDT)
        #expect(try exporter.export(regenerated, now: now, to: dir) == [])
    }

    @Test func snapshotFilesFollowTheEntryInForce() throws {
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/dosebar")
        let exporter = Exporter()
        try exporter.export(timeline, now: Fixtures.newYork.at.date.addingTimeInterval(15), to: dir)
        let snapshotJSON = try String(contentsOfFile: dir.path(of: "snapshot.json"), encoding: .utf8)
        #expect(snapshotJSON == SnapshotJSON.snapshot(Fixtures.newYork) + "\n")
        #expect(!snapshotJSON.contains("generated_at"))

        // 14:30: the 13:30:30 entry differs only in at/valid_until, so the bar files stay.
        let changed = try exporter.export(timeline, now: Fixtures.at("2026-03-09", "14:30", Fixtures.newYorkEDT).date, to: dir)
        #expect(changed == ["snapshot.json"])

        // 22:00: done.
        let done = try exporter.export(timeline, now: Fixtures.at("2026-03-09", "22:00", Fixtures.newYorkEDT).date, to: dir)
        #expect(done == ["snapshot.json", "snapshot.txt", "waybar.json", "polybar.txt", "tmux.txt", "conky.txt", "i3blocks.txt"])
        #expect(try String(contentsOfFile: dir.path(of: "snapshot.txt"), encoding: .utf8) == "✅ 5/5\n")

        // Before the first entry, the first entry is shown.
        let early = try exporter.files(for: timeline, now: Fixtures.at("2026-03-09", "00:00", Fixtures.newYorkEDT).date)
        #expect(early.first { $0.name == "snapshot.json" }?.contents == SnapshotJSON.snapshot(Fixtures.newYork) + "\n")
    }

    @Test func renderMatchesTheFiles() throws {
        let exporter = Exporter(options: Fixtures.customOptions)
        let files = try exporter.files(for: Fixtures.timeline([Fixtures.newYork]), now: Fixtures.newYork.at.date)
        for format in OutputFormat.all {
            #expect(files.first { $0.name == format.fileName }?.contents == exporter.render(format, Fixtures.newYork) + "\n")
        }
        #expect(!exporter.render(.json, Fixtures.newYork).contains("\n"))
    }

    @Test func anEmptyTimelineIsABug() throws {
        var empty = Fixtures.timeline([Fixtures.empty])
        empty.entries = []
        #expect(throws: DosebarError.self) { try Exporter().files(for: empty, now: Date(timeIntervalSince1970: 0)) }
        // Rendered on two threads too: nothing is written.
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let dir = SharedDirectory(path: temp.path + "/dosebar")
        #expect(throws: DosebarError.self) {
            try Exporter().write(empty, now: Date(timeIntervalSince1970: 0), to: dir, concurrent: true)
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] == [])
    }

    /// A command renders the bar files on another thread while it builds timeline.json (the
    /// daemon on one): the same files, for the entry in force at each instant.
    @Test(arguments: ["00:00", "13:45", "21:30"])
    func bothCoresWriteWhatOneWrites(clock: String) throws {
        let now = Fixtures.at("2026-03-09", clock, Fixtures.newYorkEDT).date
        let exporter = Exporter(options: Fixtures.customOptions)
        let temp = TemporaryDirectory(prefix: "dosebar-export-test")
        let one = SharedDirectory(path: temp.path + "/one"), both = SharedDirectory(path: temp.path + "/both")
        let written = try exporter.write(timeline, now: now, to: one)
        #expect(try exporter.write(timeline, now: now, to: both, concurrent: true) == written)
        for name in Exporter.fileNames {
            #expect(try Data(contentsOf: URL(fileURLWithPath: both.path(of: name)))
                    == Data(contentsOf: URL(fileURLWithPath: one.path(of: name))), "\(name)")
        }
    }
}
