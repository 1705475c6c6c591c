import Foundation
import Testing

/// `import dosage` of every layout Dosage 2.x still reads and of what its validators accept (issue 22):
/// fixtures written by hand from Dosage's format (`Fixtures/dosage/…`), their meaning written here by hand.
/// All at Sunday 2026-11-22 12:00 in Seoul.
@Suite struct DosageLayoutTests {
    static let fixtures = ImportTests.fixtures

    func harness() -> Harness { Harness(tz: "Asia/Seoul", now: ImportTests.noon) }

    func history(_ h: Harness, from: String, to: String) throws -> [String: [String: Any]] {
        let days = try #require(try h.ok("history", "--from", from, "--to", to, "--json").json as? [[String: Any]])
        return Dictionary(days.map { (($0["day"] as? String) ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    }

    func medicine(_ h: Harness, _ name: String) throws -> [String: Any] {
        let list = try #require(try h.ok("list", "--all", "--json").json as? [[String: Any]])
        return try #require(list.first { $0["name"] as? String == name }, "\(name) not in \(list.map { $0["name"] ?? "" })")
    }

    @Test("Dosage 1.0–1.4: meds[] with _name/_unit/_info (and name/unit/info), yes/no/miss history by _date")
    func dosageMedsLayout() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/v1-meds", "--json").json as? [String: Any])
        // Lisinopril: 11-20 yes (09:10), 11-21 no, 11-19 miss; B12: 11-21 yes (21:30).
        #expect(summary["taken"] as? Int == 2 && summary["skipped"] as? Int == 1 && summary["missed"] as? Int == 1)
        let added = try #require(summary["added"] as? [[String: Any]])
        #expect(added.map { $0["name"] as? String } == ["Lisinopril", "B12"])
        // Lisinopril's stock is −3 in Dosage, which shows 0.
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(notes.contains { $0.hasPrefix("Lisinopril: stock -3") && $0.contains("imported as 0") }, "\(notes)")
        // Dosage 1.1's `recurring: true` (every 5 minutes) is carried over as --repeat 5m; the colours
        // are listed as having no equivalent (issue 46: the repeat is no longer among them).
        #expect(notes.contains("Lisinopril: colour red: no equivalent in dosebar, not imported"), "\(notes)")
        #expect(notes.contains("B12: colour blue: no equivalent in dosebar, not imported"), "\(notes)")
        #expect(!notes.contains { $0.contains("repeated reminders") }, "\(notes)")
        let lisinopril = try medicine(h, "Lisinopril")
        #expect(lisinopril["repeat_minutes"] as? Int == 5 && lisinopril["urgent"] as? Bool == false)
        #expect(try medicine(h, "B12")["repeat_minutes"] as? Int == 10)
        #expect(lisinopril["stock"] as? Int == 0 && lisinopril["dose"] as? String == "1 tablet(s)")
        #expect(lisinopril["times"] as? [String] == ["09:00"])
        // B12: half a tablet at 21:00; its inventory has no `enabled` (off: no stock); a course from 11-19 (seconds as strings).
        let b12 = try medicine(h, "B12")
        #expect(b12["times"] as? [String] == ["21:00"] && b12["dose"] as? String == "0.5 tablet(s)")
        #expect(b12["per_dose"] as? Double == 0.5 && b12["stock"] is NSNull)
        let days = try history(h, from: "2026-11-19", to: "2026-11-21")
        // 11-19: Lisinopril's recorded miss (tracked from it); B12 untracked before its first dose on 11-21.
        #expect(days["2026-11-19"]?["missed"] as? Int == 1 && days["2026-11-19"]?["total"] as? Int == 1)
        #expect(days["2026-11-20"]?["on_time"] as? Int == 1 && days["2026-11-20"]?["total"] as? Int == 1)
        #expect(days["2026-11-21"]?["skipped"] as? Int == 1 && days["2026-11-21"]?["on_time"] as? Int == 1
                && days["2026-11-21"]?["total"] as? Int == 2)
    }

    @Test("Dosage 1.6–1.7.3: an inventory without `enabled` is off, not refused")
    func dosageInventoryWithoutEnabled() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/v17-no-enabled", "--json").json as? [String: Any])
        #expect(summary["taken"] as? Int == 1)
        #expect(try medicine(h, "Aspirin")["stock"] is NSNull)
        #expect(try history(h, from: "2026-11-21", to: "2026-11-21")["2026-11-21"]?["on_time"] as? Int == 1)
    }

