import DoseCore
import DoseTestSupport
import Foundation
import GRDB
import Testing
@testable import DoseStore

/// The writer is the one gate every write passes (CLI, import, sync): hostile values are refused
/// with a `FieldRules.Violation` and nothing of the transaction is kept; rows an older dosebar
/// stored out of range are still read, and do not stop later writes that leave them as they are.
@Suite("The validation gate of the store's writer")
struct GateTests {
    /// 2026-03-10T08:00:00Z: the store's clock in these tests.
    static let now = instant()

    static func fixture() throws -> (TemporaryDirectory, DoseStore) {
        let dir = TemporaryDirectory(prefix: "dosestore")
        return (dir, try DoseStore(path: dir.file("dosebar.sqlite"), clock: { GateTests.now }))
    }

    static func violation(_ body: () throws -> Void) -> FieldRules.Violation? {
        do { try body() } catch let v as FieldRules.Violation { return v } catch { Issue.record("threw \(error)") }
        return nil
    }

    /// Every table's rows, to show a refused write left nothing behind.
    static func dump(_ store: DoseStore) throws -> [String] {
        try store.dbQueue.read { db in
            try ["medication", "schedule_version", "event"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { "\(table) \($0)" }
            }
        }
    }

    @Test func medicinesWithHostileFieldsAreRefusedWhole() throws {
        let (_, store) = try Self.fixture()
        let before = try Self.dump(store)
        var cases: [(String, Medication)] = []
        for (field, change) in [("name", { (m: inout Medication) in m.name = "Evil\u{1B}]0;pwned\u{7}" }),
                                ("name", { $0.name = "abc\u{202E}gpj" }),
                                ("name", { $0.name = "Nul\u{0}Name" }),
                                ("name", { $0.name = String(repeating: "n", count: 10_000) }),
                                ("note", { $0.note = String(repeating: "x", count: 5_000_000) }),
                                ("dose", { $0.dose = "1\u{85}mg" }),
                                ("group", { $0.group = "g\u{2066}" }),
                                ("stock", { $0.stock = Amount(hundredths: .max) }),
                                ("stock", { $0.stock = -5 }),
                                ("per dose", { $0.perDose = 99_999_999_999_999 }),
                                ("low days", { $0.lowDays = Int.min })] as [(String, (inout Medication) -> Void)] {
            var m = daily("Aspirin")
            change(&m)
            cases.append((field, m))
        }
        var every0 = daily("Aspirin")
        every0.versions[0].schedule.recurrence = .everyDays(0)
        cases.append(("every", every0))
        var cycle00 = daily("Aspirin")
        cycle00.versions[0].schedule.recurrence = .cycle(active: 0, rest: 0)
        cases.append(("cycle active days", cycle00))
        for (field, m) in cases {
            #expect(Self.violation { _ = try store.write { try $0.insertMedication(m) } }?.field == field)
        }
        #expect(try Self.dump(store) == before)
    }

