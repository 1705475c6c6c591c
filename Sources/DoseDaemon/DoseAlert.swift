import DoseCore
import Foundation

/// One desktop notification the daemon owes the person: every unresolved dose of one time that has
/// just become due (or late), named together so one click acts on exactly those doses.
///
/// A value: it depends on DoseCore only and does no I/O, so the loop tests build alerts directly.
struct DoseAlert: Hashable, Sendable, Codable {
    /// Which transition the notification announces.
    /// `missed`: the last notification of a slot that closed unresolved (DESIGN §5) — "missed, do not
    /// double the next dose"; it offers no action (there is nothing left to take).
    /// `took`: the confirmation of doses a click (no terminal) recorded, with an Undo of exactly
    /// those events (``events``). `nothing`: a click that recorded nothing, saying what is next
    /// (``note``: the refusal the click got). Neither is about a transition of a slot.
    /// `double`: a slot taken on two devices (DESIGN §10), once per slot; its one action confirms
    /// both takes (undoing one is `dosebar undo`). `travel`: a change of zone moved the medicine's
    /// next dose (``TravelGap``), once per change and medicine; no action, its text (``note``) names
    /// both choices.
    enum Kind: String, Sendable, Comparable, Codable {
        case due, late, missed, double, took, nothing, travel
        private var rank: Int {
            switch self {
            case .due: 0
            case .late: 1
            case .missed: 2
            case .double: 3
            case .travel: 4
            case .took: 5
            case .nothing: 6
            }
        }
        /// Says something, offers nothing to do, and stays on screen until closed.
        var isNotice: Bool { self == .missed || self == .nothing || self == .travel }
        static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
        /// Feedback on a click, not a reminder: no Taken/Snooze/Skip, never withdrawn because a slot got resolved.
        var isFeedback: Bool { self == .took || self == .nothing }
    }

    /// How long after its cut-off a closed slot is still announced as missed (a daemon started, or a
    /// laptop woken, later than that says nothing: the news is old and the next dose is near).
    static let missedNoticeSpan: TimeInterval = 6 * 3600

    /// One dose named in the notification.
    struct Dose: Hashable, Sendable, Codable {
        var slot: SlotKey
        var medication: String
        var dose: String?

        private enum CodingKeys: String, CodingKey { case medicationID, slot, medication, dose }

        init(slot: SlotKey, medication: String, dose: String?) {
            self.slot = slot; self.medication = medication; self.dose = dose
        }

