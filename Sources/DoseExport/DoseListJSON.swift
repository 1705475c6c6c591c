import DoseCore

/// Renders a snapshot's `doses` array as JSON text, without going through the builders for
/// each dose (a snapshot of 1,000 medicines lists ~2,000 doses). Strings are escaped by
/// `JSONValue.quoted`, once per distinct string. The output is byte for byte what building
/// each dose as an object gives (the tests' `SnapshotJSON.referenceObject` checks it).
/// (`timeline.json` schema 3 writes one status word per slot and entry: `TimelineJSON`.)
struct DoseListJSON {
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
        s += ",\"day\":\"" + d.day.description + "\""
        s += ",\"scheduled\":\"" + d.scheduled.iso8601 + "\""
        return s
    }

    /// The status value through the closing brace (no user text: nothing to escape).
    private func outcomeObjectText(_ d: Snapshot.Dose) -> String {
        "\"" + d.status.rawValue + "\",\"taken_at\":" + instantText(d.takenAt)
            + ",\"time_known\":" + (d.timeKnown ? "true" : "false")
            + ",\"late_minutes\":" + minutesText(d.lateMinutes) + "}"
    }

    private func instantText(_ instant: LocalInstant?) -> String {
        instant.map { "\"" + $0.iso8601 + "\"" } ?? "null"
    }

    private func minutesText(_ minutes: Int?) -> String {
        minutes.map { String($0) } ?? "null"
    }
}
