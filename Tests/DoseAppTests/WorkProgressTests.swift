@testable import DoseApp
import DoseCore
import Testing

/// The daemon's side of long work (DESIGN §8): one log line once the work has gone on for longer
/// than the threshold, one when it ends; nothing for quick work. The terminal line is checked end
/// to end (ProgressLineTests).
@Suite struct WorkProgressTests {
    /// A clock the test moves, and a log it reads.
    final class Bench {
        var now = 100.0
        var lines: [String] = []
        lazy var progress = WorkProgress(.log { [unowned self] in lines.append($0) }, catalog: .english, threshold: 1,
                                         clock: { [unowned self] in now })
    }

    @Test("work longer than a second: one line when it is seen to be long, one at its end, with the count and the time")
    func long() {
        let b = Bench()
        b.progress.begin(.operations, total: 1000)
        for i in 1...10 {
            b.now += 0.25
            b.progress.step(i * 100)
        }
        b.progress.end()
        #expect(b.lines == ["Applying other devices' operations: 1000 to do, 400 done after 1.0 s",
                            "Applying other devices' operations: 1000 of 1000 done in 2.5 s"], "\(b.lines)")
    }

    @Test("quick work logs nothing, and a second begin ends the work before it")
    func quick() {
        let b = Bench()
        b.progress.begin(.doses, total: 10)
        b.now += 0.5
        b.progress.step(10)
        b.progress.end()
        #expect(b.lines.isEmpty)
        b.progress.begin(.history, total: 5)
        b.now += 2
        b.progress.step(1)
        b.progress.begin(.days, total: 3)
        #expect(b.lines == ["Writing this device's history: 5 to do, 1 done after 2.0 s",
                            "Writing this device's history: 1 of 5 done in 2.0 s"], "\(b.lines)")
        b.progress.end()
        #expect(b.lines.count == 2)
    }

    @Test("the terminal line: rate and time left from the work so far, cut to the terminal's width (Hangul two cells)")
    func line() {
        var now = 10.0
        let t = WorkProgress(.terminal(columns: 80), catalog: .english, threshold: 100, clock: { now })
        t.begin(.operations, total: 1000)
        now += 2
        t.step(500)
        #expect(t.line(now: now) == "Applying other devices' operations: 500/1000 · 250/s · 2 s left")
        #expect(WorkProgress.fit("가나다abc", columns: 5) == "가나")
        #expect(WorkProgress.fit("ab가나", columns: 5) == "ab가")
        #expect(WorkProgress.fit("abc", columns: 10) == "abc")
    }
}
