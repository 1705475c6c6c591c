import Foundation

/// Whether the tests run under CI (`CI=true`): there a test may not be skipped for a missing tool or
/// right — it runs and fails, so CI proves it. Outside CI such a test is skipped, loudly.
public enum CI {
    public static let active = ProcessInfo.processInfo.environment["CI"] == "true"
}
