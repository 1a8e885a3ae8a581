// swift-tools-version: 6.0
import PackageDescription

/// abconsole: an A/B experiment console and scriptable CLI over one local JSON store.
/// Toolchain and C system libraries only; no package dependencies.
let package = Package(
    name: "abconsole",
    // The libraries apps link, ExperimentCore and ExperimentClient, reach iOS 15, macOS 12, tvOS 15
    // and watchOS 8: they use no newer API (no `Synchronization`, no `String(validating:as:)`) and
    // libc only behind `canImport`; `scripts/check-reach` keeps it so. The other targets are the
    // Linux tools (the `abconsole` and `abconsole-bench` executables import Glibc and ncurses).
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "ExperimentCore", targets: ["ExperimentCore"]),
        .library(name: "ExperimentClient", targets: ["ExperimentClient"]),
        .executable(name: "client-example", targets: ["client-example"]),
        .library(name: "ExperimentEditing", targets: ["ExperimentEditing"]),
        .library(name: "ExperimentStore", targets: ["ExperimentStore"]),
        .library(name: "TerminalText", targets: ["TerminalText"]),
        .library(name: "ExperimentStats", targets: ["ExperimentStats"]),
        .executable(name: "abconsole", targets: ["abconsole"]),
        .executable(name: "abconsole-bench", targets: ["abconsole-bench"]),
    ],
    targets: [
        /// What an app needs to decide variants: domain, bucketing, ramping, assignment, the store reader and
        /// validator. Foundation only; what an app links (through ExperimentClient).
        .target(name: "ExperimentCore"),
        /// Editing the store, for the CLI and the console: changes and their rules, merge, diff, conflicts, git status. Foundation only.
        .target(name: "ExperimentEditing", dependencies: ["ExperimentCore"]),
        /// What an app links to get its variants: typed keys, fallbacks, overrides, exposures. Read side only.
        /// On Linux it inflates gzip answers of its own HTTP transport with zlib.
        .target(name: "ExperimentClient", dependencies: ["ExperimentCore", .target(name: "CZlib", condition: .when(platforms: [.linux]))]),
        /// The zlib system library (Linux), reached through a small shim header.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        /// README's worked example: typed keys for the sample store, one `KEY VARIANT` line each.
        .executableTarget(name: "client-example", dependencies: ["ExperimentClient"]),
        /// The store side: files, locks, the canonical writer, transactions, CSV import.
        .target(name: "ExperimentStore", dependencies: ["ExperimentCore", "ExperimentEditing", "TerminalText"]),
        /// Text made safe and measured for a terminal: control characters escaped, display widths, word wrap.
        .target(name: "TerminalText"),
        /// Results statistics (SPEC §8): lift, Bayesian and frequentist engines, sample-ratio check,
        /// and the distribution functions. Pure: no I/O, no dependencies.
        .target(name: "ExperimentStats"),
        /// Results, pure: the per-subject tables and totals of SPEC §8, the report, rollout decisions. No files, no threads.
        .target(name: "ExperimentResults", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentStats"]),
        /// Pieces parsed on several threads and applied in order on the caller's: the event logs' parallel scan.
        .target(name: "ParallelPieces"),
        /// Results, read: the event logs (streaming readers, the parallel scan) into ExperimentResults' analysis.
        .target(name: "ResultsReading", dependencies: ["ExperimentCore", "ExperimentStats", "ExperimentResults", "ParallelPieces"]),
        /// App state, intents, the pure update and views rendered into a cell buffer. No ncurses.
        .target(name: "ConsoleUI", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentResults", "TerminalText"]),
        /// The console's runtime: the session that performs ConsoleUI's effects, its jobs, store and git work. No ncurses.
        .target(name: "ConsoleRuntime", dependencies: ["ConsoleUI", "ExperimentCore", "ExperimentEditing", "ExperimentStore", "ExperimentResults", "ResultsReading"]),
        /// HTTP/1.1: a pure request parser and response writer, and the one socket file that serves them.
        .target(name: "HTTPServer"),
        /// What `serve` answers (SPEC §13): OFREP evaluation, exposure intake, health, tokens, the live store.
        .target(name: "ExperimentServer", dependencies: ["ExperimentCore", "ExperimentStore", "ExperimentResults", "ResultsReading", "HTTPServer"]),
        /// The wide-character ncurses system library, reached through a small shim header.
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        /// The executable: subcommands, and the console runtime with its one ncurses backend file.
        .executableTarget(
            name: "abconsole",
            dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentStore", "ExperimentResults", "ResultsReading", "TerminalText", "ConsoleUI", "ConsoleRuntime", "ExperimentServer", "HTTPServer", "CNcurses"]
        ),
        /// Test fixtures (`Fixture`, `TempDirectory`, `SplitMix64`) for the test targets and the benchmark; no product ships it.
        .target(name: "ExperimentTestSupport", dependencies: ["ExperimentCore", "ExperimentEditing"]),
        /// Plain C references for the benchmark only (release builds compile C with -O2 already).
        .target(name: "CBenchReference"),
        /// `swift run -c release abconsole-bench`: the performance figures of README.md, beside C.
        .executableTarget(name: "abconsole-bench", dependencies: ["ExperimentCore", "ExperimentStore", "ExperimentClient", "ExperimentResults", "ResultsReading", "ConsoleUI", "ConsoleRuntime", "CBenchReference", "ExperimentTestSupport"]),
        .testTarget(name: "ExperimentCoreTests", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentTestSupport"]),
        .testTarget(name: "ExperimentEditingTests", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentTestSupport"]),
        .testTarget(name: "ExperimentStoreTests", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentStore", "ExperimentTestSupport"]),
        .testTarget(name: "TerminalTextTests", dependencies: ["TerminalText"]),
        .testTarget(name: "ConsoleUITests", dependencies: ["ConsoleUI", "ConsoleRuntime", "ExperimentCore", "ExperimentEditing", "ExperimentStore", "ExperimentResults", "ResultsReading", "ExperimentTestSupport"], exclude: ["__Snapshots__"]),
        .testTarget(name: "abconsoleTests", dependencies: ["abconsole", "ExperimentCore", "ExperimentEditing", "ExperimentStore"]),
        .testTarget(name: "ExperimentClientTests", dependencies: ["ExperimentClient", "ExperimentCore", "ExperimentTestSupport", "client-example", "abconsole"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["ExperimentCore", "ExperimentEditing", "ExperimentStore", "ConsoleUI", "ConsoleRuntime"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "ExperimentTestSupport"]),
        .testTarget(name: "ExperimentServerTests", dependencies: ["ExperimentServer", "HTTPServer", "ExperimentCore", "ExperimentEditing", "ExperimentStore", "ExperimentResults", "ResultsReading", "ExperimentTestSupport"]),
        .testTarget(name: "ExperimentStatsTests", dependencies: ["ExperimentStats"]),
        .testTarget(name: "ExperimentResultsTests", dependencies: ["ExperimentResults", "ResultsReading", "ParallelPieces", "ExperimentCore"]),
        /// The Swift side of the differential test against gbstats (Tests/stats/gbstats_diff.py).
        .executableTarget(name: "abconsole-statsdiff", dependencies: ["ExperimentStats"], path: "Tests/stats/statsdiff"),
    ]
)
