import DoseCore
import Foundation
import GRDB
import Testing
@testable import DoseStore

@Suite("Events, undo and the queries the bar runs")
struct EventTests {
    @Test func eventsRoundTrip() throws {
        let f = try Fixture()
        let (a, b) = try f.store.write { w in (try w.insertMedication(daily("Aspirin")), try w.insertMedication(asNeeded("Ibuprofen"))) }
        let scheduled = DoseEvent(id: 0, medicationID: a, kind: .taken,
                                  slot: SlotKey(medicationID: a, date: day("2026-03-10"), time: time("08:00")),
                                  at: instant(-600), loggedAt: instant(30), stockDelta: 1)
        let extra = DoseEvent(id: 0, medicationID: b, kind: .taken, slot: nil, at: instant(3_600.25), loggedAt: instant(3_600.25))
        let (i, j) = try f.store.write { w in
            (try w.insertEvent(scheduled, day: day("2026-03-10")), try w.insertEvent(extra, day: day("2026-03-10")))
        }
        let events = try DoseStore(path: f.path).read { try $0.events(days: day("2026-03-10")...day("2026-03-10")) }
        var s = scheduled, e = extra
        s.id = i
        e.id = j
        #expect(events == [s, e])
        #expect(try f.store.read { try $0.event(id: i) } == s)
    }

