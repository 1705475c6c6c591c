import CLinuxShim
import DoseApp
import DoseCore
import DoseExport

/// What `dosebar --version` prints: version, the commit it was built from, the Swift that
/// compiled it and the versions of the formats it reads and writes.
enum BuildInfo {
    static let version = "0.1.0"

    /// The git commit scripts/install embeds (`-Xcc -DDOSEBAR_COMMIT=…`), else "unknown".
    static var commit: String { String(cString: shim_build_commit()) }

    static var swift: String {
        #if compiler(>=7.0)
        "7.0 or later"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    /// Several lines: `dosebar 0.1.0` first, as tools that read a version expect.
    static var text: String {
        """
        dosebar \(version)
        build: \(commit)
        swift: \(swift)
        snapshot schema: \(Snapshot.schema)
        timeline schema: \(TimelineJSON.schema)
        database migration: \(AppContext.schemaMigration)
        """
    }
}
