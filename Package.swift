// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "dosebar",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "dosebar", targets: ["dosebar"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJSONC",
            pkgConfig: "json-c",
            providers: [.apt(["libjson-c-dev"])]
        ),
        .systemLibrary(name: "CLinuxShim"),
        // sqlite3_db_config (variadic) for DoseStore: the same libsqlite3 GRDB links.
        .systemLibrary(name: "CSQLiteShim"),
        // Threads started off their caller's CPU; .bss made writable before a second thread runs.
        .target(name: "CThreadShim"),
        // Private copies (a backup being written, a restore's staged copy) removed when a signal ends the process.
        .target(name: "CSignalCleanup"),
        .target(name: "DoseCore"),
        // The process's threads (where they start, work split among them), outside the domain.
        .target(name: "DoseRuntime", dependencies: ["DoseCore", "CThreadShim"]),
        // The one home of POSIX file writing (atomic replace, EINTR, private mkdir, errno words).
        .target(name: "DoseFiles", dependencies: ["DoseCore"]),
        .target(
            name: "DoseStore",
            dependencies: ["DoseCore", "DoseFiles", "DoseRuntime", "CSQLiteShim", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "DoseExport", dependencies: ["DoseCore", "DoseFiles", "DoseRuntime", "CJSONC"]),
        .target(
            name: "DoseApp",
            dependencies: ["DoseCore", "DoseFiles", "DoseRuntime", "DoseStore", "DoseExport", "CSignalCleanup", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(name: "DoseDaemon", dependencies: ["DoseCore", "DoseFiles", "DoseStore", "DoseExport", "DoseApp", "CLinuxShim"]),
        .executableTarget(
            name: "dosebar",
            dependencies: [
                "DoseCore", "DoseApp", "DoseDaemon", "DoseExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What several test targets share: the seedable generator of the property, fault and sync suites.
        .target(name: "DoseTestSupport", path: "Tests/Support"),
        .testTarget(name: "DoseCoreTests", dependencies: ["DoseCore", "DoseTestSupport"]),
        .testTarget(name: "DoseRuntimeTests", dependencies: ["DoseRuntime", "DoseCore", "CThreadShim"]),
        .testTarget(name: "DoseStoreTests", dependencies: ["DoseStore", "DoseTestSupport"]),
        .testTarget(name: "DoseFilesTests", dependencies: ["DoseFiles", "DoseTestSupport"]),
        .testTarget(name: "DoseAppTests", dependencies: ["DoseApp", "DoseCore", "DoseStore", "DoseExport", "DoseTestSupport"]),
        .testTarget(name: "DoseDaemonTests", dependencies: ["DoseDaemon", "DoseApp", "DoseCore"]),
        .testTarget(name: "DoseExportTests", dependencies: ["DoseExport", "DoseTestSupport", "CJSONC"], resources: [.copy("Expected")]),
        // Golden files and fixtures are read from the source tree by path (#filePath), not bundled.
        .testTarget(name: "DosebarTests", dependencies: ["DoseCore", "DoseExport", "DoseTestSupport"], exclude: ["Expected", "Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
