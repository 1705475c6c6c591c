import DoseCore

extension DayService {
    /// What `today` shows: the day as it stands at the context's now.
    public func snapshot() throws -> Snapshot {
        TimelineProvider(builder: builder(try load())).snapshot(at: context.now)
    }

    /// What a bar shows now (`status`): the entry of today's timeline in force at the context's
    /// now, the one `export` writes.
    public func current() throws -> Snapshot {
        guard let snapshot = try timeline().entry(at: context.now) else { throw DosebarError.internal("empty timeline") }
        return snapshot
    }
}
