import Foundation
import Testing

/// `plan` counts the days of traffic, reads shares as `5%` or `0.05`, and every numeric option reads
/// numbers one way (SPEC §12 "Power and duration").
@Suite struct PlanTrafficTests {
    /// `running_exp` (window from 2026-03-01T10:00Z) with 200 subjects a variant exposed from 10:30 on
    /// 2026-03-01 to 10:00 on 2026-03-03, the last one exactly two days after the window's start.
    static func sandbox() throws -> Sandbox {
        let exposures = (0..<400).map { index in
            ResultsCommandTests.exposure("u\(index)", index % 2 == 0 ? "control" : "green",
                                         index == 399 ? "2026-03-03T10:00:00Z" : "2026-03-01T10:30:00Z")
        }
        let sandbox = try DecideCommandTests.sandbox(exposures: exposures)
        sandbox.ok(["set-metrics", "running_exp", "--goal", "buy"])
        return sandbox
    }

    @Test func trafficThatStoppedAMonthAgoIsNotDilutedToNow() throws {
        let sandbox = try Self.sandbox()
        let monthLater = ["ABCONSOLE_NOW": "2026-04-03T10:00:00Z"]
        let plan = try DecideCommandTests.json(sandbox.ok(["plan", "running_exp", "--json"], env: monthLater))
        #expect(plan["days"] as? Double == 2)
        let green = try #require((plan["variants"] as? [[String: Any]])?.first)
        #expect(green["subjects_per_day"] as? Double == 100)
        #expect(green["days_remaining"] is Int, "\(green)")
        let text = sandbox.ok(["plan", "running_exp"], env: monthLater).stdout
        #expect(text.contains("· 2.0 days of traffic ·") && !text.contains("over 365"), "\(text)")
        #expect(text.contains("power: the chance of detecting a true 5 % effect — it says how long to run, not who wins"))
    }

    @Test func pausedSpansAreNotTraffic() throws {
        let sandbox = try Self.sandbox()
        sandbox.ok(["pause", "running_exp"], env: ["ABCONSOLE_NOW": "2026-03-02T10:00:00Z"])
        sandbox.ok(["start", "running_exp"], env: ["ABCONSOLE_NOW": "2026-03-02T22:00:00Z"])
        let plan = try DecideCommandTests.json(sandbox.ok(["plan", "running_exp", "--json"], env: ["ABCONSOLE_NOW": "2026-04-03T10:00:00Z"]))
        #expect(plan["days"] as? Double == 1.5)
    }

    @Test func theEffectIsAPercentOrAFraction() throws {
        let sandbox = try Self.sandbox()
        let env = ["ABCONSOLE_NOW": "2026-04-03T10:00:00Z"]
        let percent = try DecideCommandTests.json(sandbox.ok(["plan", "running_exp", "--json", "--mde", "5%"], env: env))
        let fraction = try DecideCommandTests.json(sandbox.ok(["plan", "running_exp", "--json", "--mde", "0.05"], env: env))
        #expect(percent["mde"] as? Double == 0.05 && fraction["mde"] as? Double == 0.05)
        sandbox.refused(["plan", "running_exp", "--mde", "5"], code: 64, "did you mean 5%?", env: env)
        sandbox.refused(["plan", "running_exp", "--mde", "1"], code: 64, "did you mean 1%?", env: env)
        let power = try DecideCommandTests.json(sandbox.ok(["plan", "--daily-subjects", "1000", "--baseline", "4%", "--power", "90%", "--json"]))
        #expect(power["subjects_per_variant"] is Int)
    }

    @Test func aPowerOutsideItsRangeIsRefused() throws {
        let sandbox = try Self.sandbox()
        for power in ["1e-300", "0.0001", "0.49", "100%", "0x10"] {
            sandbox.refused(["plan", "--daily-subjects", "1000", "--baseline", "0.1", "--power", power], code: 64, "--power must be a power of at least 50 %")
        }
        sandbox.refused(["plan", "--daily-subjects", "1000", "--baseline", "0.1", "--power", "80"], code: 64, "--power 80 would mean 8,000 %; write a percent with % or a fraction below 1 — did you mean 80%?")
        let half = sandbox.ok(["plan", "--daily-subjects", "1000", "--baseline", "0.1", "--power", "0.5"]).stdout
        #expect(half.contains("for 50 % power"), "\(half)")
        // A draft whose traffic is too thin to finish in a century says so instead of a number of days.
        sandbox.refused(["plan", "--daily-subjects", "0.0001", "--baseline", "0.1"], code: 65, "would take more than 36,500 days")
    }

    @Test func everyNumericOptionReadsDigitsOnly() throws {
        let sandbox = try Self.sandbox()
        let env = ["ABCONSOLE_NOW": "2026-04-03T10:00:00Z"]
        for text in ["0x10", "1e-300", "inf", "+5", " 5"] {
            sandbox.refused(["results", "running_exp", "--cuped", "--lookback", text], code: 64, "--lookback must be", env: env)
            sandbox.refused(["results", "running_exp", "--conversion-window", text], code: 64, "--conversion-window must be", env: env)
            sandbox.refused(["plan", "--daily-subjects", text, "--baseline", "0.1"], code: 64, "--daily-subjects must be")
            sandbox.refused(["plan", "--daily-subjects", "100", "--baseline", "0.1", "--variants", text], code: 64, "--variants must be")
            sandbox.refused(["plan", "running_exp", "--mde", text], code: 64, "--mde must be", env: env)
            sandbox.refused(["history", "--limit", text], code: 64, "--limit must be")
        }
        sandbox.ok(["results", "running_exp", "--cuped", "--lookback", "7.5"], env: env)
        #expect(sandbox.ok(["history", "--limit", "2"]).lines.count == 3)
    }
}
