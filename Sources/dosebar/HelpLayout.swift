/// The order of a help page's sections: the command's own options before the global ones.
///
/// ArgumentParser renders every titled `@OptionGroup` ahead of the untitled OPTIONS section
/// (HelpGenerator.generateSections in swift-argument-parser 1.8), whatever the order of the
/// properties, so "GLOBAL OPTIONS" would come before the options a reader came for. This moves
/// that one section after OPTIONS; every other section keeps its place and its text.
enum HelpLayout {
    static let globalHeader = "GLOBAL OPTIONS:"

    /// `text` with the global options after the command's own; unchanged when it is not a help
    /// page (a version, a completion script, the dump-help JSON) or has no global section.
    static func ownOptionsFirst(_ text: String) -> String {
        guard text.hasPrefix("OVERVIEW:") || text.hasPrefix("USAGE:") else { return text }
        // Sections are separated by a blank line; a section's first line is its header. A section
        // may end with a newline of its own: it is dropped here, and the separators made even.
        let trailing = String(text.reversed().prefix { $0 == "\n" })
        var sections = text.components(separatedBy: "\n\n")
            .map { String($0.reversed().drop { $0 == "\n" }.reversed()) }
            .filter { !$0.isEmpty }
        guard let global = sections.firstIndex(where: { $0.hasPrefix(globalHeader) }),
              let own = sections.firstIndex(where: { $0.hasPrefix("OPTIONS:") }), own > global
        else { return text }
        let moved = sections.remove(at: global)
        sections.insert(moved, at: own)
        return sections.joined(separator: "\n\n") + trailing
    }
}
