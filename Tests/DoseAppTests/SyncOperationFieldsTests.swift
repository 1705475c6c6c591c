@testable import DoseApp
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
}
