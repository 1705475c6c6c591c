import Foundation

/// Another device's take or skip as its event keeps it (schema `v11-synced-doses`): no row of
/// `operation` per dose, the operation's id, device and stamp in the event it wrote.
public struct SyncedDose: Sendable, Equatable {
    /// The operation's id: an undo names it.
    public var id: String
    public var device: String
    public var stamp: String
    /// A take's units in hundredths (nil: a skip, or a line that gave none: one unit).
    public var units: Int?
    /// ``LineHash`` of its line: the same id with other content is refused.
    public var hash: Int64

    public init(id: String, device: String, stamp: String, units: Int?, hash: Int64) {
        self.id = id; self.device = device; self.stamp = stamp; self.units = units; self.hash = hash
    }
}
