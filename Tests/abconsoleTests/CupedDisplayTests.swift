import Foundation
import Testing

/// What `results --cuped` shows (SPEC §12): it says CUPED with θ and the lookback, the adjusted means
/// with the unadjusted beside them, so the lift on screen is reproduced by the means shown; impossible
/// covariate sums in a summary are refused; the sample data narrows under CUPED.
@Suite struct CupedDisplayTests {
    static func variants(_ result: RunResult) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        return try #require((json["metrics"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])
    }

    @Test func theMeansShownReproduceTheLift() throws {
        let (sandbox, _) = try CupedProcessTests.sandbox(count: 600)
        let env = ResultsCommandTests.later
        let variants = try Self.variants(sandbox.ok(["results", "running_exp", "--json", "--cuped"], env: env))
        let control = variants[0], green = variants[1]
        let adjustedC = try #require(control["mean"] as? Double), unadjustedC = try #require(control["mean_unadjusted"] as? Double)
        let adjustedT = try #require(green["mean"] as? Double), lift = try #require(green["lift"] as? Double)
        #expect(adjustedC != unadjustedC)
        #expect(green["control_mean"] as? Double == adjustedC && (green["theta"] as? Double ?? 0) > 0.5)
        #expect(abs((adjustedT - adjustedC) / abs(unadjustedC) - lift) < 1e-12, "\(variants)")
        // Without --cuped, "mean" is the plain mean and no CUPED field is written.
        let plain = try Self.variants(sandbox.ok(["results", "running_exp", "--json"], env: env))
        #expect(plain[0]["mean"] as? Double == unadjustedC && plain[0]["mean_unadjusted"] == nil)

        let text = sandbox.ok(["results", "running_exp", "--cuped", "--lookback", "7"], env: env).lines
        let title = try #require(text.first { $0.hasPrefix("spend (mean) · CUPED θ = ") })
        #expect(title.hasSuffix(", lookback 7 days"), "\(title)")
        let header = try #require(text.first { $0.hasPrefix("VARIANT") })
        #expect(header.contains("MEAN (CUPED)  UNADJUSTED  LIFT"), "\(header)")
        // The row's cells: the adjusted mean then the unadjusted one, as the JSON gives them (3 decimals at this size).
        let row = try #require(text.first { $0.hasPrefix("green") }).split(separator: " ", omittingEmptySubsequences: true)
        let json7 = try Self.variants(sandbox.ok(["results", "running_exp", "--json", "--cuped", "--lookback", "7"], env: env))
        #expect(Double(row[3]).map { abs($0 - (json7[1]["mean"] as? Double ?? 0)) < 0.001 } == true, "\(row)")
        #expect(Double(row[4]).map { abs($0 - (json7[1]["mean_unadjusted"] as? Double ?? 0)) < 0.001 } == true, "\(row)")
    }

    @Test func impossibleCovariateSumsAreRefused() throws {
        let (sandbox, _) = try CupedProcessTests.sandbox(count: 20)
        let header = "metric,type,variant,subjects,sum,sum_squares,covariate_sum,covariate_sum_squares,cross_sum\n"
        let control = "spend,mean,control,10,100,1100,50,300,520\n"
        let cases: [(row: String, field: String)] = [
            ("spend,mean,green,10,100,1100,50,-1,500\n", "covariate_sum_squares"),        // Σx² < 0
            ("spend,mean,green,10,100,1100,50,200,500\n", "covariate_sum_squares"),       // Σx² < (Σx)²/n: a negative variance
            ("spend,mean,green,10,100,1100,50,300,1000\n", "cross_sum"),                  // |Sxy| = 500 > √(Sxx·Syy) = √(50·100)
            ("buy,proportion,green,10,3,3,2.5,2.5,1\n", "covariate_sum"),                 // a 0/1 covariate's sum is whole
        ]
        for (row, field) in cases {
            let path = try sandbox.write("summary.csv", header + control + row)
            sandbox.refused(["results", "running_exp", "--cuped", "--summary", path], code: 65, "summary.csv:3: field `\(field)`")
            sandbox.refused(["results", "running_exp", "--cuped", "--summary", path], code: 65, "impossible covariate sums")
        }
        // At the Cauchy–Schwarz bound exactly (x = y for every subject) the sums are possible.
        let path = try sandbox.write("summary.csv", header + control + "spend,mean,green,10,100,1100,100,1100,1100\n")
        sandbox.ok(["results", "running_exp", "--cuped", "--summary", path], env: ResultsCommandTests.later)
    }

    @Test func theSampleNarrowsUnderCuped() throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("experiments.json")
        try FileManager.default.copyItem(atPath: DemoTests.sample, toPath: store)
        let events = URL(fileURLWithPath: DemoTests.sample).deletingLastPathComponent().appendingPathComponent("events").path
        try FileManager.default.copyItem(atPath: events, toPath: sandbox.path("events"))
        func widths(_ extra: [String]) throws -> [String: Double] {
            let json = try #require(try JSONSerialization.jsonObject(with: sandbox.ok(["results", "account_add_funds", "--json"] + extra,
                                                                                       env: ["ABCONSOLE_NOW": "2026-11-04T12:00:00Z"]).stdoutData) as? [String: Any])
            var widths: [String: Double] = [:]
            for metric in json["metrics"] as? [[String: Any]] ?? [] {
                let ci = ((metric["variants"] as? [[String: Any]])?.last?["ci"] as? [Double]) ?? [0, 0]
                widths[metric["metric"] as? String ?? ""] = ci[1] - ci[0]
            }
            return widths
        }
        let plain = try widths([]), cuped = try widths(["--cuped"])
        for metric in ["add_funds", "deposit"] {
            let before = try #require(plain[metric]), after = try #require(cuped[metric])
            #expect(after < 0.9 * before, "\(metric): \(before) → \(after)")
        }
    }
}
