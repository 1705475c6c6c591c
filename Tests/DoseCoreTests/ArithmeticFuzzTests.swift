import DoseCore
import DoseTestSupport
import Foundation
import Testing

/// Values no rule would let in today, as an older or broken dosebar may already have stored them
/// (DESIGN §9: arithmetic on anything that came from a file cannot trap): random and extreme
/// recurrences, amounts, days and instants through everything that computes with them. A trap
/// (division by zero, overflow, a Double out of Int's range) kills the test process, which fails
/// the run loudly; the assertions check the answers stay sensible where one is defined.
@Suite struct ArithmeticFuzzTests {
    static let extremes: [Int] = [Int.min, Int.min + 1, -(1 << 62), -1_000_000_007, -366, -1, 0, 1, 2, 7, 366,
                                  Int.max / 7 + 1, Int.max / 12 + 1, 1 << 62, Int.max - 1, Int.max]
    static let extremeSeconds: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, -9.3e18,
                                           Double(Int64.max), Double(Int64.min), 8.7e15, -8.7e15, -1, 0,
                                           1_779_000_000, 253_402_300_800]

    static func int(_ g: inout SplitMix64) -> Int {
        g.chance(0.6) ? g.pick(extremes) : Int(bitPattern: UInt(g.next()))
    }

    static func seconds(_ g: inout SplitMix64) -> Double {
        switch g.int(0...2) {
        case 0: return g.pick(extremeSeconds)
        case 1: return Double(g.int(-4_000_000_000...4_000_000_000))
        default: return Double(bitPattern: g.next())   // any bit pattern: NaNs, subnormals, huge
        }
    }

    /// An extreme value with probability `p`, else `sane`: most cases then break one field at a time.
    static func maybe(_ g: inout SplitMix64, _ sane: Int, _ p: Double = 0.3) -> Int { g.chance(p) ? int(&g) : sane }

    static func recurrence(_ g: inout SplitMix64) -> Recurrence {
        switch g.int(0...6) {
        case 0: return .everyDays(maybe(&g, g.int(1...5), 0.5))
        case 1: return .everyWeeks(maybe(&g, g.int(1...3), 0.5))
        case 2: return .everyMonths(maybe(&g, g.int(1...2), 0.5))
        case 3: return .cycle(active: maybe(&g, g.int(1...21), 0.5), rest: maybe(&g, g.int(0...7), 0.5))
        case 4: return .asNeeded(maxPerDay: g.chance(0.5) ? maybe(&g, 3) : nil, minInterval: g.chance(0.5) ? maybe(&g, 3600) : nil)
        case 5: return .weekdays(Set(Weekday.allCases.filter { _ in g.chance(0.3) }))
        default: return .daily
        }
    }

    static func medication(_ g: inout SplitMix64, id: Int64) -> Medication {
        let times = (0..<g.int(0...4)).map { _ in LocalTime(minuteOfDay: maybe(&g, g.int(0...1439))) }
        let schedule = Schedule(recurrence: recurrence(&g), times: times, window: maybe(&g, 7200),
                                start: LocalDate(dayNumber: maybe(&g, 20_400 + g.int(-30...30))),
                                until: g.chance(0.2) ? LocalDate(dayNumber: int(&g)) : nil)
        return Medication(id: id, name: "M\(id)", stock: g.chance(0.7) ? Amount(hundredths: maybe(&g, g.int(0...100), 0.5)) : nil,
                          perDose: Amount(hundredths: maybe(&g, 100, 0.5)), lowDays: maybe(&g, 7),
                          archivedOn: g.chance(0.1) ? LocalDate(dayNumber: int(&g)) : nil,
                          versions: [ScheduleVersion(effective: LocalDate(dayNumber: maybe(&g, 20_400)), schedule: schedule)])
    }

    @Test func recurrencesWithAnyParametersNeverTrap() {
        var g = SplitMix64(seed: Property.base ^ 0xA217)
        let today = Fx.date("2026-11-22")
        for _ in 0..<3_000 {
            let s = Schedule(recurrence: Self.recurrence(&g), times: [Fx.time("08:00")], window: Self.int(&g),
                             start: LocalDate(dayNumber: Self.int(&g)), until: g.chance(0.5) ? LocalDate(dayNumber: Self.int(&g)) : nil)
            for date in [today, LocalDate(dayNumber: Self.int(&g)), s.start, s.start.adding(days: Self.int(&g))] {
                _ = s.occurs(on: date)
                if let p = s.cyclePosition(on: date) { #expect(p.day >= 1 && p.day <= max(p.length, 1)) }
            }
        }
        // The cases that trapped: every 0 days, a 0/0 cycle, every Int.max weeks.
        let start = Fx.date("2026-01-01")
        for r: Recurrence in [.everyDays(0), .everyWeeks(0), .everyMonths(0), .cycle(active: 0, rest: 0), .everyDays(-3)] {
            let s = Schedule(recurrence: r, times: [Fx.time("08:00")], start: start)
            #expect(!s.occurs(on: start) && !s.occurs(on: today), "\(r) has no slots")
        }
        #expect(Schedule(recurrence: .everyWeeks(Int.max), times: [Fx.time("08:00")], start: start).occurs(on: start))
        #expect(Schedule(recurrence: .cycle(active: Int.max, rest: Int.max), times: [Fx.time("08:00")], start: start).occurs(on: today))
    }

    @Test func amountsNeverOverflow() {
        var g = SplitMix64(seed: Property.base ^ 0xA218)
        let today = Fx.date("2026-11-22")
        for i in 0..<2_000 {
            let m = Self.medication(&g, id: Int64(i))
            let perDay = SnapshotBuilder.unitsPerDay(m, on: today)
            #expect(!perDay.isNaN)
            let ops = (0..<g.int(1...6)).map { k -> SyncMerge.StockOperation in
                let change: SyncMerge.StockOperation.Change = switch g.int(0...2) {
                case 0: .set(g.chance(0.8) ? Amount(hundredths: Self.int(&g)) : nil)
                case 1: .refill(Amount(hundredths: Self.int(&g)))
                default: .take(units: Amount(hundredths: Self.int(&g)), event: Int64(k))
                }
                return SyncMerge.StockOperation(stamp: "\(1_000 + k)", id: "\(k)", change)
            }
            if case .units(let n) = SyncMerge.stock(ops, effective: Set((0..<6).map(Int64.init)), maximum: 1_000_000) {
                #expect((Amount.zero...Amount(units: 1_000_000)).contains(n))
            }
        }
        // The reported cases: per dose 2^63 - 1, stock 2^63 - 1 then a refill, a take of -2^63.
        var m = Fx.med(1, "Aspirin", at: ["08:00", "20:00"], stock: Amount(hundredths: .max))
        m.perDose = Amount(hundredths: .max)
        #expect(SnapshotBuilder.unitsPerDay(m, on: today) > 0)
        let derived = SyncMerge.stock([.init(stamp: "1", id: "a", .set(Amount(hundredths: .max))), .init(stamp: "2", id: "b", .refill(Amount(hundredths: .max))),
                                       .init(stamp: "3", id: "c", .take(units: Amount(hundredths: .min), event: 1))],
                                      effective: [1], maximum: 1_000_000)
        #expect(derived == .units(1_000_000))
        #expect(DaySummary(date: today, total: Int.max, taken: Int.max, onTime: 0, skipped: Int.max, missed: 0).isComplete == false)
    }

    @Test func instantsAndDaysNeverTrap() {
        var g = SplitMix64(seed: Property.base ^ 0xA219)
        let zones = [Fx.zone("Asia/Seoul"), Fx.zone("America/New_York"), Fx.zone("UTC")]
        for _ in 0..<3_000 {
            let zone = g.pick(zones)
            let t = Date(timeIntervalSince1970: Self.seconds(&g))
            let d = zone.date(of: t)
            _ = zone.time(of: t).description
            _ = ISO8601.format(t, offset: g.int(-50_400...50_400))
            #expect(abs(d.dayNumber) <= LocalDate.dayNumberBound)
            let date = LocalDate(dayNumber: Self.int(&g))
            _ = date.description
            _ = date.weekday
            _ = date.adding(days: Self.int(&g))
            _ = date.adding(months: Self.int(&g))
            _ = date - LocalDate(dayNumber: Self.int(&g))
            _ = LocalTime(minuteOfDay: Self.int(&g)).description
            _ = Int(saturating: Self.seconds(&g))
        }
        #expect(Fx.zone("UTC").date(of: Date(timeIntervalSince1970: -1e300)).dayNumber == -LocalDate.dayNumberBound)
        #expect(Fx.zone("UTC").date(of: Date(timeIntervalSince1970: .nan)).dayNumber == 0)
        #expect(LocalTime(minuteOfDay: Int.max).description == "23:59")
    }

    @Test func syncClockNeverOverflows() {
        var g = SplitMix64(seed: Property.base ^ 0xA21A)
        for _ in 0..<3_000 {
            var clock = SyncClock(millis: Int64(truncatingIfNeeded: Self.int(&g)), counter: Self.int(&g))
            clock.receive(SyncClock(millis: Int64(truncatingIfNeeded: Self.int(&g)), counter: Self.int(&g)))
            for _ in 0..<3 { clock.tick(now: Date(timeIntervalSince1970: Self.seconds(&g))) }
            _ = clock.stamp(device: "d")
        }
        // A stamp of 2^63 - 1 ms is not adopted: the clock keeps ticking from the wall clock.
        var clock = SyncClock(millis: 1_779_000_000_000, counter: 0)
        #expect(SyncClock("9223372036854775807-00000-evil") == nil)
        clock.receive(SyncClock(millis: Int64.max, counter: 0))
        #expect(clock.millis == 1_779_000_000_000)
        // At the last stamp the fixed widths hold, the counter full, it stays there.
        var last = SyncClock(millis: SyncClock.maxMillis, counter: SyncClock.maxCounter)
        last.tick(now: Date(timeIntervalSince1970: 1e300))
        #expect(last == SyncClock(millis: SyncClock.maxMillis, counter: SyncClock.maxCounter))
        #expect(last.state.count == 19)
    }

    @Test func plansSnapshotsTimelinesAndReportsOfHostileMedicinesNeverTrap() {
        var g = SplitMix64(seed: Property.base ^ 0xA21B)
        let zone = Fx.zone("Asia/Seoul")
        let today = Fx.date("2026-11-22")
        let now = Fx.instant("2026-11-22T12:00:00+09:00")
        var slots = 0, stockLines = 0
        defer {
            // Not vacuous: some of the hostile medicines do plan slots today and show stock.
            #expect(slots > 50 && stockLines > 50, "slots \(slots), stock lines \(stockLines)")
        }
        for round in 0..<150 {
            let meds = (0..<g.int(1...4)).map { Self.medication(&g, id: Int64(round * 10 + $0)) }
            let events = (0..<g.int(0...6)).map { k -> DoseEvent in
                let m = g.pick(meds)
                let slot = g.chance(0.5) ? SlotKey(medicationID: m.id, date: today.adding(days: g.int(-2...0)),
                                                   time: LocalTime(minuteOfDay: g.int(0...1439))) : nil
                return DoseEvent(id: Int64(k + 1), medicationID: m.id, kind: g.chance(0.8) ? .taken : .skipped, slot: slot,
                                 at: Date(timeIntervalSince1970: Self.seconds(&g)), loggedAt: Date(timeIntervalSince1970: Self.seconds(&g)),
                                 stockDelta: Amount(hundredths: Self.int(&g)))
            }
            let plan = DayPlan(date: today, medications: meds, events: events, zone: zone)
            slots += plan.slots.count
            let history = History(today: today, recent: [DaySummary(date: today.adding(days: -1), total: Self.int(&g), taken: Self.int(&g),
                                                                    onTime: Self.int(&g), skipped: Self.int(&g), missed: Self.int(&g),
                                                                    streak: Self.int(&g), best: Self.int(&g))])
            let builder = SnapshotBuilder(plan: plan, history: history, medications: meds)
            let snapshot = builder.snapshot(at: now, validUntil: now.addingTimeInterval(60))
            stockLines += snapshot.stock.count
            #expect(!TimelineProvider(builder: builder).timeline(generatedAt: now).entries.isEmpty)
            #expect(snapshot.stock.allSatisfy { $0.daysLeft.map { $0 >= 0 } ?? true || $0.remaining < 0 })
            let ledger = HistoryLedger(days: today.adding(days: -3)...today, medications: meds, events: events, zone: zone, now: now)
            _ = ledger.figuresByMedication()
            _ = Report(ledger).weeks
        }
    }
}