    @Test("Dosage: a cycle's day is the one at lastUpdate (11-18, day 2), not today's: 11-22 is day 6, rest day 3 of 4")
    func dosageStaleCycle() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/stale-cycle", "--json").json as? [String: Any])
        // Every take falls on an active day: 11-10, 11, 12 and 11-17, 18, 19 at 20:05.
        #expect(summary["taken"] as? Int == 6)
        #expect(((summary["no_equivalent"] as? [String]) ?? []).isEmpty, "no take without a slot")
        let cycle = try #require((try h.today()["cycle"] as? [[String: Any]])?.first)
        // Day 6 of the 7-day cycle is the third of its 4 rest days (dosebar counts days within the phase).
        #expect(cycle["day"] as? Int == 3 && cycle["phase"] as? String == "rest" && cycle["length"] as? Int == 4)
        let days = try history(h, from: "2026-11-10", to: "2026-11-21")
        for d in ["2026-11-10", "2026-11-11", "2026-11-12", "2026-11-17", "2026-11-18", "2026-11-19"] {
            #expect(days[d]?["on_time"] as? Int == 1 && days[d]?["total"] as? Int == 1, "\(d)")
        }
        for d in ["2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16", "2026-11-20", "2026-11-21"] {
            #expect((days[d]?["total"] as? Int ?? 0) == 0 && (days[d]?["missed"] as? Int ?? 0) == 0, "\(d): a rest day")
        }
        // The next active day is Tuesday 11-24 (day 1 again).
        let tuesday = try #require((try h.today(at: "2026-11-24T12:00:00+09:00")["cycle"] as? [[String: Any]])?.first)
        #expect(tuesday["day"] as? Int == 1 && tuesday["phase"] as? String == "active")
    }

    @Test("Dosage: names over 100 characters kept (one over 200 cut, said); a one-time entry later today is taken now")
    func dosageValidatorEdges() throws {
        let h = harness()
        let long150 = "Vitamin " + String(repeating: "C", count: 142)
        let long200 = "Omega " + String(repeating: "3", count: 194)
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/edge", "--json").json as? [String: Any])
        #expect(summary["taken"] as? Int == 3)
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(notes.contains { $0.hasPrefix(long200 + ": name of 230 characters cut to its first 200") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("1 dose(s) recorded later today") }, "\(notes)")
        // Dosage settings dosebar has no place for are listed, not dropped silently (the other treatment has Dosage's defaults).
        // Its repeated reminders and higher priority are carried over (issue 46), not listed.
        #expect(notes.contains(long150 + ": colour red, icon drop, "
                               + "confirm doses automatically: no equivalent in dosebar, not imported"), "\(notes)")
        #expect(notes.count == 3, "\(notes)")
        #expect(try medicine(h, long150)["times"] as? [String] == ["08:00"])
        #expect(try medicine(h, long150)["urgent"] as? Bool == true && medicine(h, long150)["repeat_minutes"] as? Int == 10)
        #expect(try medicine(h, long200)["urgent"] as? Bool == false && medicine(h, long200)["repeat_minutes"] is NSNull)
        #expect(try medicine(h, long200)["times"] as? [String] == ["09:00"])
        let day = try history(h, from: "2026-11-21", to: "2026-11-21")["2026-11-21"]
        #expect(day?["on_time"] as? Int == 2, "both long names' history lands on their slots")
        // Ibuprofen's 18:00 one-time entry, recorded at the import's now (12:00).
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-22", "--to", "2026-11-22").out
        #expect(csv.contains(",Ibuprofen,,as_needed,2026-11-22T12:00:00+09:00,"), "\(csv)")
    }

    @Test("Dosage: errors name the file, the treatment by name and the field")
    func dosageErrorsNameTheTreatment() throws {
        let h = harness()
        let bad = try h.run("import", "dosage", Self.fixtures + "/bad-type")
        #expect(bad.status == 65)
        #expect(bad.err == "dosebar: dosage-treatments.json: treatment \"Magnesium\": dosage[0].time: expected [hour, minute]\n")
    }

    @Test("Dosage: with no folder given, the Snap folder is searched after the Flatpak one")
    func dosageSnapFolder() throws {
        let h = harness()
        let snap = h.root + "/snap/dosage-tracker/current/.local/share/dosage"
        try FileManager.default.createDirectory(atPath: snap, withIntermediateDirectories: true)
        for f in ["dosage-treatments.json", "dosage-history.json"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/v17-no-enabled/" + f, toPath: snap + "/" + f)
        }
        let out = try h.ok("import", "dosage", "--dry-run").out
        #expect(out.contains("Aspirin") && out.contains("1 taken"), "\(out)")
        // The Flatpak folder, when there is one, comes first.
        let flatpak = h.root + "/.var/app/io.github.diegopvlk.Dosage/data/dosage"
        try FileManager.default.createDirectory(atPath: flatpak, withIntermediateDirectories: true)
        for f in ["dosage-treatments.json", "dosage-history.json"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/stale-cycle/" + f, toPath: flatpak + "/" + f)
        }
        let first = try h.ok("import", "dosage", "--dry-run").out
        #expect(first.contains("Pill") && !first.contains("Aspirin"), "\(first)")
    }

    @Test("Dosage: a dose time changed (08:00 → 07:30 on 11-17) becomes a schedule version; old entries keep their slots")
    func dosageTimeChange() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/time-change", "--json").json as? [String: Any])
        // 08:00 taken on 11-10, 11, 13, 14, 15, 16 (11-12 missed); 07:30 taken 11-17 … 11-21; the 13:00 of 11-18 has
        // no slot (a time of one day): an extra dose, kept at 13:00.
        #expect(summary["taken"] as? Int == 12 && summary["missed"] as? Int == 1 && summary["extra"] as? Int == 1)
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(notes.isEmpty, "\(notes)")
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-18", "--to", "2026-11-18").out
        #expect(csv.contains("2026-11-18,,Aspirin,1 pill(s),as_needed,2026-11-18T13:00:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        #expect(try medicine(h, "Aspirin")["times"] as? [String] == ["07:30"])
        let days = try history(h, from: "2026-11-10", to: "2026-11-21")
        for d in 10...21 {
            let day = "2026-11-\(d)"
            if d == 12 {
                #expect(days[day]?["missed"] as? Int == 1 && days[day]?["total"] as? Int == 1, "\(day)")
            } else {
                #expect(days[day]?["on_time"] as? Int == 1 && days[day]?["total"] as? Int == 1, "\(day): one slot, taken on time")
            }
        }
        let stats = try #require(try h.ok("stats", "--days", "13", "--json").json as? [String: Any])
        let overall = try #require(stats["overall"] as? [String: Any])
        #expect(overall["taken"] as? Int == 11 && overall["missed"] as? Int == 1, "\(overall)")
    }

    @Test("Dosage: history made in Paris, imported in Seoul: refused naming UTC+01:00, nothing written; --zone Europe/Paris imports it")
    func dosageOtherZone() throws {
        let h = harness()
        try h.ok("add", "Calcium", "--at", "09:00")
        let before = h.dump()
        let refused = try h.run("import", "dosage", Self.fixtures + "/other-zone")
        #expect(refused.status == 65 && refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        #expect(refused.err.contains("UTC+01:00") && refused.err.contains("--zone Etc/GMT-1") && refused.err.contains("Asia/Seoul"),
                "\(refused.err)")
        #expect(h.dump() == before)
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/other-zone", "--zone", "Europe/Paris", "--json").json
                                   as? [String: Any])
        // 11-19 (code 3) and 11-20 (code 2): doses whose time is not known; 11-21 taken; 11-18 missed.
        #expect(summary["taken"] as? Int == 3 && summary["time_unknown"] as? Int == 2 && summary["missed"] as? Int == 1)
        let days = try history(h, from: "2026-11-18", to: "2026-11-21")
        #expect(days["2026-11-18"]?["missed"] as? Int == 1, "the 23:59:59.999 miss stays on its own day")
        #expect(days["2026-11-19"]?["time_unknown"] as? Int == 1 && days["2026-11-20"]?["time_unknown"] as? Int == 1)
        #expect(days["2026-11-21"]?["taken"] as? Int == 1)
        let bad = try h.run("import", "dosage", Self.fixtures + "/other-zone", "--zone", "Mars/Olympus")
        #expect(bad.status == 64, "\(bad.err)")
    }

    @Test("Dosage: two entries for one slot: a skip then a late take is taken late, the skip said; a double dose is two doses")
    func dosageSameSlot() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/same-slot", "--json").json as? [String: Any])
        // 11-20: skipped at 08:10, taken at 10:30. 11-21: taken at 08:05 and again at 08:06 (a double dose).
        #expect(summary["taken"] as? Int == 3 && summary["skipped"] as? Int == 0 && summary["already_there"] as? Int == 0)
        #expect(summary["extra"] as? Int == 1)
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(notes == ["Aspirin: 1 dose(s) both skipped and taken (a skip, then a late take): kept as taken; the skip has no place beside the take"], "\(notes)")
        let line = try #require((summary["medicines"] as? [[String: Any]])?.first)
        #expect(line["name"] as? String == "Aspirin" && line["taken"] as? Int == 3 && line["extra"] as? Int == 1)
        let days = try history(h, from: "2026-11-20", to: "2026-11-21")
        #expect(days["2026-11-20"]?["late"] as? Int == 1 && days["2026-11-20"]?["skipped"] as? Int == 0, "10:30 is past the 2-hour window: late")
        // The slot is taken once (adherence); the second take is a dose of its own at 08:06.
        #expect(days["2026-11-21"]?["on_time"] as? Int == 1 && days["2026-11-21"]?["total"] as? Int == 1)
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-21", "--to", "2026-11-21").out
        #expect(csv.contains("2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,1 pill(s),taken,2026-11-21T08:05:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        #expect(csv.contains("2026-11-21,,Aspirin,1 pill(s),as_needed,2026-11-21T08:06:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        let report = try #require(try h.ok("report", "--format", "json", "--from", "2026-11-21", "--to", "2026-11-21").json as? [String: Any])
        let aspirin = try #require((report["medications"] as? [[String: Any]])?.first)
        #expect(aspirin["taken"] as? Int == 1 && aspirin["as_needed"] as? Int == 1 && aspirin["adherence"] as? Int == 100, "\(aspirin)")
        // Importing again adds nothing: both takes are there.
        let again = try #require(try h.ok("import", "dosage", Self.fixtures + "/same-slot", "--json").json as? [String: Any])
        #expect(again["taken"] as? Int == 0 && again["already_there"] as? Int == 3)
    }

    /// `history NAME --json` by day.
    func history(_ h: Harness, _ name: String, from: String, to: String) throws -> [String: [String: Any]] {
        let days = try #require(try h.ok("history", name, "--from", from, "--to", to, "--json").json as? [[String: Any]])
        return Dictionary(days.map { (($0["day"] as? String) ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test("Dosage: dose times changed twice (08:00 → 09:00 → 08:00 and 20:00) are three versions; every entry on its slot")
    func dosageSeveralTimeChanges() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/changes", "--json").json as? [String: Any])
        let days = try history(h, "Levothyroxine", from: "2026-11-01", to: "2026-11-21")
        for d in 1...21 {
            let day = String(format: "2026-11-%02d", d)
            let total = d >= 15 ? 2 : 1
            #expect(days[day]?["total"] as? Int == total, "\(day): \(days[day] ?? [:])")
            if d == 5 || d == 10 {
                // 11-05: Dosage's recorded miss. 11-10: the 09:00 entry is gone (deleted in Dosage): the slot was there, missed.
                #expect(days[day]?["missed"] as? Int == 1, "\(day)")
            } else {
                #expect(days[day]?["on_time"] as? Int == total, "\(day): \(days[day] ?? [:])")
            }
        }
        let lines = try #require(summary["medicines"] as? [[String: Any]])
        let levo = try #require(lines.first { $0["name"] as? String == "Levothyroxine" })
        // 08:00 on 11-01…07 (6 taken, 11-05 missed), 09:00 on 11-08…14 (6 taken: 11-10 has no entry), both 08:00 and
        // 20:00 on 11-15…21 (14 taken); and one-time entries at 15:00 on 11-03 and 11-12: extra doses, not a dose time.
        #expect(levo["taken"] as? Int == 28 && levo["missed"] as? Int == 1 && levo["versions"] as? Int == 3 && levo["extra"] as? Int == 2,
                "\(levo)")
        let csv = try h.ok("report", "Levothyroxine", "--format", "csv", "--from", "2026-11-01", "--to", "2026-11-21").out
        #expect(csv.components(separatedBy: "\r\n").filter { $0.contains(",as_needed,") }
                == ["2026-11-03,,Levothyroxine,1 tablet(s),as_needed,2026-11-03T15:00:00+09:00,,true,false,false,false",
                    "2026-11-12,,Levothyroxine,1 tablet(s),as_needed,2026-11-12T15:00:00+09:00,,true,false,false,false"], "\(csv)")
        #expect(try medicine(h, "Levothyroxine")["times"] as? [String] == ["08:00", "20:00"])
        // The schedule in force on 11-10 was 09:00: a take --slot names it.
        #expect(try h.run("take", "Levothyroxine", "--slot", "2026-11-10 09:00").status == 0)
    }

    @Test("Dosage: a quarter at 08:00 and a half at 20:00 with 6.25 on hand: each time keeps its amount, a take uses its time's")
    func dosagePerTimeAmounts() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/changes", "--json").json as? [String: Any])
        let p = try medicine(h, "Prednisone")
        #expect(p["dose"] as? String == "08:00 0.25, 20:00 0.5 tablet(s)" && p["per_dose"] as? Double == 0.25 && p["stock"] as? Double == 6.25,
                "\(p)")
        let perTime = (p["per_dose_times"] as? [[String: Any]])?.map { "\($0["time"]!) \($0["per_dose"]!)" }
        #expect(perTime == ["08:00 0.25", "20:00 0.5"], "\(p)")
        // Kept per time: nothing left without an equivalent.
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(!notes.contains { $0.hasPrefix("Prednisone:") }, "\(notes)")
        let line = try #require((summary["medicines"] as? [[String: Any]])?.first { $0["name"] as? String == "Prednisone" })
        #expect(line["taken"] as? Int == 4 && line["stock"] as? Double == 6.25 && line["versions"] as? Int == 1, "\(line)")
        // Imported doses move no stock (Dosage's count already has them); a take now uses its time's amount.
        try h.ok("take", "Prednisone", "--slot", "2026-11-22 08:00")
        #expect(try medicine(h, "Prednisone")["stock"] as? Double == 6)
        try h.ok("take", "Prednisone", "--slot", "2026-11-22 20:00")
        #expect(try medicine(h, "Prednisone")["stock"] as? Double == 5.5)
    }

    @Test("Dosage: deleted treatments keep every entry: takes, skips and misses on slots rebuilt from their entries, none invented")
    func dosageDeletedTreatment() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/changes", "--json").json as? [String: Any])
        let d = try history(h, "Doxycycline", from: "2026-11-15", to: "2026-11-19")
        // 11-16: 08:10 taken, 20:00 missed; 11-17: 08:00 skipped, 20:00 taken; 11-18: both taken (20:30 on time).
        #expect(d["2026-11-16"]?["on_time"] as? Int == 1 && d["2026-11-16"]?["missed"] as? Int == 1)
        #expect(d["2026-11-17"]?["skipped"] as? Int == 1 && d["2026-11-17"]?["on_time"] as? Int == 1)
        #expect(d["2026-11-18"]?["on_time"] as? Int == 2)
        for day in ["2026-11-15", "2026-11-19"] { #expect((d[day]?["total"] as? Int ?? 0) == 0, "\(day): no entry, no slot") }
        // Iron, Monday, Wednesday and Friday at 12:00: no slot on the days between.
        let iron = try history(h, "Iron", from: "2026-11-16", to: "2026-11-21")
        #expect(iron["2026-11-16"]?["on_time"] as? Int == 1 && iron["2026-11-18"]?["missed"] as? Int == 1
                && iron["2026-11-20"]?["on_time"] as? Int == 1)
        for day in ["2026-11-17", "2026-11-19", "2026-11-21"] { #expect((iron[day]?["total"] as? Int ?? 0) == 0, "\(day)") }
        let lines = try #require(summary["medicines"] as? [[String: Any]])
        let doxy = try #require(lines.first { $0["name"] as? String == "Doxycycline" })
        #expect(doxy["taken"] as? Int == 4 && doxy["skipped"] as? Int == 1 && doxy["missed"] as? Int == 1 && doxy["added"] as? Bool == true,
                "\(doxy)")
        #expect(try medicine(h, "Doxycycline")["archived"] as? Bool == true && medicine(h, "Iron")["archived"] as? Bool == true)
    }

    @Test("Dosage: the summary says per medicine what came in; --dry-run says what it would add; twice adds nothing")
    func dosageSummaryAndDryRun() throws {
        let h = harness()
        let dry = try h.ok("import", "dosage", Self.fixtures + "/changes", "--dry-run").out
        #expect(dry.contains("Would add Levothyroxine: ") && dry.contains("Would add Doxycycline (archived): a treatment no longer in Dosage; its doses rebuilt from its history (daily 08:00, 20:00)."), "\(dry)")
        #expect(dry.contains("Levothyroxine, would import: 28 taken, 2 of them extra doses (a second take of one dose, or at a time with no dose: doses taken, not slots), 0 skipped, 1 missed, schedule versions: 3.\n"), "\(dry)")
        #expect(dry.contains("Prednisone, would import: 4 taken, 0 skipped, 0 missed, schedule versions: 1, stock 6.25.\n"), "\(dry)")
        #expect(!dry.contains("Added "), "\(dry)")
        let out = try h.ok("import", "dosage", Self.fixtures + "/changes").out
        #expect(out.contains("Added Levothyroxine: ") && out.contains("Doxycycline: 4 taken, 1 skipped, 1 missed, schedule versions: 1.\n"),
                "\(out)")
        let dump = h.dump()
        let again = try h.ok("import", "dosage", Self.fixtures + "/changes").out
        #expect(again.contains("Levothyroxine: 0 taken, 0 skipped, 1 missed, 28 already there.\n"), "\(again)")
        #expect(h.dump() == dump)
    }

    @Test("Dosage: a stock past hundredths (6.333) is kept to them and said, never cut silently")
    func dosageStockPastHundredths() throws {
        let h = harness()
        let folder = h.root + "/dosage-stock"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/changes/dosage-history.json", toPath: folder + "/dosage-history.json")
        let treatments = try String(contentsOfFile: Self.fixtures + "/changes/dosage-treatments.json", encoding: .utf8)
        #expect(treatments.contains(#""current": 6.25"#))
        try treatments.replacingOccurrences(of: #""current": 6.25"#, with: #""current": 6.333"#)
            .write(toFile: folder + "/dosage-treatments.json", atomically: true, encoding: .utf8)
        let summary = try #require(try h.ok("import", "dosage", folder, "--json").json as? [String: Any])
        let notes = (summary["no_equivalent"] as? [String]) ?? []
        #expect(notes.contains { $0.hasPrefix("Prednisone: stock 6.333 in Dosage imported as 6.33") }, "\(notes)")
        #expect(try medicine(h, "Prednisone")["stock"] as? Double == 6.33)
    }

    @Test("Dosage: a dose without a slot whose time is not known (an auto-confirmed second entry, a deleted treatment's code 3) says so in the report")
    func dosageExtraTimeUnknown() throws {
        let h = harness()
        let summary = try #require(try h.ok("import", "dosage", Self.fixtures + "/unknown-extra", "--json").json as? [String: Any])
        // Aspirin 11-21: taken at 08:05, and auto-confirmed (code 2) for the same 08:00 dose: a second dose, time not known.
        // Melatonin (deleted, only takes): 11-20 at 22:10, 11-21 confirmed at an unknown time (code 3): as needed.
        #expect(summary["taken"] as? Int == 4 && summary["extra"] as? Int == 1 && summary["time_unknown"] as? Int == 2, "\(summary)")
        let csv = try h.ok("report", "--format", "csv", "--from", "2026-11-20", "--to", "2026-11-21").out
        #expect(csv.contains("2026-11-21,2026-11-21T08:00:00+09:00,Aspirin,1 pill(s),taken,2026-11-21T08:05:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        #expect(csv.contains("2026-11-21,,Aspirin,1 pill(s),as_needed,2026-11-21T08:00:00+09:00,,false,false,false,false\r\n"), "\(csv)")
        #expect(csv.contains("2026-11-20,,Melatonin,,as_needed,2026-11-20T22:10:00+09:00,,true,false,false,false\r\n"), "\(csv)")
        #expect(csv.contains("2026-11-21,,Melatonin,,as_needed,2026-11-21T22:00:00+09:00,,false,false,false,false\r\n"), "\(csv)")
        let report = try #require(try h.ok("report", "--format", "json", "--from", "2026-11-21", "--to", "2026-11-21").json as? [String: Any])
        let rows = (report["slots"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "as_needed" }
        #expect(rows.count == 2 && rows.allSatisfy { $0["time_unknown"] as? Bool == true }, "\(rows)")
    }
}
