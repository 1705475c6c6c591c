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
}
