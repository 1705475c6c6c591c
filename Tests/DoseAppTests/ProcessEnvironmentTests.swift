import DoseApp
import Foundation
import Testing

@Suite struct ProcessEnvironmentTests {
    /// The same dictionary as Foundation's (the environment is only read: the other tests run at
    /// the same time, and changing it under them is not thread-safe).
    @Test func readsWhatFoundationReads() {
        let env = ProcessEnvironment.current()
        #expect(env == ProcessInfo.processInfo.environment)
        #expect(env["PATH"].map { !$0.isEmpty } == true)
    }
}
