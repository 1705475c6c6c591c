import DoseCore
@testable import DoseExport

// The slow, obvious JSON builders that the fast paths of `SnapshotJSON` and `TimelineJSON` must match
// byte for byte: test oracles, so they live with the tests.

extension SnapshotJSON {
    /// The snapshot built with the plain builders, dose by dose.
    static func referenceObject(_ snapshot: Snapshot) -> JSONValue {
        JSONValue.object { o in
            fill(o, snapshot) { o in
                o.setArray("doses") { a in
                    for dose in snapshot.doses { a.appendObject { referenceDose($0, dose) } }
                }
            }
        }
    }

    /// A whole dose object of the snapshot's `doses`, field by field.
    static func referenceDose(_ d: JSONObjectBuilder, _ dose: Snapshot.Dose) {
        fillSlot(d, dose)
        d.set("status", dose.status.rawValue)
        d.set("taken_at", dose.takenAt?.iso8601)
        d.set("time_known", dose.timeKnown)
        d.set("late_minutes", dose.lateMinutes)
    }
}

extension TimelineJSON {
    /// The timeline built with the plain builders, status by status.
    static func referenceObject(_ timeline: Timeline, words: Catalog = .english, icons: IconSet = .emoji) throws -> JSONValue {
        let layout = try Layout(timeline)
        return build(timeline, layout, words: words, icons: icons) { o, e in
            o.setArray("doses") { a in
                for status in layout.statuses[e] { a.append(status < 0 ? nil : allStatuses[Int(status)].rawValue) }
            }
        }
    }
}
