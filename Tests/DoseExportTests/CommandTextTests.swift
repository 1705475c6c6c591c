@testable import DoseCore
@testable import DoseExport
import Foundation
import Testing

/// `list` and `today` as DoseExport's pure functions (``MedicationList``, ``TodayText``): the
/// medicines or the snapshot in, the lines or the JSON out, with no store and no binary.
@Suite("list and today text")
struct CommandTextTests {
    let today = LocalDate("2026-11-20")!
    let c = Catalog.english

    /// Aspirin open-ended with a schedule change to come and a long note; Iron's course ended;
    /// Old archived.
    var medications: [Medication] {
        var aspirin = Fixtures.med(1, "Aspirin", at: ["08:00"], from: "2026-11-01", dose: "100 mg", stock: 30)
        aspirin.note = String(repeating: "with food ", count: 12)
        aspirin.versions.append(ScheduleVersion(effective: LocalDate("2026-12-01")!, schedule: Schedule(
            recurrence: .daily, times: [LocalTime("09:00")!], start: LocalDate("2026-11-01")!)))
        aspirin.trackedFrom = Fixtures.at("2026-11-01", "07:30", Fixtures.seoul).date
        let iron = Medication(id: 2, name: "Iron", perDose: Amount(hundredths: 50), versions: [ScheduleVersion(
            effective: LocalDate("2026-11-01")!, schedule: Schedule(recurrence: .daily, times: [LocalTime("20:00")!],
                                                                    start: LocalDate("2026-11-01")!, until: LocalDate("2026-11-10")!))])
        var old = Fixtures.med(3, "Old", at: ["09:00"], from: "2026-10-01")
        old.archivedOn = LocalDate("2026-11-15")!
        return [aspirin, iron, old]
    }

    @Test("list: the table, the lines under each row, a change to come, an ended course, an archived mark, a long note cut")
    func listLines() throws {
        let lines = MedicationList.lines(medications, today: today, catalog: c)
        #expect(lines.first?.hasPrefix(c.text("cli.column.name")) == true)
        let aspirin = try #require(lines.firstIndex { $0.hasPrefix("Aspirin") })
        #expect(lines[aspirin].contains("08:00") && lines[aspirin].hasSuffix("30"))
        #expect(lines.contains("  " + c.text("list.pending", ["date": "2026-12-01", "schedule": "09:00"])))
        let note = try #require(lines.first { $0.hasPrefix("  " + c.text("list.note", ["note": ""])) })
        #expect(note.hasSuffix("…") && TextTable.width(note) == 80, "cut to 78 columns after the indent: \(note)")
        let iron = try #require(lines.first { $0.hasPrefix("Iron") })
        #expect(iron.contains(c.text("list.ended", ["date": "2026-11-10"])))
        #expect(lines.contains { $0.hasPrefix(c.text("cli.archived_mark", ["name": "Old"])) })
        #expect(lines.allSatisfy { TextTable.width($0) <= 80 })
        #expect(MedicationList.lines([], today: today, catalog: c) == [c.text("cli.no_medicines")])
    }

