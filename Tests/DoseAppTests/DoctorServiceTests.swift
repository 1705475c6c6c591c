import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// `doctor`'s checks, called directly: what each situation finds, in the report's words.
@Suite("Doctor's checks")
struct DoctorServiceTests {
    let root = NSTemporaryDirectory() + "dosebar-doctor-\(UUID().uuidString)"

    func context(_ env: [String: String] = [:]) throws -> AppContext {
        try .test(root: root, env: ["PATH": root + "/bin"].merging(env) { $1 })
    }

    func check(_ context: AppContext, daemon: Int32? = nil, readme: String? = nil) throws -> [DoctorService.Finding] {
        try DoctorService(context: context, daemonPID: { _ in daemon }, installedReadme: { _ in readme }).check()
    }

    @Test("a working set-up: the zone, the database, the directory written, the daemon; no config is a note")
    func fine() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try context.openStore(.create)
        try MedicationService(context: context, store: store).add(Medication(id: 0, name: "Aspirin", versions: [
            ScheduleVersion(effective: context.today, schedule: Schedule(recurrence: .daily, times: [LocalTime("08:00")!], start: context.today)),
        ]))
        let c = context.catalog
        let found = try check(context, daemon: 4242)
        #expect(found.filter { $0.level == .fix }.isEmpty)
        #expect(found.contains(.init(.ok, c.text("doctor.zone", ["zone": "Asia/Seoul", "now": "2026-11-22T08:05:00+09:00"]))))
        #expect(found.contains(.init(.note, c.text("doctor.no_config", ["path": context.configPath]))))
        #expect(found.contains(.init(.ok, c.counted("doctor.database", 1, ["path": context.dbPath]))))
        #expect(found.contains(.init(.ok, c.text("doctor.writable", ["path": context.dirPath]))))
        #expect(found.contains(.init(.ok, c.text("doctor.daemon", ["pid": "4242"]))))
        #expect(FileManager.default.fileExists(atPath: context.dirPath + "/snapshot.json"), "the check writes the directory")
    }

    @Test("what to fix: an unknown zone, a shared directory that is a file, no daemon")
    func problems() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context(["TZ": "Mars/Olympus"])
        FileManager.default.createFile(atPath: context.dirPath, contents: Data("not a directory".utf8))
        let found = try check(context)
        let fixes = found.filter { $0.level == .fix }.map(\.text)
        #expect(fixes.first == context.zoneProblem)
        #expect(fixes.contains { $0.contains(context.dirPath) && $0.contains("not a directory") })
        #expect(fixes.contains(context.catalog.text("doctor.no_daemon")))
        #expect(!found.contains { $0.text == context.catalog.text("doctor.writable", ["path": context.dirPath]) })
    }

    @Test("a bar on PATH is named with where its set-up is installed, or from the source tree")
    func bars() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/bin/waybar", contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let c = context.catalog
        #expect(try check(context).contains(.init(.note, c.text("doctor.bar.source", ["bar": "waybar"]))))
        #expect(try check(context, readme: "/usr/share/x/README.md")
            .contains(.init(.note, c.text("doctor.bar", ["bar": "waybar", "path": "/usr/share/x/README.md"]))))
        #expect(try !check(context).contains { $0.text.contains("polybar") })
    }
}