        /// The slot as the database writes it: the medicine's id and `YYYY-MM-DDTHH:MM`.
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let text = try c.decode(String.self, forKey: .slot)
            let parts = text.split(separator: "T")
            guard parts.count == 2, let date = LocalDate(String(parts[0])), let time = LocalTime(String(parts[1])) else {
                throw DecodingError.dataCorruptedError(forKey: .slot, in: c, debugDescription: "not a slot: \(text)")
            }
            slot = SlotKey(medicationID: try c.decode(Int64.self, forKey: .medicationID), date: date, time: time)
            medication = try c.decode(String.self, forKey: .medication)
            dose = try c.decodeIfPresent(String.self, forKey: .dose)
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(slot.medicationID, forKey: .medicationID)
            try c.encode(slot.description, forKey: .slot)
            try c.encode(medication, forKey: .medication)
            try c.encodeIfPresent(dose, forKey: .dose)
        }
    }

    var kind: Kind
    /// The scheduled instant every dose of the alert shares.
    var scheduled: Date
    var doses: [Dose]
    /// True for the reminder after "Snooze 10 min".
    var reminder = false
    /// For `took`: the events confirmed, which Undo reverts.
    var events: [Int64]? = nil
    /// For `nothing`: what the click was told.
    var note: String? = nil
    /// Of a `double`: each take as `device HH:MM`, earliest first.
    var takes: [String]? = nil
    /// Of a `due` or `late` reminder: one of its medicines is `--urgent` (critical from the first).
    /// Optional, like the fields after it: a state stored by an older daemon has none.
    var urgent: Bool? = nil
    /// Of a `due` or `late` reminder: minutes after which it is shown again while unanswered (the
    /// shortest of its medicines', ``repeatMinutes(of:default:)``); nil: never.
    var repeatMinutes: Int? = nil

    /// A medicine's repeat interval in minutes: its own `--repeat`, else the configuration's
    /// `[notify] repeat`; nil when that is none or off (0).
    static func repeatMinutes(of m: Medication, default fallback: Int?) -> Int? {
        guard let minutes = m.repeatMinutes ?? fallback, minutes > 0 else { return nil }
        return minutes
    }

    /// How this reminder carries `m`'s settings: urgent when any of its medicines is, repeated at
    /// the shortest interval of theirs.
    mutating func carry(_ m: Medication, repeatDefault: Int?) {
        if m.urgent { urgent = true }
        if let minutes = Self.repeatMinutes(of: m, default: repeatDefault) { repeatMinutes = min(repeatMinutes ?? minutes, minutes) }
    }

    /// The slots this alert acts on (none for feedback on a click).
    var slots: [SlotKey] { kind.isFeedback ? [] : doses.map(\.slot) }

    /// The persisted "already sent" key of one slot's transition: `due:<medication id>:<YYYY-MM-DDTHH:MM>`.
    static func key(_ kind: Kind, _ slot: SlotKey) -> String { "\(kind.rawValue):\(slot.medicationID):\(slot)" }

    /// This alert's keys: one per dose, or for `took` one per event confirmed (`took:<event id>`);
    /// none for `nothing` (its record is consumed when read).
    var keys: [String] {
        switch kind {
        case .took: (events ?? []).map { "took:\($0)" }
        case .nothing: []
        default: doses.map { DoseAlert.key(kind, $0.slot) }
        }
    }

    /// The confirmations owed for `takes` (doses recorded without a terminal, in the order written):
    /// one per action (the doses one command logged share their logged instant), naming its doses,
    /// leaving out the events `alreadySent` answers for (`took:<id>`).
    static func confirmations(_ takes: [ClickTake], alreadySent: (String) -> Bool) -> [DoseAlert] {
        var groups: [DoseAlert] = []
        for take in takes where !alreadySent("took:\(take.event)") {
            if let i = groups.firstIndex(where: { $0.scheduled == take.loggedAt }) {
                groups[i].doses.append(take.dose)
                groups[i].events?.append(take.event)
            } else {
                groups.append(DoseAlert(kind: .took, scheduled: take.loggedAt, doses: [take.dose], events: [take.event]))
            }
        }
        return groups
    }

    /// The `travel` alert of each gap standing at `now` (``TravelGap/stands(at:resolvedAt:)``) not
    /// announced yet: one per change and medicine, its text the snapshot's message.
    static func owedTravels(_ gaps: [(gap: TravelGap, text: String, resolvedAt: Date?)], now: Date,
                            alreadySent: (String) -> Bool) -> [DoseAlert] {
        gaps.filter { $0.gap.stands(at: now, resolvedAt: $0.resolvedAt) }.map { g in
            DoseAlert(kind: .travel, scheduled: g.gap.changeAt,
                      doses: [Dose(slot: g.gap.next, medication: g.gap.medication, dose: nil)], note: g.text)
        }.filter { !$0.keys.contains(where: alreadySent) }
    }

    /// The `double` alerts owed for the slots taken on two devices not confirmed yet (`doubles`,
    /// each a one-dose alert with its takes): those not announced yet, whatever day they are of.
    static func owedDoubles(_ doubles: [DoseAlert], alreadySent: (String) -> Bool) -> [DoseAlert] {
        doubles.filter { $0.kind == .double && !$0.keys.contains(where: alreadySent) }
    }

    /// The alerts owed at `now` for the day's slots (carried ones included): every slot that is `due`
    /// or `late` now, or closed unresolved within ``missedNoticeSpan``, whose transition was not
    /// announced yet (`alreadySent` answers for a key), grouped by kind and scheduled instant.
    /// Resolved and upcoming slots never produce an alert. A reminder carries its medicines'
    /// urgency and repeat interval (`repeatDefault`: `[notify] repeat`); a missed notice neither.
    static func owed(slots: [PlannedSlot], now: Date, repeatDefault: Int? = nil, alreadySent: (String) -> Bool) -> [DoseAlert] {
        var groups: [DoseAlert] = []
        for slot in slots {
            let kind: Kind
            switch slot.status(at: now) {
            case .due: kind = .due
            case .late: kind = .late
            case .missed where now.timeIntervalSince(slot.cutoff) < missedNoticeSpan: kind = .missed
            default: continue
            }
            if alreadySent(key(kind, slot.key)) { continue }
            let dose = Dose(slot: slot.key, medication: slot.medication.name, dose: slot.medication.dose)
            let i = groups.firstIndex { $0.kind == kind && $0.scheduled == slot.instant } ?? groups.endIndex
            if i == groups.endIndex { groups.append(DoseAlert(kind: kind, scheduled: slot.instant, doses: [])) }
            groups[i].doses.append(dose)
            if kind != .missed { groups[i].carry(slot.medication, repeatDefault: repeatDefault) }
        }
        return groups.sorted { ($0.scheduled, $0.kind) < ($1.scheduled, $1.kind) }
    }
}
