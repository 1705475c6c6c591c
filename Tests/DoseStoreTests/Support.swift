import DoseCore
import DoseTestSupport
import Foundation
import GRDB
@testable import DoseStore

/// A fresh store on a real file in its own temporary directory.
struct Fixture {
    let dir = TemporaryDirectory(prefix: "dosestore")
    var path: String { dir.file("dosebar.sqlite") }
    let store: DoseStore

    init() throws {
        let dir = self.dir
        store = try DoseStore(path: dir.file("dosebar.sqlite"))
    }
}

func day(_ text: String) -> LocalDate { LocalDate(text)! }
func time(_ text: String) -> LocalTime { LocalTime(text)! }

/// 2026-03-10T08:00:00Z plus `seconds`.
func instant(_ seconds: Double = 0) -> Date { Date(timeIntervalSince1970: 1_773_129_600 + seconds) }

func daily(_ name: String, at times: [String] = ["08:00"], from start: String = "2026-01-01") -> Medication {
    let schedule = Schedule(recurrence: .daily, times: times.map(time), start: day(start))
    return Medication(id: 0, name: name, versions: [ScheduleVersion(effective: day(start), schedule: schedule)])
}

func asNeeded(_ name: String) -> Medication {
    let schedule = Schedule(recurrence: .asNeeded(maxPerDay: 3, minInterval: 14_400), times: [], start: day("2026-01-01"))
    return Medication(id: 0, name: name, versions: [ScheduleVersion(effective: day("2026-01-01"), schedule: schedule)])
}

func taken(_ medicationID: Int64, _ date: String, _ slot: String?, at: Date = instant(), stockDelta: Amount = 0) -> DoseEvent {
    DoseEvent(id: 0, medicationID: medicationID, kind: .taken,
              slot: slot.map { SlotKey(medicationID: medicationID, date: day(date), time: time($0)) },
              at: at, loggedAt: at, stockDelta: stockDelta)
}

func skipped(_ medicationID: Int64, _ date: String, _ slot: String, at: Date = instant()) -> DoseEvent {
    DoseEvent(id: 0, medicationID: medicationID, kind: .skipped,
              slot: SlotKey(medicationID: medicationID, date: day(date), time: time(slot)), at: at, loggedAt: at)
}

/// The bytes of a file, or nil when it does not exist.
func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Permission bits of a file or directory.
func mode(_ path: String) -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else { return -1 }
    return Int(info.st_mode & 0o777)
}

func directoryListing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// The badData message, or nil when `body` did not throw badData.
func badDataMessage(_ body: () throws -> Void) -> String? {
    do { try body() } catch DosebarError.badData(let message) { return message } catch { return "other error: \(error)" }
    return nil
}
