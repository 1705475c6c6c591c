import Foundation

/// A slot taken by two (or more) operations of different devices, both kept (DESIGN §10 Merge
/// rules): the earliest take resolves the slot, every other take is an extra dose. It is a
/// warning (message `double_dose`) until one take is undone or the person confirms both were
/// taken; a confirmed one stays in history and the report, marked.
public struct DoubleDose: Sendable, Equatable {
    /// One take of the slot: the device that recorded it (its id as `sync status` lists it), when
    /// it was taken, and the operation that recorded it (what a confirmation names).
    public struct Take: Sendable, Equatable {
        public var device: String
        public var at: Date
        public var operation: String

        public init(device: String, at: Date, operation: String) {
            self.device = device; self.at = at; self.operation = operation
        }
    }

    public var medication: String
    public var slot: SlotKey
    /// Earliest first (the one that resolves the slot).
    public var takes: [Take]
    /// Every take is named by a confirmation (``SyncMerge/doubleDose(_:confirmed:)``).
    public var confirmed: Bool

    public init(medication: String, slot: SlotKey, takes: [Take], confirmed: Bool) {
        self.medication = medication; self.slot = slot
        self.takes = takes.sorted { ($0.at, $0.operation) < ($1.at, $1.operation) }
        self.confirmed = confirmed
    }

    /// The `double_dose` message: the medicine, the slot (with its day when not `today`) and each
    /// take as `device HH:MM`, earliest first.
    public func message(today: LocalDate, zone: Zone) -> Message {
        Message(MessageID.doubleDose, .critical, ["name": .text(medication), "time": .text(slotText(today: today)),
                                                   "takes": .list(takeTexts(zone: zone))])
    }

    /// `18:00`, or `2026-11-21 18:00` for a slot of another day than `today`.
    public func slotText(today: LocalDate) -> String {
        slot.date == today ? slot.time.description : slot.date.description + " " + slot.time.description
    }

    /// Each take as `device HH:MM`, earliest first.
    public func takeTexts(zone: Zone) -> [String] {
        takes.map { $0.device + " " + zone.local($0.at).clock }
    }
}
