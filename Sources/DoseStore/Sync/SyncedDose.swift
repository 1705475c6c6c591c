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

    /// The event a synced dose was to write was not written: another event already keeps an
    /// operation of this id (the `event_op` index refused it). A line stamped after its device's
    /// high-water is not looked up by id first (``StoreReader/operationHash(id:stamp:highWater:)``),
    /// so a line that reuses an id with a later stamp ends here.
    public struct IDTaken: Error, Equatable {
        public let id: String
    }
}
