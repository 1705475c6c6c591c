import DoseCore
import Foundation
import Testing

/// The confirmation line of a take or skip (DESIGN §2), from the facts alone.
@Suite struct ConfirmationTests {
    static let today = Fx.date("2026-11-22")
    static let seoul = Fx.zone("Asia/Seoul")

    static func slot(_ m: Medication, _ day: String, _ time: String) -> PlannedSlot {
        try! #require(Fx.plan(day, [m]).slots.first { $0.key.time == Fx.time(time) })
    }

    static func line(_ c: DoseConfirmation, _ catalog: Catalog = .english) -> String {
        c.line(catalog, zone: seoul, today: today)
    }

    @Test func scheduledDoses() {
        var yaz = Fx.med(1, "Yaz", at: ["22:00"], window: 3600)
        yaz.stock = 12
        let late = DoseConfirmation(kind: .taken, medication: yaz, slot: Self.slot(yaz, "2026-11-21", "22:00"),
                                at: Fx.instant("2026-11-22T00:30:00+09:00"))
        #expect(Self.line(late) == "Took Yaz (yesterday's 22:00 dose) at 00:30, 2h 30m late · 12 left (12 days)")
        #expect(Self.line(late, .of(.ko)) == "Yaz 복용함 (어제 22:00 예정분, 00:30 복용, 2시간 30분 늦음) · 12 남음 (12일분)")

        var aspirin = Fx.med(2, "Aspirin", at: ["08:00"], window: 3600)
        aspirin.stock = 29
        let onTime = DoseConfirmation(kind: .taken, medication: aspirin, slot: Self.slot(aspirin, "2026-11-22", "08:00"),
                                  at: Fx.instant("2026-11-22T08:05:00+09:00"))
        #expect(Self.line(onTime) == "Took Aspirin (08:00 dose) at 08:05 · 29 left (29 days)")
        let early = DoseConfirmation(kind: .taken, medication: aspirin, slot: Self.slot(aspirin, "2026-11-22", "08:00"),
                                 at: Fx.instant("2026-11-22T06:50:00+09:00"))
        #expect(Self.line(early) == "Took Aspirin (08:00 dose) at 06:50, 1h 10m early · 29 left (29 days)")

        // A slot two days back names its date; no stock tracked: no "left" part.
        let magnesium = Fx.med(3, "Magnesium", at: ["21:00"])
        let old = DoseConfirmation(kind: .taken, medication: magnesium, slot: Self.slot(magnesium, "2026-11-20", "21:00"),
                               at: Fx.instant("2026-11-20T21:10:00+09:00"))
        #expect(Self.line(old) == "Took Magnesium (2026-11-20 21:00 dose) at 2026-11-20 21:10")
        let skipped = DoseConfirmation(kind: .skipped, medication: magnesium, slot: Self.slot(magnesium, "2026-11-22", "21:00"),
                                   at: Fx.instant("2026-11-22T20:00:00+09:00"))
        #expect(Self.line(skipped) == "Skipped Magnesium (21:00 dose)")
        #expect(Self.line(skipped, .of(.ko)) == "Magnesium 건너뜀 (21:00 예정분)")
    }

    @Test func stockWarnings() {
        var aspirin = Fx.med(2, "Aspirin", at: ["08:00", "20:00"], window: 3600)
        aspirin.lowDays = 3
        let slot = Self.slot(aspirin, "2026-11-22", "08:00"), at = Fx.instant("2026-11-22T08:00:00+09:00")
        aspirin.stock = 6    // 3 days at 2 a day: low (≤ 3)
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: aspirin, slot: slot, at: at))
                == "Took Aspirin (08:00 dose) at 08:00 · 6 left (3 days) · low: refill soon")
        aspirin.stock = 8    // 4 days: not low
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: aspirin, slot: slot, at: at))
                == "Took Aspirin (08:00 dose) at 08:00 · 8 left (4 days)")
        aspirin.stock = 0
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: aspirin, slot: slot, at: at))
                == "Took Aspirin (08:00 dose) at 08:00 · none left")
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: aspirin, slot: slot, at: at), .of(.ko))
                == "Aspirin 복용함 (08:00 예정분, 08:00 복용) · 재고 없음")
    }

    @Test func asNeeded() {
        let ibuprofen = Fx.med(4, "Ibuprofen", .asNeeded(maxPerDay: 3, minInterval: nil), at: [])
        let at = Fx.instant("2026-11-22T14:00:00+09:00")
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: ibuprofen, slot: nil, at: at, takenToday: 2, maxPerDay: 3))
                == "Took Ibuprofen at 14:00 (2 of 3 today)")
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: ibuprofen, slot: nil, at: at, takenToday: 4, maxPerDay: 3,
                                       overLimit: true)) == "Took Ibuprofen at 14:00 (4 of 3 today, over the limit)")
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: ibuprofen, slot: nil, at: at, takenToday: 1))
                == "Took Ibuprofen at 14:00 (1 today)")
        #expect(Self.line(DoseConfirmation(kind: .taken, medication: ibuprofen, slot: nil, at: at, takenToday: 2, maxPerDay: 3), .of(.ko))
                == "Ibuprofen 복용함 (14:00 복용, 오늘 2/3회)")
    }
}