    @Test("list --json: keys sorted, the schedule shown and the one to come, ended, archived, tracked_from at its offset")
    func listJSON() throws {
        let text = try MedicationList.json(medications, today: today, zone: Zone(TimeZone(identifier: "Asia/Seoul")!))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Aspirin", "Iron", "Old"])
        let keys = try #require(text.split(separator: "{").dropFirst().first).split(separator: ",").compactMap {
            $0.split(separator: ":").first.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"[ ")) }
        }
        #expect(keys.first == "archived", "sorted keys: \(keys)")
        let aspirin = rows[0], iron = rows[1], old = rows[2]
        #expect((aspirin["schedule"] as? [String: Any])?["times"] as? [String] == ["08:00"])
        #expect((aspirin["pending"] as? [[String: Any]])?.map { $0["effective"] as? String } == ["2026-12-01"])
        #expect(aspirin["tracked_from"] as? String == "2026-11-01T07:30:00+09:00")
        #expect(iron["ended"] as? Bool == true && iron["per_dose"] as? Double == 0.5 && iron["stock"] is NSNull)
        #expect(old["archived"] as? Bool == true && (old["pending"] as? [Any])?.isEmpty == true)
    }

    /// Issue 46: 21/7 cycles on 2026-11-20. Yaz from 11-08: active day 13, rest from 11-29. Pill from
    /// 10-25: rest day 6 (the rest began 11-15), resumes 11-22. Short from 11-08 until 11-25: day 13,
    /// the course ends before its rest. Aspirin daily: no cycle.
    var cycles: [Medication] {
        var short = Fixtures.med(3, "Short", .cycle(active: 21, rest: 7), at: ["08:00"], from: "2026-11-08")
        short.versions[0].schedule.until = LocalDate("2026-11-25")!
        return [Fixtures.med(1, "Yaz", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-11-08"),
                Fixtures.med(2, "Pill", .cycle(active: 21, rest: 7), at: ["09:00"], from: "2026-10-25"),
                short, Fixtures.med(4, "Aspirin", at: ["08:00"], from: "2026-11-01")]
    }

    @Test("list: a cycle's day today and what follows, dated as the course is")
    func listCycleDay() throws {
        let lines = MedicationList.lines(cycles, today: today, catalog: c)
        func details(_ name: String) throws -> String {
            let row = try #require(lines.firstIndex { $0.hasPrefix(name + " ") })
            return lines[row + 1]
        }
        #expect(try details("Yaz") == "  since 2026-11-08 · day 13 of 21, rest from 2026-11-29 · window 2h")
        #expect(try details("Pill") == "  since 2026-10-25 · rest day 6 of 7, resumes 2026-11-22 · window 2h")
        #expect(try details("Short") == "  2026-11-08 – 2026-11-25 · day 13 of 21, course ends 2026-11-25 · window 2h")
        #expect(try !details("Aspirin").contains("day"))
        let ko = MedicationList.lines(cycles, today: today, catalog: .korean)
        #expect(ko.contains("  2026-11-08부터 · 복용 21일 중 13일째, 2026-11-29부터 휴약 · 허용 범위 2시간"), "\(ko)")
        // Before the course and once archived: no day.
        var archived = cycles[0]
        archived.archivedOn = LocalDate("2026-11-15")!
        let later = Fixtures.med(5, "Later", .cycle(active: 21, rest: 7), at: ["22:00"], from: "2026-12-01")
        #expect(!MedicationList.lines([archived, later], today: today, catalog: c).contains { $0.contains("of 21") })
    }

    @Test("list --json: cycle_phase, cycle_day, cycle_length, cycle_next added; null without a cycle today")
    func listCycleJSON() throws {
        let text = try MedicationList.json(cycles, today: today, zone: Zone(TimeZone(identifier: "Asia/Seoul")!))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        func cycle(_ row: [String: Any]) -> [String] {
            ["cycle_phase", "cycle_day", "cycle_length", "cycle_next"].map { row[$0].map { "\($0)" } ?? "absent" }
        }
        #expect(rows.map(cycle) == [["active", "13", "21", "2026-11-29"], ["rest", "6", "7", "2026-11-22"],
                                    ["active", "13", "21", "<null>"], ["<null>", "<null>", "<null>", "<null>"]])
        #expect(rows.allSatisfy { $0["schedule"] is [String: Any] && $0["schedule_text"] is String }, "the fields before stay")
    }

    @Test("today: heading, one row per dose coloured by its status only on request, the message last")
    func todayLines() throws {
        let snapshot = Fixtures.newYork
        let plain = TodayText.lines(snapshot, catalog: c, color: false)
        let painted = TodayText.lines(snapshot, catalog: c, color: true)
        #expect(plain.allSatisfy { !$0.contains("\u{1B}") })
        #expect(plain.count == painted.count && plain.last == snapshot.message.text && painted.last == snapshot.message.text)
        #expect(plain.first?.contains(snapshot.day.description) == true && painted.first == plain.first)
        // The table's rows: the header, then the doses in order, each wrapped in its status's colour.
        for (i, dose) in snapshot.doses.enumerated() {
            let code = try #require(TodayText.colors[dose.status])
            #expect(painted[i + 2] == "\u{1B}[\(code)m" + plain[i + 2] + "\u{1B}[0m", "\(dose.medication)")
            #expect(plain[i + 2].contains(dose.medication) && plain[i + 2].contains(c.status(dose.status)))
        }
        #expect(painted[1] == plain[1], "the header is not coloured")
        #expect(TodayText.colors[.late] == TodayText.colors[.missed] && TodayText.colors[.late] != TodayText.colors[.taken],
                "late and missed apart from taken (orange and blue)")
    }
}
