import ArgumentParser
import DoseApp
import DoseCore
import Foundation

extension CompletionKind {
    /// The active medicines' names, read from the database `--db` (or `DOSEBAR_DB`, or the
    /// default) names. Runs only when a shell asks for completions, never at start-up.
    static var medicineNames: CompletionKind {
        .custom { words, _, prefix in MedicineCompletion.names(words: words, prefix: prefix) }
    }

    /// The removed (archived) medicines' names, for `resume`.
    static var archivedMedicineNames: CompletionKind {
        .custom { words, _, prefix in MedicineCompletion.names(words: words, prefix: prefix, which: .archived) }
    }

    /// Every medicine's name, active or removed, for `purge`.
    static var allMedicineNames: CompletionKind {
        .custom { words, _, prefix in MedicineCompletion.names(words: words, prefix: prefix, which: .all) }
    }
}

/// Completion of medicine names for `take`, `skip`, `edit`, `remove`, `refill` and `undo` (active
/// ones), `resume` (removed ones) and `purge` (all).
enum MedicineCompletion {
    /// Which medicines' names to offer.
    enum Which { case active, archived, all }

    /// The names starting with `prefix` (any letter case); nothing when there is no database yet.
    static func names(words: [String], prefix: String, which: Which = .active) -> [String] {
        var options = AppOptions()
        for (i, word) in words.enumerated() {
            if word == "--db", i + 1 < words.count { options.db = unquoted(words[i + 1]) }
            if word.hasPrefix("--db=") { options.db = unquoted(String(word.dropFirst(5))) }
        }
        guard let context = try? AppContext(options), FileManager.default.fileExists(atPath: context.dbPath),
              let all = try? MedicationService(context: context, store: context.openStore()).medications(includeArchived: which != .active)
        else { return [] }
        let medications = which == .archived ? all.filter { $0.archivedOn != nil } : all
        let needle = unquoted(prefix).lowercased()
        var seen = Set<String>()
        return medications.map(\.name).filter { $0.lowercased().hasPrefix(needle) && seen.insert($0).inserted }
    }

    /// A shell word without the quotes around it.
    private static func unquoted(_ word: String) -> String {
        var w = word
        if w.count >= 1, let q = w.first, q == "\"" || q == "'" {
            w.removeFirst()
            if w.last == q { w.removeLast() }
        }
        return w
    }
}
