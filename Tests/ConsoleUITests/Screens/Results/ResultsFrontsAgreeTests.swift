import ExperimentResults
import Foundation
import Testing
@testable import ConsoleUI

/// The `results` command (the real process) and the console's results screen lay out one presentation:
/// every word and number it has for a report appears in both, on the same store and logs.
@Suite struct ResultsFrontsAgreeTests {
    @Test(arguments: [false, true]) func bothFrontsShowThePresentersCells(frequentist: Bool) throws {
        let story = try ResultsStoryTests.storeWithEvents()
        story.send(.character("e"))
        story.session.settle()
        if frequentist { story.send(.character("f")) }
        let report = try #require(story.session.state.results?.report)
        let shown = ResultsPresentation(report)
        let cli = try Self.results(store: story.store.path, key: report.analysis.experiment, frequentist: frequentist)
        #expect(!shown.metrics.isEmpty)

        // Everything above the tables, in words.
        var console = Self.flattened(story.screen())
        var shared = [shown.engine, shown.window, "sample ratio: " + shown.sampleRatio] + shown.subjects
        shared += shown.headline.map { ["verdict: " + $0] } ?? []
        shared += shown.lastExposure.map { [$0] } ?? []
        for text in shared {
            #expect(console.contains(text), "console lacks \(text)")
            #expect(cli.contains(text), "results lacks \(text)")
        }
        // Every cell of every metric's table: the console shows one metric at a time (Tab).
        for metric in shown.metrics {
            #expect(console.contains(" \(metric.name) "))
            #expect(cli.contains(metric.title))
            for row in metric.rows {
                var cells = [row.variant, row.subjects, row.total, row.mean]
                if !row.isControl { cells += [row.lift, row.interval, row.evidence].filter { !$0.isEmpty } }
                for cell in cells {
                    #expect(console.contains(cell), "console lacks \(cell) of \(metric.name)")
                    #expect(cli.contains(cell), "results lacks \(cell) of \(metric.name)")
                }
            }
            story.send(.tab)
            console = Self.flattened(story.screen())
        }
    }

    /// The screen's lines as one string, runs of spaces as one (wrapped words join across lines).
    static func flattened(_ lines: [String]) -> String {
        lines.joined(separator: " ").split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `abconsole results key` on the story's store, at the story's clock, flattened as the screen is.
    static func results(store: String, key: String, frequentist: Bool) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--store", store, "results", key] + (frequentist ? ["--engine", "frequentist"] : [])
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ABCONSOLE_") }
        environment["ABCONSOLE_NOW"] = "2026-11-04T12:00:00Z"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return flattened(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// The `abconsole` executable in the build directory, beside the test bundle.
    static let executable: URL = {
        let candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
            + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap { $0 }
        let executables = candidates.map { $0.appendingPathComponent("abconsole") }
        return executables.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? executables[0]
    }()
}
