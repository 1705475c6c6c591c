import DoseCore

/// Renders the `doses` arrays of consecutive snapshots, reusing what did not change.
///
/// A timeline of 1,000 medicines holds ~150 entries × 2,000 doses, and from one entry to
/// the next most doses are identical or differ only in status/lateness. Each dose is
/// rendered as a fragment `{"medication":…,"scheduled":"…","status":` + `…}`: the slot
/// half is reused while the slot is the same, the whole fragment while the dose is
/// equal. Strings are escaped by json-c (`JSONValue.quoted`), once per distinct string.
/// The output is byte-for-byte what building each dose as a json-c object gives
/// (`SnapshotJSON.referenceObject`, checked by the tests).
struct DoseListJSON {
    private var previous: [Snapshot.Dose] = []
    private var slotTexts: [String] = []
    private var doseTexts: [String] = []
    private var quotedCache: [String: String] = [:]
    private var buffer: [UInt8] = []

    /// The JSON array of `doses`, as UTF-8.
    mutating func render(_ doses: [Snapshot.Dose]) -> [UInt8] {
        var slots: [String] = [], texts: [String] = []
        slots.reserveCapacity(doses.count)
        texts.reserveCapacity(doses.count)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "["))
        for (i, dose) in doses.enumerated() {
            let slot: String, text: String
            if i < previous.count, previous[i] == dose {
                slot = slotTexts[i]
                text = doseTexts[i]
            } else {
                if i < previous.count, sameSlot(previous[i], dose) {
                    slot = slotTexts[i]
                } else {
                    slot = slotText(dose)
                }
                text = slot + outcomeText(dose)
            }
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: text.utf8)
            slots.append(slot)
            texts.append(text)
        }
        buffer.append(UInt8(ascii: "]"))
        previous = doses
        slotTexts = slots
        doseTexts = texts
        return buffer
    }

    private func sameSlot(_ a: Snapshot.Dose, _ b: Snapshot.Dose) -> Bool {
        a.medicationID == b.medicationID && a.scheduled == b.scheduled && a.scheduled.offset == b.scheduled.offset
            && a.medication == b.medication && a.dose == b.dose && a.group == b.group
    }

    private mutating func quoted(_ s: String) -> String {
        if let q = quotedCache[s] { return q }
        let q = JSONValue.quoted(s)
        quotedCache[s] = q
        return q
    }

    /// Everything up to and including `"status":`.
    private mutating func slotText(_ d: Snapshot.Dose) -> String {
        var s = "{\"medication\":" + quoted(d.medication)
        s += ",\"medication_id\":" + String(d.medicationID)
        s += ",\"dose\":" + (d.dose.map { quoted($0) } ?? "null")
        s += ",\"group\":" + (d.group.map { quoted($0) } ?? "null")
        s += ",\"scheduled\":\"" + d.scheduled.iso8601 + "\",\"status\":"
        return s
    }

    /// The status value through the closing brace (no user text: nothing to escape).
    private func outcomeText(_ d: Snapshot.Dose) -> String {
        var s = "\"" + d.status.rawValue + "\",\"taken_at\":"
        s += d.takenAt.map { "\"" + $0.iso8601 + "\"" } ?? "null"
        s += ",\"late_minutes\":" + (d.lateMinutes.map { String($0) } ?? "null") + "}"
        return s
    }
}
