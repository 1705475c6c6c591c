import DoseCore
import DoseExport

extension ImportSummary {
    /// The summary for a person, in the catalog's words: medicines added and reused, doses imported,
    /// already there, missed, and everything that has no equivalent in dosebar.
    public func lines(_ c: Catalog) -> [String] {
        var out: [String] = []
        if dryRun { out.append(c.text("import.dry_run")) }
        let would = dryRun ? "import.would_" : "import."
        for a in added {
            let key = switch a.origin {
            case .treatment: dryRun ? "import.would_add" : "import.added"
            case .historyOnly: would + (dryRun ? "add_history_only" : "added_history_only")
            case .rebuilt: would + (dryRun ? "add_rebuilt" : "added_rebuilt")
            case .unknownName: would + (dryRun ? "add_unknown" : "added_unknown")
            }
            out.append(c.text(key, ["name": a.name, "schedule": a.schedule]))
        }
        for name in reused { out.append(c.text(dryRun ? "import.would_reuse" : "import.reused", ["name": name])) }
        out.append(c.text(would + "doses", ["taken": String(taken), "skipped": String(skipped), "already": String(alreadyThere)]))
        // Per medicine: what each brought (taken, of them time unknown and extra, skipped, missed), its
        // schedule versions and stock when added.
        for m in medicines {
            var parts = [c.text("import.part.taken", ["count": String(m.taken)])]
            if m.timeUnknown > 0 { parts.append(c.text("import.part.time_unknown", ["count": String(m.timeUnknown)])) }
            if m.extra > 0 { parts.append(c.text("import.part.extra", ["count": String(m.extra)])) }
            parts.append(c.text("import.part.skipped", ["count": String(m.skipped)]))
            parts.append(c.text("import.part.missed", ["count": String(m.missed)]))
            if m.alreadyThere > 0 { parts.append(c.text("import.part.already", ["count": String(m.alreadyThere)])) }
            if m.added {
                parts.append(c.text("import.part.versions", ["count": String(m.versions)]))
                if let stock = m.stock { parts.append(c.text("import.part.stock", ["amount": stock.description])) }
            }
            out.append(c.text(dryRun ? "import.would_line" : "import.line", ["name": m.name, "parts": parts.joined(separator: ", ")]))
        }
        if timeUnknown > 0 { out.append(c.text("import.time_unknown", ["count": String(timeUnknown)])) }
        if missed > 0 { out.append(c.text("import.missed", ["count": String(missed)])) }
        if !noEquivalent.isEmpty {
            out.append(c.text("import.no_equivalent"))
            out += noEquivalent.map { "  - " + $0 }
        }
        return out
    }

    /// `{dry_run, added: [{name, schedule, origin: treatment|history_only|rebuilt|unknown_name}], reused: [name], taken, skipped, already_there,
    /// time_unknown, extra, missed, medicines: [{name, added, taken, time_unknown, extra, skipped, missed,
    /// already_there, versions, stock}], no_equivalent: [text]}` (`versions` and `stock` null for a kept medicine).
    public var json: String {
        JSONValue.object { o in
            o.set("dry_run", dryRun)
            o.setArray("added") { a in
                for m in added {
                    a.appendObject { o in
                        o.set("name", m.name)
                        o.set("schedule", m.schedule)
                        let origin = switch m.origin {
                        case .treatment: "treatment"
                        case .historyOnly: "history_only"
                        case .rebuilt: "rebuilt"
                        case .unknownName: "unknown_name"
                        }
                        o.set("origin", origin)
                    }
                }
            }
            o.setArray("reused") { a in for name in reused { a.append(name) } }
            o.set("taken", taken)
            o.set("skipped", skipped)
            o.set("already_there", alreadyThere)
            o.set("time_unknown", timeUnknown)
            o.set("extra", extra)
            o.set("missed", missed)
            o.setArray("medicines") { a in
                for m in medicines {
                    a.appendObject { o in
                        o.set("name", m.name)
                        o.set("added", m.added)
                        o.set("taken", m.taken)
                        o.set("time_unknown", m.timeUnknown)
                        o.set("extra", m.extra)
                        o.set("skipped", m.skipped)
                        o.set("missed", m.missed)
                        o.set("already_there", m.alreadyThere)
                        if m.added { o.set("versions", m.versions) } else { o.setNull("versions") }
                        o.set("stock", m.added ? m.stock : Amount?.none)
                    }
                }
            }
            o.setArray("no_equivalent") { a in for item in noEquivalent { a.append(item) } }
        }.text
    }
}
