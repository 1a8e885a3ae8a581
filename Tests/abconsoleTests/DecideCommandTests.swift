import Foundation
import Testing

/// SPEC §12 through the real process: `set-metrics`, roles and verdicts in `results`, the guarded
/// `resolve` and `plan`.
@Suite struct DecideCommandTests {
    static let later = ResultsCommandTests.later

    /// `running_exp` with 200 subjects a variant: `buy` converts 20 % of control and 40 % of green,
    /// `refund` 5 % of control and 25 % of green, `view` 50 % of both.
    static func sandbox(exposures: [String]? = nil) throws -> Sandbox {
        let subjects = 0..<400
        let exposures = exposures ?? subjects.map { ResultsCommandTests.exposure("u\($0)", $0 % 2 == 0 ? "control" : "green") }
        var conversions: [String] = []
        for index in subjects {
            let green = index % 2 == 1, rank = index / 2
            func convert(_ metric: String) { conversions.append("{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\(index)\",\"metric\":\"\(metric)\"}") }
            if rank % 10 < (green ? 4 : 2) { convert("buy") }
            if rank % 20 < (green ? 5 : 1) { convert("refund") }
            if rank % 2 == 0 { convert("view") }
        }
        return try ResultsCommandTests.sandbox(exposures: exposures, conversions: conversions)
    }

    static func json(_ result: RunResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    // MARK: set-metrics and show

    @Test func setMetricsIsStoredShownAndRecorded() throws {
        let sandbox = try Fixture.sandbox()
        let set = sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refund:decrease", "--guardrail", "latency:decrease"])
        #expect(set.stdout == "`running_exp` now judges its variants by goal buy; guardrails refund:decrease, latency:decrease\n")
        let bytes = String(decoding: try #require(sandbox.storeBytes()), as: UTF8.self)
        #expect(bytes.contains("\n      \"metrics\": {\"goal\": {\"direction\": \"increase\", \"metric\": \"buy\"}, \"guardrails\": [{\"direction\": \"decrease\", \"metric\": \"refund\"}, {\"direction\": \"decrease\", \"metric\": \"latency\"}]},\n      \"revision\": "))
        let show = try Self.json(sandbox.ok(["show", "running_exp", "--json"]))
        let metrics = try #require(show["metrics"] as? [String: Any])
        #expect(metrics["goal"] as? [String: String] == ["metric": "buy", "direction": "increase"])
        #expect(metrics["guardrails"] as? [[String: String]] == [["metric": "refund", "direction": "decrease"], ["metric": "latency", "direction": "decrease"]])
        let text = sandbox.ok(["show", "running_exp"]).lines
        #expect(text.contains("goal:        buy (higher is better)"))
        #expect(text.contains("guardrails:  refund (lower is better), latency (lower is better)"))
        // --goal alone keeps the guardrails; the same metrics again write nothing.
        sandbox.ok(["set-metrics", "running_exp", "--goal", "revenue"])
        let unchanged = sandbox.storeBytes()
        #expect(sandbox.ok(["set-metrics", "running_exp", "--goal", "revenue"]).stdout.contains("already has goal revenue; guardrails refund:decrease, latency:decrease"))
        #expect(sandbox.storeBytes() == unchanged)
        sandbox.ok(["set-metrics", "running_exp", "--clear"])
        let cleared = try #require(try Self.json(sandbox.ok(["show", "running_exp", "--json"]))["metrics"] as? [String: Any])
        #expect(cleared["goal"] is NSNull && (cleared["guardrails"] as? [Any])?.isEmpty == true)
        let history = try #require(try JSONSerialization.jsonObject(with: sandbox.ok(["history", "running_exp", "--json"]).stdoutData) as? [[String: Any]])
        let entries = history.filter { $0["action"] as? String == "set_metrics" }
        #expect(entries.map { $0["after"] as? String } == ["goal buy; guardrails refund:decrease, latency:decrease",
                                                           "goal revenue; guardrails refund:decrease, latency:decrease", nil])
        // Cleared, the store is byte for byte what it was before any metric was named (no empty `metrics`).
        #expect(!String(decoding: try #require(sandbox.storeBytes()), as: UTF8.self).contains("\"metrics\""))
        sandbox.ok(["validate"])
    }

