@testable import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// `sync status` as a DoseApp call (``SyncService/statusReport()``): read from a real store after
/// another device's file of junk was applied, then printed for a person and as JSON.
@Suite("sync status report")
struct SyncStatusReportTests {
    let root = NSTemporaryDirectory() + "dosebar-syncstatus-\(UUID().uuidString)"

    func context() throws -> AppContext { try .test(root: root) }

    @Test("a file of junk: each device once, this one first; 20 skipped lines listed and the rest counted; JSON lists every one")
    func junkFile() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try context.openStore(.create)
        let service = SyncService(context: context, store: store, warn: { _ in })
        _ = try service.initialise(dir: root + "/sync")
        let device = try #require(try service.setup()).device
        let junk = 23
        let file = try #require(try service.setup()).folder.file(of: "phone")
        try (1...junk).map { "not an operation \($0)\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        _ = try service.applyOthers()

        let report = try service.statusReport()
        #expect(report.setup.device == device)
        #expect(report.devices.map(\.device) == [device, "phone"])
        #expect(report.skipped.count == junk)

        let c = Catalog.english
        let lines = report.lines(c)
        #expect(lines.first == c.text("sync.status.header", ["device": device, "dir": root + "/sync"]))
        #expect(lines[1].hasPrefix(device) && lines[1].contains(c.text("sync.status.mine")))
        let listed = lines.filter { $0.hasPrefix("skipped ") && !$0.contains("more lines") }
        #expect(listed.count == SyncStatusReport.listed)
        #expect(listed.enumerated().allSatisfy { $1.contains(":\($0 + 1): ") }, "the first lines of the file, in order")
        #expect(lines.last == c.text("sync.status.skipped.more", ["file": report.skipped[0].file,
                                                                  "count": String(junk - SyncStatusReport.listed)]))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(json["device"] as? String == device)
        #expect(json["clone"] is NSNull)
        #expect((json["skipped"] as? [[String: Any]])?.compactMap { $0["line"] as? Int } == Array(1...junk))
        #expect((json["devices"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == [device, "phone"])
    }

    @Test("sync never initialised: the report is refused")
    func notInitialised() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let service = SyncService(context: context, store: try context.openStore(.create))
        #expect(throws: (any Error).self) { try service.statusReport() }
    }
}
