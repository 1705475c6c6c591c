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
}

/// Completion of medicine names for `take`, `skip`, `edit`, `remove`, `refill` and `undo`.
enum MedicineCompletion {
    /// The names starting with `prefix` (any letter case); nothing when there is no database yet.
    static func names(words: [String], prefix: String) -> [String] {
        var options = AppOptions()
        for (i, word) in words.enumerated() {
            if word == "--db", i + 1 < words.count { options.db = unquoted(words[i + 1]) }
            if word.hasPrefix("--db=") { options.db = unquoted(String(word.dropFirst(5))) }
        }
        guard let context = try? AppContext(options), FileManager.default.fileExists(atPath: context.dbPath),
              let medications = try? context.openStore().read({ try $0.medications(includeArchived: false) })
        else { return [] }
        let needle = unquoted(prefix).lowercased()
        return medications.map(\.name).filter { $0.lowercased().hasPrefix(needle) }
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