    @Test func metricsAreNeverExported() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refund:decrease"])
        for format in ["client", "growthbook"] {
            #expect(!sandbox.ok(["export", "--format", format]).stdout.contains("refund"))
        }
    }

    @Test func badMetricsAreRefused() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["set-metrics", "running_exp"], code: 64, "give --goal, --guardrail or --clear")
        sandbox.refused(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "buy:decrease"], code: 65, "metric `buy` is named twice")
        sandbox.refused(["set-metrics", "running_exp", "--goal", "a\u{7}b"], code: 64, "is not a metric name: a metric name is 1–128 ASCII letters")
        sandbox.refused(["set-metrics", "nope", "--goal", "buy"], code: 65, "no experiment `nope`")
    }

    @Test func aStoreWithMetricsReadsTheSameThroughBothReaders() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy:decrease", "--guardrail", "refund"])
        // Reformatted (so the fast reader's byte-exact paths give way to JSONDecoder), the store still reads and validates.
        let data = try #require(sandbox.storeBytes())
        let object = try JSONSerialization.jsonObject(with: data)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: sandbox.store))
        let metrics = try #require(try Self.json(sandbox.ok(["show", "running_exp", "--json"]))["metrics"] as? [String: Any])
        #expect(metrics["goal"] as? [String: String] == ["metric": "buy", "direction": "decrease"])
        // A bad metric written by hand is a validation problem with its JSON path.
        var text = String(decoding: data, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"metric\": \"refund\"", with: "\"metric\": \"buy\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: sandbox.store))
        let result = sandbox.run(["validate"])
        #expect(result.code == 65 && result.stderr.contains(".metrics.guardrails[0].metric") && result.stderr.contains("named twice"), "\(result.stderr)")
    }

    // MARK: results

    @Test func resultsPutTheGoalFirstWithDirectionAwareVerdicts() throws {
        let sandbox = try Self.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refund:decrease"])
        let json = try Self.json(sandbox.ok(["results", "running_exp", "--json"], env: Self.later))
        let metrics = try #require(json["metrics"] as? [[String: Any]])
        #expect(metrics.map { $0["metric"] as? String } == ["buy", "refund"])
        #expect(metrics.map { $0["role"] as? String } == ["goal", "guardrail"])
        let verdicts = metrics.map { ($0["variants"] as? [[String: Any]])?.last?["verdict"] as? String }
        #expect(verdicts == ["better", "fails"])
        // For a metric where lower is better, chance_to_win is the chance of being lower.
        let refund = try #require((metrics[1]["variants"] as? [[String: Any]])?.last)
        #expect(try #require(refund["chance_to_win"] as? Double) < 0.01)
        #expect(try #require(refund["lift"] as? Double) > 0)
        #expect((json["headline"] as? String)?.hasPrefix("goal buy: green better (") == true)
        #expect((json["headline"] as? String)?.contains("guardrail refund FAILS for green") == true)
        // --all-metrics adds the others after them; without names, every metric comes as before.
        let all = try Self.json(sandbox.ok(["results", "running_exp", "--json", "--all-metrics"], env: Self.later))
        #expect((all["metrics"] as? [[String: Any]])?.map { $0["metric"] as? String } == ["buy", "refund", "view"])
        #expect((all["metrics"] as? [[String: Any]])?.map { $0["role"] as? String } == ["goal", "guardrail", "other"])
        let frequentist = try Self.json(sandbox.ok(["results", "running_exp", "--json", "--engine", "frequentist"], env: Self.later))
        #expect((frequentist["metrics"] as? [[String: Any]])?.map { ($0["variants"] as? [[String: Any]])?.last?["verdict"] as? String } == ["better", "fails"])
        let text = sandbox.ok(["results", "running_exp"], env: Self.later).lines
        #expect(text[1].hasPrefix("verdict: goal buy: green better ("))
        #expect(text.contains("refund (proportion, guardrail, lower is better)"))
        #expect(text.contains { $0.hasPrefix("VARIANT") && $0.contains("CHANCE LOWER") && $0.hasSuffix("VERDICT") })
    }

    @Test func aGoalNamingNoMetricInTheLogsIsAWarning() throws {
        let sandbox = try Self.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "signup"])
        let json = try Self.json(sandbox.ok(["results", "running_exp", "--json"], env: Self.later))
        #expect((json["warnings"] as? [String])?.contains("no conversion names the metric `signup`") == true)
        #expect(json["headline"] as? String == "goal signup: no data; sample ratio ok")
    }

    // MARK: resolve

    @Test func resolveWithoutATerminalNeedsYes() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.refused(["resolve", "running_exp", "green"], code: 64, "without a terminal to confirm at, add --yes")
    }

    @Test func aFailedGuardrailStopsTheResolveUnlessForced() throws {
        let sandbox = try Self.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy", "--guardrail", "refund:decrease"])
        let before = sandbox.storeBytes()
        let refused = sandbox.run(["resolve", "running_exp", "green", "--yes"], env: Self.later)
        #expect(refused.code == 65)
        #expect(refused.stdout.hasPrefix("evidence: goal buy: green better ("))
        #expect(refused.stderr.contains("not resolving `running_exp` to `green`: guardrail refund FAILS for green"), "\(refused.stderr)")
        #expect(sandbox.storeBytes() == before)
        // The control fails no guardrail of its own.
        let forced = sandbox.ok(["resolve", "running_exp", "green", "--yes", "--force"], env: Self.later)
        #expect(forced.stdout.contains("resolved `running_exp`: everyone now gets `green`, forever"))
        let history = try #require(try JSONSerialization.jsonObject(with: sandbox.ok(["history", "running_exp", "--json"]).stdoutData) as? [[String: Any]])
        #expect((history.last?["after"] as? String)?.hasPrefix("resolved winner=green (forced past: guardrail refund FAILS for green") == true)
    }

    @Test func aSampleRatioMismatchStopsTheResolve() throws {
        let exposures = (0..<300).map { ResultsCommandTests.exposure("u\($0)", $0 % 3 == 0 ? "control" : "green") }
        let sandbox = try Self.sandbox(exposures: exposures)
        let result = sandbox.run(["resolve", "running_exp", "control", "--yes"], env: Self.later)
        #expect(result.code == 65 && result.stderr.contains("sample ratio MISMATCH"), "\(result.stderr)")
        sandbox.ok(["resolve", "running_exp", "control", "--yes", "--force"], env: Self.later)
    }

    // MARK: plan

    @Test func planFromTrafficAndForADraft() throws {
        let sandbox = try Self.sandbox()
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy"])
        let plan = try Self.json(sandbox.ok(["plan", "running_exp", "--json"], env: Self.later))
        #expect(plan["metric"] as? String == "buy" && plan["mde"] as? Double == 0.05 && plan["power_target"] as? Double == 0.8)
        let variant = try #require((plan["variants"] as? [[String: Any]])?.first)
        #expect(variant["name"] as? String == "green" && variant["subjects"] as? Int == 200)
        // Days of traffic: the window's start (10:00) to the last exposure (10:30), not to now.
        #expect(abs(try #require(variant["subjects_per_day"] as? Double) - 200 / (0.5 / 24)) < 1e-9)
        #expect(variant["days_remaining"] is Int)
        let draft = try Self.json(sandbox.ok(["plan", "--daily-subjects", "1000", "--baseline", "0.1", "--json"]))
        let perVariant = try #require(draft["subjects_per_variant"] as? Int)
        #expect((60_000...61_500).contains(perVariant), "\(perVariant)")
        #expect(draft["days"] as? Int == Int((Double(perVariant) / 500).rounded(.up)))
    }

    @Test func planRefusesBadInput() throws {
        let sandbox = try Self.sandbox()
        sandbox.refused(["plan", "running_exp", "--mde", "0"], code: 64, "--mde must be a relative effect above 0 and below 1,000 %")
        sandbox.refused(["plan", "running_exp", "--mde", "1000%"], code: 64, "--mde must be")
        sandbox.refused(["plan", "running_exp", "--power", "1"], code: 64, "--power 1 would mean 100 %")
        sandbox.refused(["plan", "--daily-subjects", "100"], code: 64, "--daily-subjects N and --baseline RATE")
        sandbox.refused(["plan", "--daily-subjects", "100", "--baseline", "1.5"], code: 64, "--baseline 1.5 would mean 150 %")
        sandbox.refused(["plan", "running_exp", "--baseline", "0.1"], code: 64, "plans a draft")
        // Before the exposures (the fixture's clock), there is no traffic.
        sandbox.refused(["plan", "running_exp"], code: 65, "no analysed subjects in the window")
    }
}

