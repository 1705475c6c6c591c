import Foundation

/// What the daemon's notifications leave for the next daemon process: the notifications the
/// server accepted and that may still be on screen (with the server's id and exactly the doses
/// they name, so "Taken" on them still logs those doses after a restart), and the snoozed
/// reminders with when they are due. Kept as one JSON value in the database's `meta` table,
/// under ``metaKey`` (device-local: sync never carries it).
struct NotifyState: Codable, Equatable, Sendable {
    /// A notification the server accepted, by its id.
    struct Open: Codable, Equatable, Sendable {
        var id: UInt32
        var alert: DoseAlert
        /// The notify-send waiting for its answer (it outlives a killed daemon: the next one ends it).
        var helper: Int32? = nil
        /// When an unanswered reminder is shown again in its place (``DoseAlert/repeatMinutes``
        /// after the server took it); nil: never.
        var repeatAt: Date? = nil
    }

    /// A reminder put off by "Snooze", due at `at`.
    struct Snoozed: Codable, Equatable, Sendable {
        var at: Date
        var alert: DoseAlert
    }

    var open: [Open] = []
    var snoozed: [Snoozed] = []
    /// The last event looked at for a click's confirmation (DESIGN §2): every take up to it was
    /// confirmed or is too old to be. Nil before the first daemon with `--notify`, which starts
    /// from the events already there (a click from before it is not news).
    var clicksSeen: Int64? = nil

    /// Nothing worth keeping for the next daemon.
    var isEmpty: Bool { open.isEmpty && snoozed.isEmpty && clicksSeen == nil }

    /// The `meta` key the state is stored under.
    static let metaKey = "daemon.notifications"

    /// The stored form (compact JSON, keys sorted so an unchanged state is an unchanged string).
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads a stored state.
    static func decoded(_ text: String) throws -> NotifyState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(NotifyState.self, from: Data(text.utf8))
    }
}
