@testable import DoseCore
@testable import DoseExport
import Foundation
import Testing

@Suite struct SnapshotJSONTests {
    func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func topLevelKeysInContractOrder() throws {
        let text = SnapshotJSON.snapshot(Fixtures.empty)
        let keys = ["schema", "at", "valid_until", "day", "timezone", "state", "counts", "progress", "doses",
                    "as_needed", "next", "streak", "adherence", "stock", "cycle", "week", "message", "messages", "text", "tooltip"]
        // Each key found after the previous one: the top-level keys come in this order.
        var from = text.startIndex
        for key in keys {
            let found = text.range(of: "\"\(key)\":", range: from..<text.endIndex)
            #expect(found != nil, "\(key) missing or out of order")
            from = found?.upperBound ?? from
        }
        #expect(try parse(text).count == keys.count)
        #expect(text.hasPrefix("{\"schema\":1,\"at\":\"2026-11-01T00:00:00+09:00\",\"valid_until\":"))
    }

    @Test func optionalsAreNullWithTheirKeys() throws {
        let text = SnapshotJSON.snapshot(Fixtures.newYork)
        #expect(text.contains("\"dose\":null,\"group\":null"))
        #expect(text.contains("\"taken_at\":null,\"time_known\":true,\"late_minutes\":null"))
        #expect(text.contains("\"late_minutes\":150"))
        let seoul = SnapshotJSON.snapshot(Fixtures.seoulDone)
        #expect(seoul.contains("\"next\":null"))
        #expect(seoul.contains("\"max_per_day\":null,\"next_allowed\":null"))
        #expect(seoul.contains("\"days_left\":null,\"low\":false"), "as-needed stock has no days-left figure")
        #expect(SnapshotJSON.snapshot(Fixtures.hostile).contains("\"adherence\":{\"days7\":null,\"days30\":null,\"on_time\":null}"))
    }

    @Test func valuesMatchTheSnapshot() throws {
        let s = Fixtures.newYork
        let o = try parse(SnapshotJSON.snapshot(s))
        #expect(o["schema"] as? Int == 1)
        #expect(o["at"] as? String == "2026-03-09T13:30:00-04:00")
        #expect(o["day"] as? String == "2026-03-09")
        #expect(o["state"] as? String == "late")
        #expect(o["progress"] as? Int == 40)
        let counts = try #require(o["counts"] as? [String: Int])
        #expect(counts == ["total": 5, "taken": 2, "skipped": 0, "due": 1, "late": 1, "missed": 0, "upcoming": 1, "carried": 0])
        let doses = try #require(o["doses"] as? [[String: Any]])
        #expect(doses.count == 5)
        let metformin = try #require(doses.first { $0["medication"] as? String == "Metformin" })
        #expect(metformin["status"] as? String == "taken_late")
        #expect(metformin["taken_at"] as? String == "2026-03-09T10:45:00-04:00")
        #expect(metformin["medication_id"] as? Int == 2)
        #expect(metformin["day"] as? String == "2026-03-09")
        #expect(metformin["time_known"] as? Bool == true)
        let next = try #require(o["next"] as? [String: Any])
        #expect(next["scheduled"] as? String == "2026-03-09T21:00:00-04:00")
        let streak = try #require(o["streak"] as? [String: Any])
        #expect(streak["today"] as? String == "pending")
        let message = try #require(o["message"] as? [String: String])
        #expect(message == ["id": "late_2h", "severity": "warning", "text": "Iron is 2h 30m late"])
        let ids = (o["messages"] as? [[String: Any]])?.map { $0["id"] as? String ?? "" }
        #expect(ids == ["late_2h", "due_now", "low_stock", "next_up", "move_suggestion"])
        #expect(o["tooltip"] as? String == s.tooltip)
        // The fixture's last 6 days: complete, one dose missed, then complete (some doses late) four times.
        let week = try #require(o["week"] as? [[String: String]])
        #expect(week.map { $0["day"] ?? "" } == ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07",
                                                 "2026-03-08", "2026-03-09"])
        #expect(week.map { $0["state"] ?? "" } == ["done", "partial", "done", "done", "done", "done", "pending"])
        #expect(week.allSatisfy { $0.count == 2 })
    }

    /// Yesterday's 22:00 dose, still open (late) at 13:30.
    static let carried = Snapshot.Dose(
        medication: "Yaz", medicationID: 9, dose: nil, group: nil, day: LocalDate("2026-03-08")!,
        scheduled: Fixtures.at("2026-03-08", "22:00", Fixtures.newYorkEDT), status: .late, takenAt: nil, lateMinutes: 930)

    /// A carried dose is written first with its own day; `counts.carried` counts it; a take whose
    /// time is not known says so.
    @Test func carriedDoseAndUnknownTimeAreWritten() throws {
        var s = Fixtures.newYork
        s.doses.insert(Self.carried, at: 0)
        s.counts.carried = 1
        let metformin = try #require(s.doses.firstIndex { $0.medication == "Metformin" })
        s.doses[metformin].timeKnown = false
        let o = try parse(SnapshotJSON.snapshot(s))
        #expect((o["counts"] as? [String: Int])?["carried"] == 1)
        let doses = try #require(o["doses"] as? [[String: Any]])
        #expect(doses[0]["medication"] as? String == "Yaz" && doses[0]["day"] as? String == "2026-03-08")
        #expect(doses[0]["status"] as? String == "late" && doses[0]["late_minutes"] as? Int == 930)
        #expect(doses[1]["day"] as? String == "2026-03-09")
        #expect(doses[metformin]["time_known"] as? Bool == false)
        #expect(doses.filter { $0["time_known"] as? Bool == true }.count == doses.count - 1)
    }

    @Test func unicodeStaysUTF8() {
        let text = SnapshotJSON.snapshot(Fixtures.seoulDone)
        #expect(text.contains("\"medication\":\"오메가3\""))
        #expect(text.contains("✅ 3/3 · 7일 연속"))
        #expect(text.contains("\"timezone\":\"Asia/Seoul\""))
    }

    @Test func jsonValueBuilderCoversEveryKind() {
        let value = JSONValue.object { o in
            o.set("s", "a\"b\\c/d\u{1}")
            o.set("i", -5)
            o.set("t", true)
            o.set("f", false)
            o.set("n", nil as String?)
            o.setNull("m")
            o.set("e", "")
            o.setArray("a") { a in
                a.append(1); a.append("x"); a.append(nil as Int?); a.append(true)
                a.appendArray { $0.append(2) }
                a.appendObject { $0.set("k", "v") }
                a.appendRaw(json: Array(#"{"raw":[1,2]}"#.utf8))
            }
            o.setRaw("r", json: Array("null".utf8))
        }
        #expect(value.text == #"{"s":"a\"b\\c/d\u0001","i":-5,"t":true,"f":false,"n":null,"m":null,"e":"","a":[1,"x",null,true,[2],{"k":"v"},{"raw":[1,2]}],"r":null}"#)
        #expect(JSONValue.array { _ in }.text == "[]")
        #expect(JSONValue.quoted("a/\"é\n") == #""a/\"é\n""#)
        #expect(JSONValue.quoted("") == #""""#)
    }
}
