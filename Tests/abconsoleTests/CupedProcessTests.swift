import Foundation
import Testing

/// CUPED end to end (SPEC §12): synthetic logs whose pre-period correlates with the outcome, through
/// the real `results --cuped`; the interval narrows by √(1−ρ²), and the summary CSV's covariate
/// columns give the same answer as the logs.
@Suite struct CupedProcessTests {
    /// A tiny deterministic generator (SplitMix64) with normal draws (Box–Muller).
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        mutating func normal() -> Double { (-2 * log(max(next(), 1e-300))).squareRoot() * cos(2 * .pi * next()) }
    }

    struct Subject { let variant: String; let x: Double; let y: Double }

    /// `count` subjects of `running_exp`: pre-period spend X ~ N(50, 10²) six days before exposure,
    /// outcome Y = X + N(0, 7.5²) (+1 for green) after it, so ρ ≈ 0.8.
    static func sandbox(count: Int) throws -> (Sandbox, [Subject]) {
        var random = Random(state: 42)
        var subjects: [Subject] = []
        var exposures: [String] = [], conversions: [String] = []
        for index in 0..<count {
            let variant = index % 2 == 0 ? "control" : "green"
            let x = 50 + 10 * random.normal()
            let y = x + 7.5 * random.normal() + (variant == "green" ? 1 : 0)
            subjects.append(Subject(variant: variant, x: x, y: y))
            exposures.append(ResultsCommandTests.exposure("u\(index)", variant))
            conversions.append("{\"timestamp\":\"2026-02-23T12:00:00Z\",\"subject\":\"u\(index)\",\"metric\":\"spend\",\"value\":\(x)}")
            conversions.append("{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\(index)\",\"metric\":\"spend\",\"value\":\(y)}")
        }
        return (try ResultsCommandTests.sandbox(exposures: exposures, conversions: conversions), subjects)
    }

    static func interval(_ result: RunResult) throws -> (lift: Double, width: Double) {
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let green = try #require(((json["metrics"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])?.last)
        let ci = try #require(green["ci"] as? [Double])
        return (try #require(green["lift"] as? Double), ci[1] - ci[0])
    }

    @Test func theIntervalNarrowsBySqrtOneMinusRhoSquared() throws {
        let (sandbox, subjects) = try Self.sandbox(count: 4_000)
        let plain = try Self.interval(sandbox.ok(["results", "running_exp", "--json"], env: ResultsCommandTests.later))
        let cuped = try Self.interval(sandbox.ok(["results", "running_exp", "--json", "--cuped"], env: ResultsCommandTests.later))
        // ρ within the variants (the covariance CUPED uses), pooled over both.
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for variant in ["control", "green"] {
            let group = subjects.filter { $0.variant == variant }
            let mx = group.map(\.x).reduce(0, +) / Double(group.count), my = group.map(\.y).reduce(0, +) / Double(group.count)
            for s in group { sxx += (s.x - mx) * (s.x - mx); syy += (s.y - my) * (s.y - my); sxy += (s.x - mx) * (s.y - my) }
        }
        let rho = sxy / (sxx * syy).squareRoot()
        let expected = (1 - rho * rho).squareRoot()
        let ratio = cuped.width / plain.width
        #expect(abs(ratio / expected - 1) < 0.05, "ratio \(ratio), √(1−ρ²) = \(expected) at ρ = \(rho)")
        #expect(rho > 0.75 && rho < 0.85)
        // A lookback that ends before the pre-period rows (5 days) leaves nothing to adjust, and says so.
        let short = sandbox.ok(["results", "running_exp", "--json", "--cuped", "--lookback", "5"], env: ResultsCommandTests.later)
        #expect(try Self.interval(short).width == plain.width)
        #expect(short.stdout.contains("CUPED adjusts nothing for `spend`"))
    }

    @Test func theSummaryCovariateColumnsGiveTheSameAnswer() throws {
        let (sandbox, subjects) = try Self.sandbox(count: 600)
        var rows = ["metric,type,variant,subjects,sum,sum_squares,covariate_sum,covariate_sum_squares,cross_sum"]
        for variant in ["control", "green"] {
            let group = subjects.filter { $0.variant == variant }
            func total(_ value: (Subject) -> Double) -> Double { group.map(value).reduce(0, +) }
            rows.append("spend,mean,\(variant),\(group.count),\(total(\.y)),\(total { $0.y * $0.y }),\(total(\.x)),\(total { $0.x * $0.x }),\(total { $0.x * $0.y })")
        }
        let summary = try sandbox.write("summary.csv", rows.joined(separator: "\n") + "\n")
        let fromLogs = try Self.interval(sandbox.ok(["results", "running_exp", "--json", "--cuped"], env: ResultsCommandTests.later))
        let fromSummary = try Self.interval(sandbox.ok(["results", "running_exp", "--json", "--cuped", "--summary", summary], env: ResultsCommandTests.later))
        #expect(abs(fromLogs.lift - fromSummary.lift) < 1e-9 && abs(fromLogs.width - fromSummary.width) < 1e-9)
        // Without the columns, --cuped is refused naming the missing column; --lookback needs --cuped.
        let plain = try sandbox.write("plain.csv", "metric,type,variant,subjects,sum,sum_squares\nspend,mean,control,2,1,1\n")
        sandbox.refused(["results", "running_exp", "--cuped", "--summary", plain], code: 65, "covariate_sum")
        sandbox.refused(["results", "running_exp", "--lookback", "7"], code: 64, "--lookback applies with --cuped")
        sandbox.refused(["results", "running_exp", "--cuped", "--lookback", "0"], code: 64, "--lookback must be a number of days above 0")
    }
}
