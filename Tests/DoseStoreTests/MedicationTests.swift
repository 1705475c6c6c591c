import DoseCore
import Foundation
import GRDB
import Testing
@testable import DoseStore

@Suite("Medicines and schedule versions")
struct MedicationTests {
    static let recurrences: [Recurrence] = [
        .daily,
        .weekdays([.monday, .wednesday, .friday]),
        .weekdays([.sunday]),
        .weekdays(Set(Weekday.allCases)),
        .everyDays(3),
        .everyWeeks(2),
        .everyMonths(1),
        .everyMonths(12),
        .cycle(active: 21, rest: 7),
        .asNeeded(maxPerDay: nil, minInterval: nil),
        .asNeeded(maxPerDay: 4, minInterval: nil),
        .asNeeded(maxPerDay: nil, minInterval: 21_600),
        .asNeeded(maxPerDay: 2, minInterval: 3_600),
    ]

    @Test(arguments: recurrences)
    func everyRecurrenceRoundTrips(recurrence: Recurrence) throws {
        let f = try Fixture()
        let times = recurrence.isAsNeeded ? [] : [time("21:00"), time("08:00"), time("0:05")]
        let schedule = Schedule(recurrence: recurrence, times: times, window: 5_400,
                                start: day("2026-02-03"), until: day("2026-12-31"))
        let m = Medication(id: 0, name: "Iron", versions: [ScheduleVersion(effective: day("2026-02-01"), schedule: schedule)])
        let id = try f.store.write { try $0.insertMedication(m) }
        // Through a fresh connection, so nothing is cached.
        let loaded = try DoseStore(path: f.path).read { try $0.medication(id: id) }
        var expected = m
        expected.id = id
        #expect(loaded == expected)
        #expect(loaded?.versions.first?.schedule.recurrence == recurrence)
    }

    @Test func everyFieldRoundTrips() throws {
        let f = try Fixture()
        let schedule = Schedule(recurrence: .daily, times: [time("07:30")], start: day("2026-01-01"))
        let m = Medication(id: 0, name: "비타민 D", dose: "1000 IU", group: "morning", note: "with food",
                           stock: 30, perDose: 2, lowDays: 5, archivedOn: day("2026-06-01"),
                           versions: [ScheduleVersion(effective: day("2026-01-01"), schedule: schedule)])
        let id = try f.store.write { try $0.insertMedication(m) }
        var expected = m
        expected.id = id
        #expect(try f.store.read { try $0.medication(id: id) } == expected)
        let bare = Medication(id: 0, name: "Zinc", versions: [])
        let bareID = try f.store.write { try $0.insertMedication(bare) }
        #expect(try f.store.read { try $0.medication(id: bareID) } == Medication(id: bareID, name: "Zinc", versions: []))
        #expect(try f.store.read { try $0.medication(id: 999) } == nil)
    }

