extension Schedule {
    /// Short human description: `daily`, `mon,wed,fri`, `every 3d`, `cycle 21/7`, `as needed (max 3/day)`.
    public var summary: String {
        switch recurrence {
        case .daily: return "daily"
        case .weekdays(let d) where d.count == 7: return "daily"
        case .weekdays(let d): return d.sorted().map(\.code).joined(separator: ",")
        case .everyDays(let n): return "every \(n)d"
        case .everyWeeks(let n): return "every \(n)w"
        case .everyMonths(let n): return "every \(n)m"
        case .cycle(let a, let r): return "cycle \(a)/\(r)"
        case .asNeeded(let max, let gap):
            var parts: [String] = []
            if let max { parts.append("max \(max)/day") }
            if let gap { parts.append("every ≥\(gap / 60)m") }
            return parts.isEmpty ? "as needed" : "as needed (\(parts.joined(separator: ", ")))"
        }
    }
}
