import DoseCore
import DoseExport

extension ImportSummary {
    /// The summary for a person, in the catalog's words: medicines added and reused, doses imported,
    /// already there, missed, and everything that has no equivalent in dosebar.
    public func lines(_ c: Catalog) -> [String] {
        var out: [String] = []
        if dryRun { out.append(c.text("import.dry_run")) }
        for a in added {
            let key = switch a.origin {
            case .treatment: "import.added"
            case .historyOnly: "import.added_history_only"
            case .unknownName: "import.added_unknown"
            }
            out.append(c.text(key, ["name": a.name, "schedule": a.schedule]))
        }
        for name in reused { out.append(c.text("import.reused", ["name": name])) }
        out.append(c.text("import.doses", ["taken": String(taken), "skipped": String(skipped), "already": String(alreadyThere)]))
        if timeUnknown > 0 { out.append(c.text("import.time_unknown", ["count": String(timeUnknown)])) }
        if missed > 0 { out.append(c.text("import.missed", ["count": String(missed)])) }
        if !noEquivalent.isEmpty {
            out.append(c.text("import.no_equivalent"))
            out += noEquivalent.map { "  - " + $0 }
        }
        return out
    }

    /// `{dry_run, added: [{name, schedule, origin}], reused: [name], taken, skipped, already_there,
    /// time_unknown, missed, no_equivalent: [text]}`.
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
            o.set("missed", missed)
            o.setArray("no_equivalent") { a in for item in noEquivalent { a.append(item) } }
        }.text
    }
}
