import DoseStore

/// Tells whether another process committed to the database since the last question, from
/// SQLite's data_version on the daemon's own connection. When the pragma cannot be read it
/// answers yes: a needless refresh is better than a missed take.
final class DataVersionWatch {
    private let store: DoseStore
    private var last: Int?

    init(_ store: DoseStore) {
        self.store = store
        last = try? store.dataVersion()
    }

    func changed() -> Bool {
        guard let now = try? store.dataVersion() else { return true }
        defer { last = now }
        return now != last
    }
}
