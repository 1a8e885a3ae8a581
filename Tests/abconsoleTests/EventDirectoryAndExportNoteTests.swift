import Foundation
import Testing

/// `results` over a directory of day logs or several files (SPEC §13), and `export`'s note on whitelisted ids.
@Suite struct EventDirectoryAndExportNoteTests {
    typealias R = ResultsCommandTests

    static func subjects(_ result: RunResult) throws -> [String: Int] {
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        return try #require(json["subjects"] as? [String: Int])
    }

    /// The default logs cut into two days' files (and a file of another kind beside them): a directory reads as the one file.
    @Test func aDirectoryReadsEveryDayLogInNameOrderAndSeveralFilesReadAsOne() throws {
        let sandbox = try R.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("logs"), withIntermediateDirectories: true)
        _ = try sandbox.write("logs/exposures-2026-03-01.jsonl", R.defaultExposures[..<25].joined(separator: "\n") + "\n")
        _ = try sandbox.write("logs/exposures-2026-03-02.jsonl", R.defaultExposures[25...].joined(separator: "\n") + "\n")
        _ = try sandbox.write("logs/exposures-notes.txt", "not a log\n")
        _ = try sandbox.write("logs/conversions-2026-03-01.jsonl", R.defaultConversions.joined(separator: "\n") + "\n")
        let whole = sandbox.ok(["results", "running_exp", "--json"], env: R.later)
        let fromDirectory = sandbox.ok(["results", "running_exp", "--json", "--exposures", sandbox.path("logs"), "--conversions", sandbox.path("logs")], env: R.later)
        #expect(try Self.subjects(fromDirectory) == ["exposed": 40, "analysed": 40, "multiple_variants": 0, "whitelisted": 0, "unknown_variant_rows": 0])
        #expect(fromDirectory.stdoutData == whole.stdoutData)
        let fromFiles = sandbox.ok(["results", "running_exp", "--json", "--exposures", sandbox.path("logs/exposures-2026-03-02.jsonl"),
                                    "--exposures", sandbox.path("logs/exposures-2026-03-01.jsonl"), "--conversions", sandbox.path("logs")], env: R.later)
        #expect(fromFiles.stdoutData == whole.stdoutData)
        // One day alone: only its subjects.
        let oneDay = sandbox.ok(["results", "running_exp", "--json", "--exposures", sandbox.path("logs/exposures-2026-03-01.jsonl"),
                                 "--conversions", sandbox.path("logs")], env: R.later)
        #expect(try Self.subjects(oneDay)["exposed"] == 25)
        // A malformed row in a day's file names that file and line.
        _ = try sandbox.write("logs/exposures-2026-03-03.jsonl", R.exposure("u1", "control") + "\n" + R.exposure("u2", "green", "soon") + "\n")
        sandbox.refused(["results", "running_exp", "--exposures", sandbox.path("logs"), "--conversions", sandbox.path("logs")],
                        code: 65, "exposures-2026-03-03.jsonl:2: field `timestamp`")
    }

    /// A directory without logs yet (a server that has received none) reads as no rows, and says so.
    @Test func anEmptyDirectoryReadsAsNoRowsWithANote() throws {
        let sandbox = try R.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        let result = sandbox.ok(["results", "running_exp", "--exposures", sandbox.path("empty"), "--conversions", sandbox.path("empty")], env: R.later)
        #expect(result.stdout.contains("no exposures-* log"))
        #expect(result.stdout.contains("0 exposed"))
    }

    @Test func exportSaysOnceThatWhitelistedIdsShipAndNoWhitelistLeavesThemOut() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["whitelist", "add", "running_exp", "partner-7", "green"])
        for format in ["client", "growthbook"] {
            let shipped = sandbox.ok(["export", "--format", format])
            #expect(shipped.stdout.contains("partner-7"))
            #expect(shipped.stderr.components(separatedBy: "ship in this file").count == 2, "said once: \(shipped.stderr)")
            #expect(shipped.stderr.contains("running_exp") && shipped.stderr.contains("--no-whitelist"))
            let left = sandbox.ok(["export", "--format", format, "--no-whitelist"])
            #expect(!left.stdout.contains("partner-7"))
            #expect(!left.stderr.contains("ship in this file"))
            let out = sandbox.path("out-\(format).json")
            let written = sandbox.ok(["export", "--format", format, "--no-whitelist", "--out", out])
            #expect(!written.stderr.contains("ship in this file"))
            #expect(FileManager.default.contents(atPath: out) == left.stdoutData)
        }
        sandbox.ok(["whitelist", "remove", "running_exp", "partner-7"])
        #expect(!sandbox.ok(["export", "--format", "client"]).stderr.contains("ship in this file"))
    }
}
