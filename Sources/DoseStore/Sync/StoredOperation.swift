import Foundation
import GRDB

/// One row of `operation`, as sync reads and writes it (schema `v3-sync`, `v5-operation-event`).
public struct StoredOperation: Sendable, Equatable {
    /// Local arrival order (this database's own operations are written to its file in this order).
    public var seq: Int64
    public var id: String
    public var device: String
    public var stamp: String
    public var kind: String
    /// The medicine's global id, when the operation is about one.
    public var medicine: String?
    /// A stock value, the units of a refill or of a dose, in hundredths of a unit (since `v8-hundredths`).
    public var amount: Int?
    /// The JSON line of the device's file: always for this device's own operations (written to
    /// its file from here), for another device's only while it waits (empty once applied).
    public var body: String
    public var applied: Bool
    /// The event a take or skip wrote or was found to be (a take seen on two devices at the same
    /// second is one event).
    public var eventID: Int64?
    /// ``LineHash`` of its line (nil: stored before it was kept).
    public var hash: Int64?
    /// `FILE:LINE` of another device's operation while it waits.
    public var origin: String?

    public init(seq: Int64 = 0, id: String, device: String, stamp: String, kind: String, medicine: String?, amount: Int?,
                body: String, applied: Bool, eventID: Int64? = nil, hash: Int64? = nil, origin: String? = nil) {
        self.seq = seq; self.id = id; self.device = device; self.stamp = stamp; self.kind = kind
        self.medicine = medicine; self.amount = amount; self.body = body; self.applied = applied; self.eventID = eventID
        self.hash = hash; self.origin = origin
    }

    init(row: Row) {
        self.init(seq: row["seq"], id: row["id"], device: row["device"], stamp: row["stamp"], kind: row["kind"],
                  medicine: row["medicine"], amount: row["amount"], body: row["body"], applied: (row["applied"] as Int) != 0,
                  eventID: row["event_id"], hash: row["hash"], origin: row["origin"])
    }
}
