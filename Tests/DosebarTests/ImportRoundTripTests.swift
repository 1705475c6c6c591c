import DoseTestSupport
import Foundation
import Testing

/// `report --format csv` of database A imported into database B, which has the same medicines and
/// schedule history (the same add/edit/remove commands) but no doses, gives back A's report byte for
/// byte: random takes (on time, late, early), skips, undos, edits with --effective, archives and
/// as-needed doses, several seeds (printed on failure).
@Suite struct ImportRoundTripTests {

    struct Step {
        var args: [String]
        var now: String
        /// A schedule command: B runs it too.
        var schedule: Bool
    }

    static func day(_ i: Int) -> String {
        let base = DateComponents(calendar: Calendar(identifier: .gregorian), year: 2026, month: 11, day: 2).date!
        let d = Calendar(identifier: .gregorian).date(byAdding: .day, value: i, to: base)!
        let c = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    static func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    /// A random history of `days` days in `zone` (offset `offset`).
    static func steps(seed: UInt64, days: Int, offset: String) -> [Step] {
        var rng = SplitMix64(seed: seed) // the same seed gives the same history on every machine
        var steps: [Step] = []
        func at(_ d: Int, _ hm: String) -> String { "\(day(d))T\(hm):00\(offset)" }
        let kinds = [["--days", "mon,wed,fri,sat"], ["--every", "2d"], ["--cycle", "3/2", "--from", day(0)], []]
        var meds: [(name: String, times: [Int])] = []
        for (i, name) in ["Aspirin", "Metformin", "Yaz"].enumerated() {
            let times = i == 1 ? [8 * 60, 20 * 60] : [rng.int(6...10) * 60 + rng.int(0...3) * 15]
            let kind = kinds[rng.int(0...(kinds.count - 1))]
            steps.append(Step(args: ["add", name, "--at", times.map(clock).joined(separator: ","), "--dose", "\(i + 1) pill, \"x\""] + kind,
                              now: at(0, "06:00"), schedule: true))
            meds.append((name, times))
        }
        steps.append(Step(args: ["add", "Ibuprofen", "--as-needed"], now: at(0, "06:00"), schedule: true))
        var archived = Set<String>()
        for d in 0..<days {
            // An edit of a medicine still active (an archived one refuses edits).
            let active = meds.indices.filter { !archived.contains(meds[$0].name) }
            if d > 0 && rng.chance(0.2) {
                let m = rng.pick(active)
                let t = rng.int(7...11) * 60
                meds[m].times = meds[m].times.count == 2 ? [t, 21 * 60] : [t]
                steps.append(Step(args: ["edit", meds[m].name, "--at", meds[m].times.map(clock).joined(separator: ","),
                                         "--effective", day(d - rng.int(0...1))],
                                  now: at(d, "06:30"), schedule: true))
            }
            if d == days / 2 && rng.chance(0.7) {
                let name = meds[rng.int(0...(meds.count - 1))].name
                archived.insert(name)
                steps.append(Step(args: ["remove", name], now: at(d, "06:45"), schedule: true))
            }
            for m in meds where !archived.contains(m.name) {
                for t in m.times {
                    let r = rng.int(0...9)
                    let minute: Int
                    switch r {
                    case 0...3: minute = t + rng.int(-60...90)            // on time
                    case 4: minute = min(t + 150 + rng.int(0...60), 23 * 60) // late
                    case 5: minute = max(t - 150 - rng.int(0...60), 5)      // early
                    default: minute = t
                    }
                    let verb = r == 6 || r == 7 ? "skip" : "take"
                    if r == 9 { continue } // missed
                    steps.append(Step(args: [verb, m.name, "--at", "\(day(d))T\(clock(minute))"], now: at(d, "23:50"), schedule: false))
                    if rng.chance(0.1) { steps.append(Step(args: ["undo", m.name], now: at(d, "23:51"), schedule: false)) }
                }
            }
            for _ in 0..<rng.int(0...2) {
                steps.append(Step(args: ["take", "Ibuprofen", "--at", "\(day(d))T\(clock(rng.int(300...1400)))"], now: at(d, "23:52"), schedule: false))
            }
        }
        return steps
    }

    @Test("report --format csv of A imported into B (same schedules, no doses) is A's report byte for byte", arguments: [
        (UInt64(1), "Asia/Seoul", "+09:00"), (UInt64(2), "Asia/Seoul", "+09:00"),
        (UInt64(3), "UTC", "+00:00"), (UInt64(4), "Asia/Kolkata", "+05:30"),
    ])
    func roundTrip(seed: UInt64, zone: String, offset: String) throws {
        let days = 9
        let steps = Self.steps(seed: seed, days: days, offset: offset)
        let end = "\(Self.day(days))T12:00:00\(offset)"
        let a = Harness(tz: zone, now: end), b = Harness(tz: zone, now: end)
        for step in steps {
            let ra = try a.run(step.args, now: step.now)
            #expect(ra.status == 0 || ra.status == 65, "seed \(seed): \(step.args) → \(ra.status) \(ra.err)")
            if step.schedule {
                #expect(ra.status == 0, "seed \(seed): \(step.args): \(ra.err)")
                try b.ok(step.args, now: step.now)
            }
        }
        let range = ["--from", Self.day(0), "--to", Self.day(days)]
        let reportA = try a.ok(["report", "--format", "csv"] + range).out
        let file = b.root + "/a.csv"
        try reportA.write(toFile: file, atomically: true, encoding: .utf8)
        let summary = try #require(try b.ok(["import", "csv", file, "--json"]).json as? [String: Any])
        #expect((summary["added"] as? [Any])?.isEmpty == true, "seed \(seed): every name known in B")
        let reportB = try b.ok(["report", "--format", "csv"] + range).out
        #expect(reportA.split(separator: "\r\n").count > 10, "seed \(seed): a history worth the name")
        if reportB != reportA {
            let la = reportA.components(separatedBy: "\r\n"), lb = reportB.components(separatedBy: "\r\n")
            let first = (0..<min(la.count, lb.count)).first { la[$0] != lb[$0] } ?? min(la.count, lb.count)
            Issue.record("seed \(seed) (\(zone)): B differs from A at line \(first + 1):\nA: \(first < la.count ? la[first] : "–")\nB: \(first < lb.count ? lb[first] : "–")")
        }
        // And again: nothing more.
        let again = try #require(try b.ok(["import", "csv", file, "--json"]).json as? [String: Any])
        #expect(again["taken"] as? Int == 0 && again["skipped"] as? Int == 0, "seed \(seed)")
    }
}

extension Harness {
    /// Runs and requires exit 0 (arguments as an array).
    @discardableResult
    func ok(_ args: [String], now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
        let r = try run(args, now: now)
        #expect(r.status == 0, "dosebar \(args.joined(separator: " ")) failed: \(r.err)", sourceLocation: sourceLocation)
        return r
    }
}
