@testable import DoseApp
import DoseCore
import DoseStore
import Foundation
import Testing

/// `history`, `stats` and `report` as DoseApp calls (``HistoryService/days(_:medication:)``,
/// ``HistoryService/stats(_:medication:)``, ``HistoryService/report(_:medication:format:)``), from
/// doses recorded in a real store through ``DoseRecorder``.
@Suite("history, stats and report as services")
struct HistoryStatsTests {
    let root = NSTemporaryDirectory() + "dosebar-stats-\(UUID().uuidString)"

    func context() throws -> AppContext { try .test(root: root, now: "2026-11-22T12:00:00+09:00") }

    func daily(_ name: String, at time: String, _ context: AppContext) -> Medication {
        let start = LocalDate("2026-11-01")!
        var m = Medication(id: 0, name: name, versions: [ScheduleVersion(effective: start, schedule: Schedule(
            recurrence: .daily, times: [LocalTime(time)!], window: 7200, start: start, until: nil))])
        m.trackedFrom = ISO8601DateFormatter().date(from: "2026-11-01T00:00:00+09:00")
        return m
    }

    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "+09:00")! }

    /// Aspirin (08:00) and Iron (20:00), daily since 2026-11-01. From 16 to 18 November, Aspirin
    /// taken on time each day, Iron never; then Aspirin on time, late, missed; Iron skipped, then on
    /// time twice.
    func recorded(_ context: AppContext) throws -> DoseStore {
        let store = try context.openStore(.create)
        let medicines = MedicationService(context: context, store: store)
        try medicines.add(daily("Aspirin", at: "08:00", context))
        try medicines.add(daily("Iron", at: "20:00", context))
        let recorder = DoseRecorder(context: context, store: store)
        for day in 16...18 { _ = try recorder.record(.taken, names: ["Aspirin"], at: at("2026-11-\(day)T08:10:00"), next: false) }
        _ = try recorder.record(.taken, names: ["Aspirin"], at: at("2026-11-19T08:05:00"), next: false)
        _ = try recorder.record(.taken, names: ["Aspirin"], at: at("2026-11-20T11:00:00"), next: false)
        _ = try recorder.record(.skipped, names: ["Iron"], at: at("2026-11-19T20:00:00"), next: false)
        _ = try recorder.record(.taken, names: ["Iron"], at: at("2026-11-20T20:10:00"), next: false)
        _ = try recorder.record(.taken, names: ["Iron"], at: at("2026-11-21T19:55:00"), next: false)
        context.settle { _, _, _, _ in }
        return store
    }

    @Test("three days next to the three before: per medicine, overall, one medicine alone")
    func threeDays() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try recorded(context)
        let medicines = MedicationService(context: context, store: store)
        let service = HistoryService(store: store, context: context)
        let current = LocalDate("2026-11-19")!...LocalDate("2026-11-21")!
        #expect(HistoryService.previous(current) == LocalDate("2026-11-16")!...LocalDate("2026-11-18")!)
        let stats = try service.stats(current, medication: nil)
        #expect(stats.days == 3 && stats.from == current.lowerBound && stats.to == current.upperBound)
        #expect(stats.medications.map(\.name) == ["Aspirin", "Iron"])
        let aspirin = stats.medications[0], iron = stats.medications[1]
        #expect([aspirin.figures.taken, aspirin.figures.onTime, aspirin.figures.late, aspirin.figures.missed] as [Int] == [2, 1, 1, 1])
        #expect(aspirin.figures.lateMinutesTotal == 180)
        #expect([aspirin.previous.taken, aspirin.previous.onTime, aspirin.previous.missed] as [Int] == [3, 3, 0])
        #expect(aspirin.mostLateSlot == LocalTime("08:00"))
        #expect([iron.figures.taken, iron.figures.onTime, iron.figures.skipped, iron.figures.missed] as [Int] == [2, 2, 1, 0])
        #expect([iron.previous.taken, iron.previous.missed] as [Int] == [0, 3])
        #expect([stats.overall.taken, stats.overall.skipped, stats.overall.missed, stats.overall.onTime] as [Int] == [4, 1, 1, 3])
        #expect([stats.previous.taken, stats.previous.missed] as [Int] == [3, 3])

        let ironID = try #require(try medicines.medications(includeArchived: false).first { $0.name == "Iron" })
        let alone = try service.stats(current, medication: ironID)
        #expect(alone.medications.map(\.name) == ["Iron"])
        #expect(alone.overall == iron.figures && alone.previous == iron.previous)
    }

    @Test("report: one medicine's slots in CSV, every medicine's in JSON, HTML stamped with now")
    func report() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try recorded(context)
        let service = HistoryService(store: store, context: context)
        let days = LocalDate("2026-11-19")!...LocalDate("2026-11-21")!
        let iron = try service.medication(named: "Iron")
        let csv = try service.report(days, medication: iron, format: .csv).split(whereSeparator: \.isNewline).map(String.init)
        #expect(csv.first?.hasPrefix("date,scheduled,medication") == true)
        let rows = csv.dropFirst()
        #expect(rows.count == 3 && rows.allSatisfy { $0.contains(",Iron,") }, "\(csv)")
        #expect(rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[4] } == ["skipped", "taken", "taken"])

        let json = try service.report(days, medication: nil, format: .json)
        #expect(json.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object.keys.contains { ($0 == "slots" || $0 == "rows") })
        #expect(json.contains("\"Aspirin\"") && json.contains("\"Iron\""))

        let html = try service.report(days, medication: nil, format: .html)
        #expect(html.hasPrefix("<!DOCTYPE html>") || html.hasPrefix("<!doctype html>"))
        #expect(html.contains("12:00"), "stamped with now (the doses are at 08:00, 11:00 and 20:00)")
    }

    @Test("history: each day of one medicine or of all, no duplicates on a single device")
    func history() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let context = try context()
        let store = try recorded(context)
        let service = HistoryService(store: store, context: context)
        let days = LocalDate("2026-11-19")!...LocalDate("2026-11-21")!
        let aspirin = try service.days(days, medication: try service.medication(named: "Aspirin"))
        #expect(aspirin.records.map(\.day) == [LocalDate("2026-11-19")!, LocalDate("2026-11-20")!, LocalDate("2026-11-21")!])
        #expect(aspirin.records.map { [$0.total, $0.taken, $0.late, $0.missed] } == [[1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 0, 1]] as [[Int]])
        #expect(aspirin.duplicates.isEmpty)
        let all = try service.days(days, medication: nil)
        #expect(all.records.map { [$0.total, $0.taken, $0.skipped] } == [[2, 1, 1], [2, 2, 0], [2, 1, 0]] as [[Int]])
    }
}
