import DoseCore
import DoseExport

extension ImportSummary {
    /// The summary for a person, in the catalog's words ("Would add …" in a dry run): medicines added
    /// and reused, doses imported and already there, each medicine's part, missed, and everything
    /// that has no equivalent in dosebar.
    public func lines(_ c: Catalog) -> [String] {
        var out: [String] = []
        if dryRun { out.append(c.text("import.dry_run")) }
        // Every key a literal at its call: the catalog's key check (CatalogKeysTests) finds them.
        for a in added {
            let args = ["name": a.name, "schedule": a.schedule]
            let line = switch (a.origin, dryRun) {
            case (.treatment, false): c.text("import.added", args)
            case (.treatment, true): c.text("import.would_add", args)
            case (.historyOnly, false): c.text("import.added_history_only", args)
            case (.historyOnly, true): c.text("import.would_add_history_only", args)
            case (.rebuilt, false): c.text("import.added_rebuilt", args)
            case (.rebuilt, true): c.text("import.would_add_rebuilt", args)
            case (.unknownName, false): c.text("import.added_unknown", args)
            case (.unknownName, true): c.text("import.would_add_unknown", args)
            }
            out.append(line)
        }
        for name in reused { out.append(dryRun ? c.text("import.would_reuse", ["name": name]) : c.text("import.reused", ["name": name])) }
        let doses = ["taken": String(taken), "skipped": String(skipped), "already": String(alreadyThere)]
        out.append(dryRun ? c.text("import.would_doses", doses) : c.text("import.doses", doses))
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
            let line = ["name": m.name, "parts": parts.joined(separator: ", ")]
            out.append(dryRun ? c.text("import.would_line", line) : c.text("import.line", line))
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
