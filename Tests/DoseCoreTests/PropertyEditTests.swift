import DoseCore
import Foundation
import Testing

/// `edit` never rewrites the past (DESIGN §2, §3): a new schedule version effective D changes no day
/// before D — its slots, statuses, summaries, streak and snapshots — and does change D itself.
@Suite struct PropertyEditTests {
    /// A comparable picture of one day: slots with instants and windows, cycle positions, as-needed items.
    static func picture(_ plan: DayPlan) -> [String] {
        plan.slots.map { "\($0.key)|\($0.instant.timeIntervalSince1970)|\($0.window)|\($0.event?.id ?? 0)" }
            + plan.cycles.map { "cycle \($0.medication.id) \($0.position.phase) \($0.position.day)/\($0.position.length)" }
            + plan.asNeeded.map { "asneeded \($0.medication.id) \($0.maxPerDay ?? -1) \($0.minInterval ?? -1) \($0.taken.count)" }
    }

    @Test(arguments: Property.seeds(120, salt: 40))
    func aScheduleEditChangesNoDayBeforeItsEffectiveDate(seed: UInt64) {
        var g = Gen(seed: seed)
        let (zone, transitions) = g.zone()
        let d = g.day(transitions: transitions) // the effective date
        let first = d.adding(days: -g.rng.int(5...45))
        var meds = (1...g.rng.int(1...4)).map { g.medication(id: Int64($0), around: first, firstDay: first) }
        // The medicine to edit stays active through d+2 and has no version after d of its own, so
        // the days d…d+2 below follow the new version and the "from d on" check is never skipped.
        // (Its first version is effective by `first`, before d, so one always remains.)
        let index = g.rng.int(0...(meds.count - 1))
        meds[index].archivedOn = nil
        meds[index].versions = meds[index].versions.filter { $0.effective < d }
        // Events on every day, fixed before the edit (the store keeps them whatever the schedule).
        var eventsByDay: [LocalDate: [DoseEvent]] = [:]
        var day = first
        while day <= d.adding(days: 3) {
            eventsByDay[day] = g.events(for: DayPlan(date: day, medications: meds, events: [], zone: zone), resolveProbability: 0.8)
            day = day.adding(days: 1)
        }
        func summaries(_ meds: [Medication], through last: LocalDate) -> [DaySummary] {
            var out: [DaySummary] = []
            var previous: DaySummary?
            var x = first
            while x <= last {
                let s = DayPlan(date: x, medications: meds, events: eventsByDay[x] ?? [], zone: zone).summary(after: previous)
                out.append(s); previous = s; x = x.adding(days: 1)
            }
            return out
        }
        let before = meds
        let beforeSummaries = summaries(before, through: d.adding(days: -1))

        // The edit: one medicine gets a new version effective d that schedules something on d and
        // differs there from the old one (redrawn until it does; the count of draws is bounded).
        var edited = meds[index]
        let oldSlots = DayPlan(date: d, medications: before, events: [], zone: zone).slots.filter { $0.key.medicationID == edited.id }
        var version = ScheduleVersion(effective: d, schedule: g.schedule(around: d, back: 60))
        var draws = 1
        func slotsOnD(_ v: ScheduleVersion) -> [PlannedSlot] {
            DayPlan(date: d, medications: [Medication(id: edited.id, name: edited.name, versions: [v])], events: [], zone: zone).slots
        }
        while draws < 200, slotsOnD(version).isEmpty || slotsOnD(version).map(\.key) == oldSlots.map(\.key) {
            version = ScheduleVersion(effective: d, schedule: g.schedule(around: d, back: 60))
            draws += 1
        }
        #expect(!slotsOnD(version).isEmpty, "no schedule with slots on \(d) in \(draws) draws; \(Property.label(seed))")
        // Everything else of the medicine (its tracking start too) stays as it was.
        edited.versions = (edited.versions.filter { $0.effective != d } + [version]).sorted { $0.effective < $1.effective }
        meds[index] = edited
        let after = meds

        // Every day before d: the same plan, the same summaries, the same snapshots at any instant.
        #expect(summaries(after, through: d.adding(days: -1)) == beforeSummaries, "summaries before \(d); \(Property.label(seed))")
        var x = first
        while x < d {
            let p0 = DayPlan(date: x, medications: before, events: eventsByDay[x] ?? [], zone: zone)
            let p1 = DayPlan(date: x, medications: after, events: eventsByDay[x] ?? [], zone: zone)
            #expect(PropertyEditTests.picture(p0) == PropertyEditTests.picture(p1), "\(x) changed by an edit effective \(d); \(Property.label(seed))")
            let history = History(today: x, recent: beforeSummaries)
            let b0 = SnapshotBuilder(plan: p0, history: history, medications: before)
            let b1 = SnapshotBuilder(plan: p1, history: history, medications: after)
            // One thing of the day before d does follow the edit: a slot's cut-off comes from the medicine's
            // next slot (DESIGN §3), which may now be another one on d. So on that day a snapshot is compared
            // only at instants before any cut-off the edit moved (the day's and the carried slots').
            let cutoffs0 = Dictionary((p0.slots + p0.carried).map { ($0.key, $0.cutoff) }) { a, _ in a }
            let moved = (p1.slots + p1.carried).compactMap { s in cutoffs0[s.key].flatMap { $0 == s.cutoff ? nil : min($0, s.cutoff) } }.min()
            if x < d.adding(days: -1), let moved {
                // (A slot of d − 2 may have its next slot on d too, but its cut-off is then after d − 2 ends.)
                #expect(moved >= p0.dayEnd, "\(x): a cut-off within the day moved by an edit effective \(d); \(Property.label(seed))")
            }
            for _ in 0..<3 {
                let t = g.instant(p0.dayStart, p0.dayEnd)
                if let moved, t >= moved { continue }
                #expect(b0.snapshot(at: t, validUntil: p0.dayEnd) == b1.snapshot(at: t, validUntil: p0.dayEnd),
                        "snapshot of \(x) at \(zone.local(t).iso8601) changed by an edit effective \(d); \(Property.label(seed))")
            }
            x = x.adding(days: 1)
        }
        // From d on, the edited medicine follows the new schedule, and d itself changed (so the
        // checks above are not vacuous: the edit did change something, only not before d).
        let gotOnD = DayPlan(date: d, medications: after, events: [], zone: zone).slots.filter { $0.key.medicationID == edited.id }
        #expect(gotOnD.map(\.key) != oldSlots.map(\.key), "the edit changed nothing on \(d); \(Property.label(seed))")
        var checkedDays = 0
        for k in 0..<3 {
            let y = d.adding(days: k)
            let only = Medication(id: edited.id, name: edited.name, versions: [version])
            let want = DayPlan(date: y, medications: [only], events: [], zone: zone).slots.map(\.key)
            let got = DayPlan(date: y, medications: after, events: [], zone: zone).slots.filter { $0.key.medicationID == edited.id }.map(\.key)
            #expect(got == want, "\(y) after an edit effective \(d): \(got) vs \(want); \(Property.label(seed))")
            checkedDays += 1
        }
        #expect(checkedDays == 3 && x == d && d - first >= 5, "\(checkedDays) days from \(d), \(d - first) days before it; \(Property.label(seed))")
    }
}
