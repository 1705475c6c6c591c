import DoseCore

/// Renders `doses` arrays as JSON text, without building a json-c object per dose.
///
/// Two forms: a snapshot's doses as whole objects (`render`), and a timeline entry's
/// doses as `[status, taken_at, late_minutes]` triples parallel to the timeline's `slots`
/// (`renderOutcomes`, schema 2). A timeline of 1,000 medicines holds 50–150 entries × ~2,000
/// slots and from one entry to the next most slots keep their outcome: a triple is
/// rendered when its slot's outcome changes and reused otherwise. Strings are escaped by
/// json-c (`JSONValue.quoted`), once per distinct string. The output is byte for byte
/// what building each value as a json-c object gives (`SnapshotJSON.referenceObject` and
/// `TimelineJSON.referenceObject`, checked by the tests).
struct DoseListJSON {
    /// What changes about a slot during the day.
    private struct Outcome: Equatable {
        var status: SlotStatus
        var takenAt: LocalInstant?
        var lateMinutes: Int?
    }

    private var outcomes: [Outcome] = []
    private var outcomeTexts: [[UInt8]] = []
    private var quotedCache: [String: String] = [:]
    private var buffer: [UInt8] = []

    /// The JSON array of a snapshot's `doses` (whole objects), as UTF-8.
    mutating func render(_ doses: [Snapshot.Dose]) -> [UInt8] {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "["))
        for (i, dose) in doses.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: slotText(dose).utf8)
            buffer.append(contentsOf: ",\"status\":".utf8)
            buffer.append(contentsOf: outcomeObjectText(dose).utf8)
        }
        buffer.append(UInt8(ascii: "]"))
        return buffer
    }

    /// The JSON array of a timeline entry's `doses`: one `[status, taken_at, late_minutes]`
    /// per dose, as UTF-8. Successive calls reuse the triple of every slot (by index) whose
    /// outcome did not change since the previous call.
    mutating func renderOutcomes(_ doses: [Snapshot.Dose]) -> [UInt8] {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(UInt8(ascii: "["))
        for i in doses.indices {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            // Field by field: copying the whole dose would retain and release its strings.
            let outcome = Outcome(status: doses[i].status, takenAt: doses[i].takenAt, lateMinutes: doses[i].lateMinutes)
            if i < outcomes.count, outcomes[i] == outcome {
                buffer.append(contentsOf: outcomeTexts[i])
                continue
            }
            let text = Self.outcomeArray(outcome)
            if i < outcomes.count {
                outcomes[i] = outcome
                outcomeTexts[i] = text
            } else {
                outcomes.append(outcome)
                outcomeTexts.append(text)
            }
            buffer.append(contentsOf: text)
        }
        buffer.append(UInt8(ascii: "]"))
        return buffer
    }

    private mutating func quoted(_ s: String) -> String {
        if let q = quotedCache[s] { return q }
        let q = JSONValue.quoted(s)
        quotedCache[s] = q
        return q
    }

    /// `{"medication":…,"scheduled":"…"` (the object left open).
    private mutating func slotText(_ d: Snapshot.Dose) -> String {
        var s = "{\"medication\":" + quoted(d.medication)
        s += ",\"medication_id\":" + String(d.medicationID)
        s += ",\"dose\":" + (d.dose.map { quoted($0) } ?? "null")
        s += ",\"group\":" + (d.group.map { quoted($0) } ?? "null")
        s += ",\"scheduled\":\"" + d.scheduled.iso8601 + "\""
        return s
    }

    /// The status value through the closing brace (no user text: nothing to escape).
    private func outcomeObjectText(_ d: Snapshot.Dose) -> String {
        "\"" + d.status.rawValue + "\",\"taken_at\":" + instantText(d.takenAt)
            + ",\"late_minutes\":" + minutesText(d.lateMinutes) + "}"
    }

    /// `["status","taken_at"|null,late_minutes|null]` (no user text: nothing to escape).
    private static func outcomeArray(_ o: Outcome) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        bytes.append(contentsOf: "[\"".utf8)
        bytes.append(contentsOf: o.status.rawValue.utf8)
        bytes.append(contentsOf: "\",".utf8)
        if let at = o.takenAt {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: at.iso8601.utf8)
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: (o.lateMinutes.map { String($0) } ?? "null").utf8)
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    private func instantText(_ instant: LocalInstant?) -> String {
        instant.map { "\"" + $0.iso8601 + "\"" } ?? "null"
    }

    private func minutesText(_ minutes: Int?) -> String {
        minutes.map { String($0) } ?? "null"
    }
}
