import Foundation

/// An operation's `tracked_from`: an instant (Unix seconds), or `null` for a medicine tracked from its
/// first schedule day.
public enum TrackingStart: Encodable, Sendable, Equatable {
    case instant(Double)
    case firstScheduleDay

    public init(_ date: Date?) {
        self = date.map { .instant($0.timeIntervalSince1970) } ?? .firstScheduleDay
    }

    /// The medicine's ``Medication/trackedFrom``.
    public var date: Date? {
        if case .instant(let t) = self { return Date(timeIntervalSince1970: t) }
        return nil
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .instant(let t): try c.encode(t)
        case .firstScheduleDay: try c.encodeNil()
        }
    }
}
