@testable import DoseApp
import DoseCore
import Testing

/// `SyncOperation`'s reader finds a line's keys by slot (`Field`); the names come from the coding
/// keys the writer uses, so a field added to one and not the other would be read as absent.
@Suite struct SyncOperationFieldsTests {
    @Test("every coding key is read through exactly one field")
    func everyKeyOnce() {
        let read = SyncOperation.Field.allCases.map(\.key)
        #expect(Set(read) == Set(SyncOperation.CodingKeys.allCases))
        #expect(read.count == SyncOperation.CodingKeys.allCases.count)
        #expect(SyncOperation.fieldTable.count == read.count)
    }

    @Test("the stamp, day and slot read once stay in step with the fields when they change")
    func readOnceInStep() {
        var op = SyncOperation(kind: .take, medicine: "m")
        #expect(op.clock == nil && op.millis == nil && op.dayDate == nil && op.slotTime == nil)
        op.device = "0123456789abcdef"
        op.stamp = "1795144200000-00100-0123456789abcdef"
        op.day = "2026-11-20"
        op.slot = "08:30"
        #expect(op.clock == SyncClock(op.stamp) && op.clock != nil)
        #expect(op.millis == 1_795_144_200_000)
        #expect(op.dayDate == LocalDate("2026-11-20") && op.slotTime == LocalTime("08:30"))
        op.device = "fedcba9876543210"
        #expect(op.millis == nil, "the stamp names another device")
        op.slot = "25:00"
        op.day = nil
        #expect(op.slotTime == nil && op.dayDate == nil)
    }

    @Test("a line with every field set, each to its own value, reads back field for field")
    func everyFieldReadBack() throws {
        var op = SyncOperation(kind: .take, medicine: "medicine-gid")
        op.id = "0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
        op.device = "0123456789abcdef"
        op.stamp = "1795144200000-00100-0123456789abcdef"
        op.name = "name"; op.dose = "dose"; op.group = "group"; op.note = "note"
        op.perDose = Amount(hundredths: 150); op.lowDays = 7; op.changed = ["changed"]; op.distinctFrom = ["distinct"]
        op.archivedOn = "2026-11-01"; op.effective = "2026-11-02"
        op.schedule = SyncSchedule(Schedule(recurrence: .daily, times: [LocalTime(hour: 8, minute: 0)!], window: 3_600,
                                            start: LocalDate(year: 2026, month: 11, day: 3)!))
        op.stock = Amount(hundredths: 3_000); op.units = Amount(hundredths: 250)
        op.day = "2026-11-04"; op.slot = "09:30"; op.at = 1_795_144_200.5; op.timeKnown = false; op.overLimit = true
        op.target = "target-id"; op.trackedFrom = .instant(1_795_000_000); op.confirms = ["confirmed-take"]
        op.first = true; op.urgent = true; op.repeatMinutes = 15
        op.perDoseTimes = ["08:00=0.5", "20:00=1"]
        let line = try op.line(encoder: SyncOperation.lineEncoder())
        // Every coding key is on the line: a field the reader took from another key would differ below.
        for key in SyncOperation.CodingKeys.allCases { #expect(line.contains("\"\(key.stringValue)\":"), "\(key)") }
        #expect(SyncOperation.parse(Substring(line)) == op, "\(line)")
    }
}
