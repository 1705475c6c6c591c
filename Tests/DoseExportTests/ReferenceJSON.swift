import DoseCore
@testable import DoseExport

// The slow, obvious JSON builder that the fast path of `TimelineJSON` must match byte for byte: a
// test oracle, so it lives with the tests.

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
