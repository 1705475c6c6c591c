/// A language dosebar speaks; every word it shows comes from this language's `Catalog`.
public enum Language: String, CaseIterable, Sendable {
    case en, ko

    /// The language of a code or locale (`ko`, `ko_KR.UTF-8`, `en_US`); nil when dosebar does not speak it.
    public init?(locale: String) {
        let code = locale.lowercased()
        if code.hasPrefix("ko") { self = .ko } else if code.hasPrefix("en") { self = .en } else { return nil }
    }
}