/// What the results text no longer hides (SPEC §8 words for people).
@Suite struct ResultsWordingTests {
    @Test func datesWindowSecondsAndWhyThereAreNoMetrics() throws {
        let sandbox = try DecideCommandTests.sandbox()
        // A date is a day: --from its first instant, --to its last.
        let json = try DecideCommandTests.json(sandbox.ok(["results", "running_exp", "--json", "--from", "2026-03-01", "--to", "2026-03-01"],
                                                          env: DecideCommandTests.later))
        #expect(json["window"] as? [String: String] == ["from": "2026-03-01T00:00:00Z", "to": "2026-03-01T23:59:59.999999999Z"])
        // The header shows whole seconds.
        let lines = sandbox.ok(["results", "running_exp", "--to", "2026-03-02T00:00:00.123456Z"], env: DecideCommandTests.later).lines
        #expect(lines.first == "running_exp · Bayesian · 2026-03-01T10:00:00Z – 2026-03-02T00:00:00Z")
        #expect(lines[1].hasSuffix(" · last exposure 2026-03-01T10:30:00Z"))
        #expect(json["last_exposure"] as? String == "2026-03-01T10:30:00Z")
        // Before any exposure, the reason is the exposures, not the conversions.
        let early = sandbox.ok(["results", "running_exp", "--to", "2026-03-01T10:10:00Z"]).lines
        #expect(early.contains("no metrics: no exposures of this experiment in the window"))
    }
}
