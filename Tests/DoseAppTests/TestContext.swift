@testable import DoseApp
import Foundation

extension AppContext {
    /// A context over a temporary `root`, which it creates: the database, the shared directory and
    /// the config inside it, the clock fixed at `now` in `zone`; `env` adds or replaces variables.
    static func test(root: String, now: String = "2026-11-22T08:05:00+09:00", zone: String = "Asia/Seoul",
                     env: [String: String] = [:], configErrors: ConfigErrors = .fail) throws -> AppContext {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let base = ["HOME": root, "DOSEBAR_DB": root + "/db.sqlite", "DOSEBAR_DIR": root + "/shared",
                    "DOSEBAR_NOW": now, "TZ": zone, "XDG_CONFIG_HOME": root + "/config"]
        return try AppContext(AppOptions(), env: base.merging(env) { $1 }, configErrors: configErrors)
    }
}