    @Test("a row's kind is told from its bytes, over a short and a long range; a kind this dosebar does not know is refused")
    func kindsReadFromBytes() throws {
        let f = try Fixture()
        let a = try f.store.write { w in try w.insertMedication(daily("Aspirin", at: ["08:00", "20:00"])) }
        let (t, k) = try f.store.write { w in
            (try w.insertEvent(taken(a, "2026-03-10", "08:00"), day: day("2026-03-10")),
             try w.insertEvent(skipped(a, "2026-03-10", "20:00"), day: day("2026-03-10")))
        }
        let short = day("2026-03-10")...day("2026-03-10"), long = day("2026-01-01")...day("2026-12-31")
        for range in [short, long] {
            let read = try f.store.read { try $0.events(days: range) }
            #expect(read.map(\.id) == [t, k] && read.map(\.kind) == [.taken, .skipped], "\(range)")
        }
        // An undo cancels the take in both ways of reading.
        let take = try #require(try f.store.read { try $0.event(id: t) })
        _ = try f.store.write { w in try w.insertUndo(of: take, at: instant(60)) }
        for range in [short, long] {
            #expect(try f.store.read { try $0.events(days: range) }.map(\.kind) == [.skipped], "\(range)")
        }
        // A kind from a newer dosebar (past the table's check, as a newer schema would let it).
        try DatabaseQueue(path: f.path).write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "INSERT INTO event (medication_id, kind, day, slot_time, at, logged_at) VALUES (?, 'eaten', ?, 480, 0, 0)",
                           arguments: [a, day("2026-03-10").dayNumber])
        }
        // A short range selects the counted kinds in SQL, so the row is not read; a long one reads every row.
        #expect(try DoseStore(path: f.path).read { try $0.events(days: short) }.map(\.kind) == [.skipped])
        #expect { try DoseStore(path: f.path).read { try $0.events(days: long) } } throws: { error in
            "\(error)".contains("has an unknown kind 'eaten'")
        }
    }

    @Test func eventsAreSelectedByDayAndOrdered() throws {
        let f = try Fixture()
        let (a, b) = try f.store.write { w in (try w.insertMedication(daily("Aspirin")), try w.insertMedication(asNeeded("Ibuprofen"))) }
        let ids = try f.store.write { w in
            [try w.insertEvent(taken(a, "2026-03-09", "08:00"), day: day("2026-03-09")),
             try w.insertEvent(taken(a, "2026-03-11", "08:00"), day: day("2026-03-11")),
             try w.insertEvent(taken(a, "2026-03-10", "08:00"), day: day("2026-03-10")),
             try w.insertEvent(taken(b, "2026-03-10", nil), day: day("2026-03-10")),
             try w.insertEvent(skipped(a, "2026-03-12", "08:00"), day: day("2026-03-12")),
             try w.insertEvent(taken(a, "2026-03-08", "08:00"), day: day("2026-03-08"))]
        }
        let range = try f.store.read { try $0.events(days: day("2026-03-09")...day("2026-03-11")) }
        #expect(range.map(\.id) == [ids[0], ids[2], ids[3], ids[1]])
        let one = try f.store.read { try $0.events(days: day("2026-03-12")...day("2026-03-12")) }
        #expect(one.map(\.kind) == [.skipped])
        #expect(try f.store.read { try $0.events(days: day("2026-04-01")...day("2026-04-30")) }.isEmpty)
    }

    @Test func undoneEventsDisappearAndUndoIsAppendOnly() throws {
        let f = try Fixture()
        let a = try f.store.write { try $0.insertMedication(daily("Aspirin", at: ["08:00", "20:00"])) }
        let (first, second) = try f.store.write { w in
            (try w.insertEvent(taken(a, "2026-03-10", "08:00", stockDelta: 1), day: day("2026-03-10")),
             try w.insertEvent(taken(a, "2026-03-10", "20:00", stockDelta: 1), day: day("2026-03-10")))
        }
        let target = try #require(try f.store.read { try $0.event(id: second) })
        let undoID = try f.store.write { try $0.insertUndo(of: target, at: instant(60)) }
        let today = day("2026-03-10")...day("2026-03-10")
        #expect(try f.store.read { try $0.events(days: today) }.map(\.id) == [first])
        #expect(try f.store.read { try $0.isUndone(eventID: second) })

        // The undo is an event of its own; the original is still there, untouched.
        let undo = try #require(try f.store.read { try $0.event(id: undoID) })
        #expect(undo.kind == .undone && undo.target == second && undo.slot == nil)
        #expect(undo.at == instant(60) && undo.stockDelta == -1 && undo.medicationID == a)
        #expect(try f.store.read { try $0.event(id: second) } == target)

        // Once only; an undo cannot be undone; unknown events cannot be undone.
        #expect(throws: DosebarError.badData("that dose was already undone; nothing to undo")) {
            _ = try f.store.write { try $0.insertUndo(of: target, at: instant(61)) }
        }
        #expect(badDataMessage { _ = try f.store.write { try $0.insertUndo(of: undo, at: instant(62)) } } != nil)
        var ghost = target
        ghost.id = 999
        #expect(badDataMessage { _ = try f.store.write { try $0.insertUndo(of: ghost, at: instant(62)) } } != nil)

        // The database itself refuses to change history.
        #expect(throws: (any Error).self) { try f.store.dbQueue.write { try $0.execute(sql: "UPDATE event SET kind = 'skipped'") } }
        #expect(throws: (any Error).self) { try f.store.dbQueue.write { try $0.execute(sql: "DELETE FROM event") } }
    }

    @Test func latestUndoableWithAndWithoutMedication() throws {
        let f = try Fixture()
        let (a, b) = try f.store.write { w in (try w.insertMedication(daily("Aspirin")), try w.insertMedication(daily("Iron"))) }
        #expect(try f.store.read { try $0.latestUndoable(medicationID: nil) } == nil)
        // Logged order decides, not the instant taken (a back-dated take is still the latest action).
        let a1 = try f.store.write { try $0.insertEvent(taken(a, "2026-03-10", "08:00", at: instant(0)), day: day("2026-03-10")) }
        let b1 = try f.store.write { try $0.insertEvent(skipped(b, "2026-03-10", "08:00", at: instant(100)), day: day("2026-03-10")) }
        let a2 = try f.store.write { try $0.insertEvent(taken(a, "2026-03-09", "08:00", at: instant(-86_400)), day: day("2026-03-09")) }

        #expect(try f.store.read { try $0.latestUndoable(medicationID: nil) }?.id == a2)
        #expect(try f.store.read { try $0.latestUndoable(medicationID: a) }?.id == a2)
        #expect(try f.store.read { try $0.latestUndoable(medicationID: b) }?.id == b1)

        // Undo walks back through history.
        try f.store.write { w in _ = try w.insertUndo(of: try #require(try w.reader.latestUndoable(medicationID: nil)), at: instant(200)) }
        #expect(try f.store.read { try $0.latestUndoable(medicationID: nil) }?.id == b1)
        #expect(try f.store.read { try $0.latestUndoable(medicationID: a) }?.id == a1)
        try f.store.write { w in _ = try w.insertUndo(of: try #require(try w.reader.latestUndoable(medicationID: a)), at: instant(300)) }
        #expect(try f.store.read { try $0.latestUndoable(medicationID: a) } == nil)
        #expect(try f.store.read { try $0.latestUndoable(medicationID: nil) }?.id == b1)
        #expect(try f.store.read { try $0.latestUndoable(medicationID: 12345) } == nil)
    }

    @Test func insertEventRefusesInconsistentInput() throws {
        let f = try Fixture()
        let a = try f.store.write { try $0.insertMedication(daily("Aspirin")) }
        #expect(throws: DosebarError.self) { // slot date differs from day
            _ = try f.store.write { try $0.insertEvent(taken(a, "2026-03-10", "08:00"), day: day("2026-03-11")) }
        }
        var undo = taken(a, "2026-03-10", nil)
        undo.kind = .undone
        #expect(throws: DosebarError.self) { _ = try f.store.write { try $0.insertEvent(undo, day: day("2026-03-10")) } }
        #expect(throws: DosebarError.badData("no medicine with id 99")) {
            _ = try f.store.write { try $0.insertEvent(taken(99, "2026-03-10", nil), day: day("2026-03-10")) }
        }
    }

    @Test func instantsKeepSubSecondPrecision() throws {
        let f = try Fixture()
        let a = try f.store.write { try $0.insertMedication(asNeeded("Ibuprofen")) }
        let at = Date(timeIntervalSince1970: 1_773_129_600.123456)
        _ = try f.store.write { try $0.insertEvent(taken(a, "2026-03-10", nil, at: at), day: day("2026-03-10")) }
        let stored = try #require(try f.store.read { try $0.latestUndoable(medicationID: a) })
        #expect(abs(stored.at.timeIntervalSince(at)) < 1e-6)
    }

    // MARK: - Query plans: the bar's queries must not scan history

    func plan(_ store: DoseStore, _ sql: String, _ arguments: StatementArguments) throws -> [String] {
        try store.dbQueue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    @Test func eventsInDaysUsesTheDayAndTargetIndexes() throws {
        let f = try Fixture()
        let steps = try plan(f.store, StoreReader.eventsInDaysSQL, [20_000, 20_001])
        #expect(steps.contains { $0.contains("SEARCH e USING INDEX event_day (day>? AND day<?)") }, "\(steps)")
        #expect(steps.contains { $0.contains("SEARCH u USING COVERING INDEX event_target (target=?)") }, "\(steps)")
        #expect(!steps.contains { $0.hasPrefix("SCAN") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
    }

    @Test func latestUndoableUsesIndexesAndNeverSorts() throws {
        let f = try Fixture()
        let mine = try plan(f.store, StoreReader.latestUndoableOfMedicationSQL, [1])
        #expect(mine.contains { $0.contains("SEARCH e USING INDEX event_medication (medication_id=?)") }, "\(mine)")
        #expect(mine.contains { $0.contains("USING COVERING INDEX event_target (target=?)") }, "\(mine)")
        #expect(!mine.contains { $0.contains("TEMP B-TREE") }, "\(mine)")
        // Without a medicine: newest rowid first, stopping at the first effective event.
        let any = try plan(f.store, StoreReader.latestUndoableSQL, [])
        #expect(any.contains { $0.contains("USING COVERING INDEX event_target (target=?)") }, "\(any)")
        #expect(!any.contains { $0.contains("TEMP B-TREE") }, "\(any)")
    }

    @Test func twentyYearsOfHistory() throws {
        let f = try Fixture()
        let ids = try f.store.write { w in try (0..<4).map { try w.insertMedication(daily("Med \($0)", at: ["08:00"], from: "2006-01-01")) } }
        let first = day("2006-01-01"), last = day("2026-03-10")
        try f.store.write { w in
            var d = first
            while d <= last {
                for id in ids {
                    let e = DoseEvent(id: 0, medicationID: id, kind: .taken,
                                      slot: SlotKey(medicationID: id, date: d, time: time("08:00")),
                                      at: Date(timeIntervalSince1970: Double(d.dayNumber * 86_400 + 28_800)),
                                      loggedAt: Date(timeIntervalSince1970: Double(d.dayNumber * 86_400 + 28_800)))
                    _ = try w.insertEvent(e, day: d)
                }
                d = d.adding(days: 1)
            }
        }
        try f.store.dbQueue.write { try $0.execute(sql: "ANALYZE") } // the plan must hold with statistics too
        let today = try f.store.read { try $0.events(days: last...last) }
        #expect(today.count == 4 && today.allSatisfy { $0.slot?.date == last })
        let steps = try plan(f.store, StoreReader.eventsInDaysSQL, [last.dayNumber, last.dayNumber])
        #expect(!steps.contains { $0.hasPrefix("SCAN") }, "\(steps)")
        let month = try f.store.read { try $0.events(days: day("2026-02-01")...day("2026-02-28")) }
        #expect(month.count == 28 * 4)
    }
}
