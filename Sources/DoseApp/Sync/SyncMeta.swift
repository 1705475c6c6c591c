/// Names of sync's values in `meta`.
enum SyncMeta {
    /// This device's id (random, made by `sync init`); absent: sync was never initialised.
    static let device = "sync.device"
    /// The folder Syncthing shares (absolute).
    static let dir = "sync.dir"
    /// The hybrid logical clock (``SyncClock/state``).
    static let clock = "sync.clock"
    /// `operation.seq` of the last own operation appended to this device's file.
    static let written = "sync.written"
    /// Prefix of where the last read of another device's file (its path follows) stopped
    /// (``SyncFolder/Position``).
    static let read = "sync.read:"
    /// Where the last check of this device's own file stopped (``SyncFolder/Position``): every line
    /// before it is one this machine wrote (``SyncService/checkOwnFiles(_:)``).
    static let own = "sync.own"
    /// Set when this machine found another's lines in its own file (a copied home): `OLD NEW
    /// INSTANT`, the device id it had, the one it took and when. `sync status` and `doctor` say it.
    static let cloned = "sync.cloned"
    /// Of a file read up to a position: the bytes just before it, hashed (``SyncReadMark``).
    static let readMark = "sync.mark:"
    /// Set when a medicine was purged (here or by another device's operation): this device's own
    /// file is to be rewritten without its lines and the database compacted (``SyncService``).
    static let rewrite = "sync.rewrite"
    /// Medicines (local ids, comma-separated) whose stock is still to be derived: a long file is
    /// applied in batches, each committed, and the stock is derived once after the last
    /// (``SyncService``); kept here so a run cut short derives it the next time.
    static let stockPending = "sync.stock-pending"
}
