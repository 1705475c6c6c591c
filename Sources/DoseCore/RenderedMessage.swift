/// Severity of a message, from calm to urgent.
public enum Severity: String, Sendable, Comparable {
    case info, good, warning, critical
    private var rank: Int { [.info: 0, .good: 1, .warning: 2, .critical: 3][self]! }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// A message rendered for a person: its rule id, severity and text in the chosen language.
public struct RenderedMessage: Hashable, Sendable {
    public var id: String
    public var severity: Severity
    public var text: String
    public init(id: String, severity: Severity, text: String) {
        self.id = id; self.severity = severity; self.text = text
    }
}
