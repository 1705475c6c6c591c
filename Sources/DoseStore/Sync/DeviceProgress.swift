import Foundation

/// One device's share of the operations, for `sync status`.
public struct DeviceProgress: Sendable, Equatable {
    public var device: String
    public var applied: Int
    public var pending: Int
    /// Stamp of the last applied operation.
    public var last: String?

    public init(device: String, applied: Int, pending: Int, last: String?) {
        self.device = device; self.applied = applied; self.pending = pending; self.last = last
    }
}
