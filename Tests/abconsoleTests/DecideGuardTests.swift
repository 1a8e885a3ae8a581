import Foundation
import Testing

/// SPEC §12's guards before an irreversible resolve, through the real process: a guardrail without
/// data, evidence that cannot be read, and metric names and directions refused at `set-metrics`.
@Suite struct DecideGuardTests {
    static let later = DecideCommandTests.later

    static func history(_ sandbox: Sandbox) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: sandbox.ok(["history", "running_exp", "--json"]).stdoutData) as? [[String: Any]])
    }

    // MARK: a guardrail without data

    @Test func aGuardrailNoConversionNamesHasNoDataInTextJSONAndHeadline() throws {
        let sandbox = try DecideCommandTests.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refnud:decrease"])
        let json = try DecideCommandTests.json(sandbox.ok(["results", "running_exp", "--json"], env: Self.later))
        let metrics = try #require(json["metrics"] as? [[String: Any]])
        #expect(metrics.map { $0["metric"] as? String } == ["buy", "refnud"])
        let guardrail = metrics[1]
        #expect(guardrail["role"] as? String == "guardrail" && guardrail["type"] is NSNull)
        let variants = try #require(guardrail["variants"] as? [[String: Any]])
        #expect(variants.map { $0["verdict"] as? String } == [nil, "no_data"])
        #expect(variants.map { $0["subjects"] as? Int } == [200, 200])
        let headline = try #require(json["headline"] as? String)
        #expect(headline.contains("guardrail refnud: no data") && !headline.contains("guardrails ok"), "\(headline)")
        #expect((json["warnings"] as? [String])?.contains { $0.hasPrefix("guardrail `refnud` has no data: no conversion") } == true)
        let text = sandbox.ok(["results", "running_exp"], env: Self.later).lines
        #expect(text[1].contains("guardrail refnud: no data"))
        #expect(text.contains("refnud (no conversions, guardrail, lower is better)"))
        #expect(text.contains { $0.hasPrefix("green ") && $0.hasSuffix("NO DATA") }, "\(text)")
    }

    /// Named in the log but never by an analysed subject (another experiment's metric, or after the window): no data either.
    @Test func aGuardrailWithoutACountedConversionHasNoData() throws {
        let sandbox = try DecideCommandTests.sandbox()
        let other = "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"someone-else\",\"metric\":\"errors\"}\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sandbox.path("events/conversions.jsonl")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(other.utf8))
        try handle.close()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "errors:decrease"])
        let json = try DecideCommandTests.json(sandbox.ok(["results", "running_exp", "--json"], env: Self.later))
        let errors = try #require((json["metrics"] as? [[String: Any]])?.last)
        #expect(errors["type"] as? String == "proportion")
        #expect((errors["variants"] as? [[String: Any]])?.last?["verdict"] as? String == "no_data")
    }

    /// Before any exposure the reason is still said; the guardrail without data comes after it.
    @Test func withoutExposuresTheReasonStaysBesideAGuardrailWithoutData() throws {
        let sandbox = try DecideCommandTests.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--guardrail", "refnud"])
        let early = sandbox.ok(["results", "running_exp", "--to", "2026-03-01T10:10:00Z"]).lines
        #expect(early.contains("no metrics: no exposures of this experiment in the window"), "\(early)")
        #expect(early.contains { $0.contains("guardrail `refnud` has no data") })
    }

    @Test func aGuardrailWithoutDataStopsTheResolveUnlessForced() throws {
        let sandbox = try DecideCommandTests.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refnud:decrease"])
        let before = sandbox.storeBytes()
        let refused = sandbox.run(["resolve", "running_exp", "green", "--yes"], env: Self.later)
        #expect(refused.code == 65)
        #expect(refused.stderr.contains("not resolving `running_exp` to `green`: guardrail refnud: no data; nothing was written"), "\(refused.stderr)")
        #expect(sandbox.storeBytes() == before)
        sandbox.ok(["resolve", "running_exp", "green", "--yes", "--force"], env: Self.later)
        #expect((try Self.history(sandbox).last?["after"] as? String) == "resolved winner=green (forced past: guardrail refnud: no data)")
    }

    // MARK: evidence that cannot be read

    @Test func unreadableEvidenceStopsTheResolveOfAJudgedExperiment() throws {
        let sandbox = try DecideCommandTests.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refund:decrease"])
        let typo = ["ABCONSOLE_CONVERSIONS": sandbox.path("events/conversion.jsonl")].merging(Self.later) { first, _ in first }
        sandbox.refused(["resolve", "running_exp", "green", "--yes"], code: 65,
                        "not resolving `running_exp` to `green`: no evidence read: \(sandbox.path("events/conversion.jsonl")): no such file", env: typo)
        // The control too: nothing was read to judge it by.
        sandbox.refused(["resolve", "running_exp", "control", "--yes"], code: 65, "no evidence read", env: typo)
        sandbox.refused(["resolve", "running_exp", "green", "--yes", "--exposures", "events/exposure.jsonl"], code: 65,
                        "no evidence read: events/exposure.jsonl: no such file", env: Self.later)
        sandbox.refused(["resolve", "running_exp", "green", "--yes", "--summary", "summary.csv"], code: 65, "no evidence read: summary.csv", env: Self.later)
        let forced = sandbox.ok(["resolve", "running_exp", "control", "--yes", "--force"], env: typo)
        #expect(forced.stdout.contains("resolved `running_exp`: everyone now gets `control`, forever"))
        let after = try #require(try Self.history(sandbox).last?["after"] as? String)
        #expect(after.hasPrefix("resolved winner=control (forced past: no evidence read: ") && after.contains("conversion.jsonl: no such file"), "\(after)")
    }

    /// An experiment that names no metric resolves without logs, as it always has.
    @Test func anExperimentWithoutMetricsResolvesWithoutEvidence() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["resolve", "running_exp", "green", "--yes"], env: ["ABCONSOLE_CONVERSIONS": "nowhere.jsonl"])
    }

    // MARK: names and directions

    @Test func aDirectionOtherThanIncreaseOrDecreaseAndNamesOutsideTheSetAreRefused() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["set-metrics", "running_exp", "--goal", "purchase:sideways"], code: 64,
                        "--goal: the direction after `:` in `purchase:sideways` must be increase or decrease, not `sideways`")
        sandbox.refused(["set-metrics", "running_exp", "--goal", " "], code: 64,
                        "--goal: ` ` is not a metric name: a metric name is 1–128 ASCII letters, digits, `_`, `.` or `-`, starting with a letter or digit")
        sandbox.refused(["set-metrics", "running_exp", "--guardrail", "a,b"], code: 64, "--guardrail: `a,b` is not a metric name")
        sandbox.refused(["set-metrics", "running_exp", "--guardrail", "ok", "--guardrail", "refund:Decrease"], code: 64, "not `Decrease`")
        sandbox.ok(["set-metrics", "running_exp", "--goal", "page.view-2:increase", "--guardrail", "Latency_ms:decrease"])
    }

    // MARK: completion

    @Test func completionOffersTheMetricNamesTheLogsHold() throws {
        let sandbox = try DecideCommandTests.sandbox()
        func complete(_ words: String...) -> [String] {
            let result = CLI.run(["__complete", "set-metrics", "running_exp"] + words, env: ["ABCONSOLE_STORE": sandbox.store], directory: sandbox.directory)
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(complete("--goal", "") == ["buy", "refund", "view"])
        #expect(complete("--goal", "buy", "--guardrail", "re") == ["refund"])
        #expect(complete("--guardrail", "refund:") == ["refund:increase", "refund:decrease"])
        #expect(complete("--guardrail", "refund:d") == ["refund:decrease"])
    }
}