    @Test func scheduleVersionsStockAndEventsPassTheGate() throws {
        let (_, store) = try Self.fixture()
        let id = try store.write { try $0.insertMedication(daily("Aspirin")) }
        try store.write { try $0.setStock(medicationID: id, 30) }
        let before = try Self.dump(store)
        let base = daily("Aspirin").versions[0]
        for (field, r) in [("every", Recurrence.everyDays(0)), ("every", .everyWeeks(Int.max)), ("cycle active days", .cycle(active: 0, rest: 0)),
                           ("weekdays", .weekdays([]))] {
            var v = base
            v.schedule.recurrence = r
            #expect(Self.violation { try store.write { try $0.putVersion(medicationID: id, v) } }?.field == field)
        }
        var late = base
        late.schedule.times = []
        #expect(Self.violation { try store.write { try $0.putVersion(medicationID: id, late) } }?.field == "times")
        for stock in [Amount(hundredths: .max), -1, 1_000_001] {
            #expect(Self.violation { try store.write { try $0.setStock(medicationID: id, stock) } }?.field == "stock")
        }
        let cases: [(String, DoseEvent)] = [
            ("at", taken(id, "2026-03-10", "08:00", at: Date(timeIntervalSince1970: 1e300))),
            ("at", taken(id, "2026-03-10", "08:00", at: Date(timeIntervalSince1970: -1e300))),
            ("at", taken(id, "2026-03-10", "08:00", at: Date(timeIntervalSince1970: .nan))),
            ("at", taken(id, "2026-03-10", "08:00", at: Date(timeIntervalSince1970: -2_208_988_800))),   // 1900
            ("at", taken(id, "2026-03-10", "08:00", at: instant(86_400 + 1))),                          // tomorrow and a second
            ("units", taken(id, "2026-03-10", "08:00", stockDelta: Amount(hundredths: .min))),
            ("units", taken(id, "2026-03-10", "08:00", stockDelta: Amount(hundredths: .max))),
        ]
        for (field, e) in cases {
            #expect(Self.violation { _ = try store.write { try $0.insertEvent(e, day: day("2026-03-10")) } }?.field == field)
        }
        var logged = taken(id, "2026-03-10", "08:00")
        logged.loggedAt = Date(timeIntervalSince1970: .infinity)
        #expect(Self.violation { _ = try store.write { try $0.insertEvent(logged, day: day("2026-03-10")) } }?.field == "logged at")
        #expect(Self.violation { _ = try store.write { try $0.insertEvent(taken(id, "1969-12-31", nil), day: day("1969-12-31")) } }?.field == "day")
        #expect(try Self.dump(store) == before)
        // Within a day of the clock is fine (another device's clock may run ahead).
        _ = try store.write { try $0.insertEvent(taken(id, "2026-03-11", "08:00", at: instant(86_400)), day: day("2026-03-11")) }
    }

    @Test func aRowStoredOutOfRangeIsReadAndDoesNotBlockOtherEdits() throws {
        let (_, store) = try Self.fixture()
        let id = try store.write { try $0.insertMedication(daily("Aspirin")) }
        // What an older dosebar's sync wrote: every 0 days, a name with ESC, stock 2^63 - 1, per dose 0.
        try store.dbQueue.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE schedule_version SET kind = 'every_days', param_a = 0 WHERE medication_id = ?", arguments: [id])
            try db.execute(sql: "UPDATE medication SET name = ?, stock = ?, per_dose = 0 WHERE id = ?",
                           arguments: ["Asp\u{1B}irin", Int64.max, id])
        }
        let m = try #require(try store.read { try $0.medication(id: id) })
        #expect(m.versions.first?.schedule.recurrence == .everyDays(0))
        #expect(FieldRules.storedProblem(m)?.field == "name")
        let plan = DayPlan(date: day("2026-03-10"), medications: [m], events: [], zone: Zone(TimeZone(identifier: "UTC")!))
        #expect(plan.slots.isEmpty)
        // An event an older sync stored with units -2^63 can be undone (its negation saturates).
        let eventID = try store.dbQueue.write { db -> Int64 in
            try db.execute(sql: """
                INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at, target, stock_delta, time_known)
                VALUES (?, 'taken', ?, 480, ?, ?, NULL, ?, 1)
                """, arguments: [id, day("2026-03-10").dayNumber, instant().timeIntervalSince1970, instant().timeIntervalSince1970, Int64.min])
            return db.lastInsertedRowID
        }
        let poisoned = try #require(try store.read { try $0.event(id: eventID) })
        let undo = try store.write { try $0.insertUndo(of: poisoned, at: instant(60)) }
        #expect(try store.read { try $0.event(id: undo) }?.stockDelta == Amount(hundredths: .max))
        #expect(Self.violation { _ = try store.write { try $0.insertUndo(of: poisoned, at: Date(timeIntervalSince1970: .nan)) } }?.field == "at")
        // Archiving (an update that leaves the bad fields as they are) still works; a new bad value does not.
        var archived = m
        archived.archivedOn = day("2026-03-10")
        try store.write { try $0.updateMedication(archived) }
        var renamed = archived
        renamed.note = "x\u{1B}"
        #expect(Self.violation { try store.write { try $0.updateMedication(renamed) } }?.field == "note")
    }
}
