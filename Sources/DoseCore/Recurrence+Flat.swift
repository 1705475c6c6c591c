/// The one flat form of a recurrence, shared by the database (`schedule_version.kind`, `param_a`,
/// `param_b`, `weekday_mask`) and sync lines (`kind`, `a`, `b`, `weekdays`):
///
/// | Recurrence                          | kind           | a          | b                | weekdays |
/// |-------------------------------------|----------------|------------|------------------|----------|
/// | `.daily`                            | `daily`        | –          | –                | –        |
/// | `.weekdays(set)`                    | `weekdays`     | –          | –                | the set  |
/// | `.everyDays/Weeks/Months(n)`        | `every_days`/`every_weeks`/`every_months` | n | – | – |
/// | `.cycle(active:rest:)`              | `cycle`        | active     | rest             | –        |
/// | `.asNeeded(maxPerDay:minInterval:)` | `as_needed`    | maxPerDay? | minInterval? (s) | –        |
extension Recurrence {
    public struct Flat: Hashable, Sendable {
        public var kind: String
        public var a: Int?
        public var b: Int?
        public var weekdays: Set<Weekday>

        public init(kind: String, a: Int? = nil, b: Int? = nil, weekdays: Set<Weekday> = []) {
            self.kind = kind; self.a = a; self.b = b; self.weekdays = weekdays
        }
    }

    /// Why a flat form is no recurrence: an unknown kind, or a kind without a parameter it needs.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public var flat: Flat {
        switch self {
        case .daily: Flat(kind: "daily")
        case .weekdays(let days): Flat(kind: "weekdays", weekdays: days)
        case .everyDays(let n): Flat(kind: "every_days", a: n)
        case .everyWeeks(let n): Flat(kind: "every_weeks", a: n)
        case .everyMonths(let n): Flat(kind: "every_months", a: n)
        case .cycle(let active, let rest): Flat(kind: "cycle", a: active, b: rest)
        case .asNeeded(let max, let interval): Flat(kind: "as_needed", a: max, b: interval)
        }
    }

    public init(flat f: Flat) throws(Unreadable) {
        func need(_ value: Int?, _ name: String) throws(Unreadable) -> Int {
            guard let value else { throw Unreadable(description: "\(f.kind) without \(name)") }
            return value
        }
        switch f.kind {
        case "daily": self = .daily
        case "weekdays": self = .weekdays(f.weekdays)
        case "every_days": self = .everyDays(try need(f.a, "N"))
        case "every_weeks": self = .everyWeeks(try need(f.a, "N"))
        case "every_months": self = .everyMonths(try need(f.a, "N"))
        case "cycle": self = .cycle(active: try need(f.a, "active"), rest: try need(f.b, "rest"))
        case "as_needed": self = .asNeeded(maxPerDay: f.a, minInterval: f.b)
        default: throw Unreadable(description: "kind '\(f.kind)'")
        }
    }
}