    @Test func versionsAreOrderedAndReplacedByEffectiveDate() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(daily("Aspirin", from: "2026-01-01")) }
        func version(_ effective: String, _ times: [String]) -> ScheduleVersion {
            ScheduleVersion(effective: day(effective),
                            schedule: Schedule(recurrence: .daily, times: times.map(time), start: day("2026-01-01")))
        }
        try f.store.write { w in
            try w.putVersion(medicationID: id, version("2026-03-01", ["09:00"]))
            try w.putVersion(medicationID: id, version("2026-02-01", ["10:00"]))
            try w.putVersion(medicationID: id, version("2026-03-01", ["11:00", "23:00"])) // replaces
        }
        let m = try #require(try f.store.read { try $0.medication(id: id) })
        #expect(m.versions.map(\.effective) == [day("2026-01-01"), day("2026-02-01"), day("2026-03-01")])
        #expect(m.versions.last?.schedule.times == [time("11:00"), time("23:00")])
        #expect(m.schedule(on: day("2026-02-15"))?.times == [time("10:00")])
        #expect(throws: DosebarError.badData("no medicine with id 42")) {
            try f.store.write { try $0.putVersion(medicationID: 42, version("2026-03-01", ["09:00"])) }
        }
    }

    @Test func listsByIDAndHidesArchivedUnlessAsked() throws {
        let f = try Fixture()
        let (a, b, c) = try f.store.write { w in
            (try w.insertMedication(daily("Zinc")), try w.insertMedication(daily("Aspirin")), try w.insertMedication(daily("Iron")))
        }
        try f.store.write { w in
            var zinc = try #require(try w.reader.medication(id: a))
            zinc.archivedOn = day("2026-03-01")
            try w.updateMedication(zinc)
        }
        let active = try f.store.read { try $0.medications(includeArchived: false) }
        #expect(active.map(\.id) == [b, c])
        #expect(active.allSatisfy { $0.versions.count == 1 })
        let all = try f.store.read { try $0.medications(includeArchived: true) }
        #expect(all.map(\.id) == [a, b, c])
        #expect(all.first?.versions.count == 1)
    }

    @Test func updateReplacesFieldsButNotVersions() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(daily("Aspirin")) }
        var m = try #require(try f.store.read { try $0.medication(id: id) })
        m.name = "Aspirin Protect"
        m.dose = "100 mg"
        m.group = "evening"
        m.note = "after dinner"
        m.stock = 12
        m.perDose = 2
        m.lowDays = 3
        m.versions = [] // ignored
        try f.store.write { try $0.updateMedication(m) }
        let loaded = try #require(try f.store.read { try $0.medication(id: id) })
        #expect(loaded.name == "Aspirin Protect" && loaded.dose == "100 mg" && loaded.group == "evening")
        #expect(loaded.note == "after dinner" && loaded.stock == 12 && loaded.perDose == 2 && loaded.lowDays == 3)
        #expect(loaded.versions.count == 1)
        m.id = 77
        #expect(throws: DosebarError.badData("no medicine with id 77")) { try f.store.write { try $0.updateMedication(m) } }
    }

    @Test func stockIsSetAndNeverNegative() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(daily("Aspirin")) }
        try f.store.write { try $0.setStock(medicationID: id, 28) }
        #expect(try f.store.read { try $0.medication(id: id) }?.stock == 28)
        try f.store.write { try $0.setStock(medicationID: id, nil) }
        #expect(try f.store.read { try $0.medication(id: id) }?.stock == nil)
        #expect(throws: FieldRules.Violation.self) { try f.store.write { try $0.setStock(medicationID: id, -1) } }
        #expect(throws: DosebarError.badData("no medicine with id 5")) { try f.store.write { try $0.setStock(medicationID: 5, 1) } }
    }

    @Test func activeNamesAreUniqueIgnoringCase() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(daily("Aspirin")) }
        for clash in ["aspirin", "ASPIRIN", "AsPiRiN"] {
            #expect(throws: DosebarError.badData("a medicine named \(clash) already exists; pick another name or edit that one")) {
                _ = try f.store.write { try $0.insertMedication(daily(clash)) }
            }
        }
        // Beyond ASCII, and whatever the Unicode normalisation.
        _ = try f.store.write { try $0.insertMedication(daily("Äpfel")) }
        #expect(badDataMessage { _ = try f.store.write { try $0.insertMedication(daily("äPFEL")) } }?.contains("already exists") == true)
        #expect(badDataMessage { _ = try f.store.write { try $0.insertMedication(daily("A\u{308}pfel")) } }?.contains("already exists") == true)

        // Renaming onto another active name is refused too.
        let other = try f.store.write { try $0.insertMedication(daily("Iron")) }
        var iron = try #require(try f.store.read { try $0.medication(id: other) })
        iron.name = "aspirin"
        #expect(badDataMessage { try f.store.write { try $0.updateMedication(iron) } }?.contains("already exists") == true)

        // Archiving frees the name; un-archiving into a clash is refused.
        var aspirin = try #require(try f.store.read { try $0.medication(id: id) })
        aspirin.archivedOn = day("2026-03-01")
        try f.store.write { try $0.updateMedication(aspirin) }
        let again = try f.store.write { try $0.insertMedication(daily("aspirin")) }
        #expect(again != id)
        aspirin.archivedOn = nil
        #expect(badDataMessage { try f.store.write { try $0.updateMedication(aspirin) } }?.contains("already exists") == true)
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let f = try Fixture()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try f.store.write { w in
                _ = try w.insertMedication(daily("Aspirin"))
                try w.setMeta("k", "v")
                throw Boom()
            }
        }
        #expect(try f.store.read { try $0.medications(includeArchived: true) }.isEmpty)
        #expect(try f.store.read { try $0.meta("k") } == nil)
    }

    @Test func refusesInvalidMedicines() throws {
        let f = try Fixture()
        #expect(throws: FieldRules.Violation(field: "name", reason: "is empty")) {
            _ = try f.store.write { try $0.insertMedication(daily("  ")) }
        }
        var m = daily("Aspirin")
        m.perDose = 0
        #expect(throws: FieldRules.Violation.self) { _ = try f.store.write { try $0.insertMedication(m) } }
    }

    @Test func unreadableScheduleIsBadData() throws {
        let f = try Fixture()
        let id = try f.store.write { try $0.insertMedication(daily("Aspirin")) }
        try f.store.dbQueue.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE schedule_version SET kind = 'lunar' WHERE medication_id = ?", arguments: [id])
        }
        #expect(badDataMessage { _ = try f.store.read { try $0.medications(includeArchived: true) } }?.contains("unreadable schedule") == true)
    }
}
