import Foundation
import Testing

/// `abconsole results` through the real process: the §8 JSON shape, plain text, defaults and exit codes.
@Suite struct ResultsCommandTests {
    /// The fixture store with `running_exp` (control/green, started at the fixed clock) and logs beside it in `events/`.
    static func sandbox(exposures: [String] = defaultExposures, conversions: [String] = defaultConversions) throws -> Sandbox {
        let sandbox = try Fixture.sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("events"), withIntermediateDirectories: true)
        _ = try sandbox.write("events/exposures.jsonl", exposures.joined(separator: "\n") + "\n")
        _ = try sandbox.write("events/conversions.jsonl", conversions.joined(separator: "\n") + "\n")
        return sandbox
    }

    static func exposure(_ subject: String, _ variant: String, _ time: String = "2026-03-01T10:30:00Z") -> String {
        "{\"timestamp\":\"\(time)\",\"experiment\":\"running_exp\",\"variant\":\"\(variant)\",\"subject\":\"\(subject)\"}"
    }

    static let defaultExposures = (0..<40).map { exposure("u\($0)", $0 % 2 == 0 ? "control" : "green") }
    static let defaultConversions = (0..<40).filter { $0 % 3 == 0 || $0 % 4 == 1 }.map {
        "{\"timestamp\":\"2026-03-01T11:00:00Z\",\"subject\":\"u\($0)\",\"metric\":\"buy\"}"
    }
    /// Later than the fixture's start, so the window holds the exposures.
    static let later = ["ABCONSOLE_NOW": "2026-03-02T00:00:00Z"]

    @Test func jsonHasTheSpecShape() throws {
        let sandbox = try Self.sandbox()
        let result = sandbox.ok(["results", "running_exp", "--json"], env: Self.later)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(Set(json.keys).isSuperset(of: ["experiment", "engine", "window", "subjects", "srm", "warnings", "metrics"]))
        #expect(json["engine"] as? String == "bayesian")
        #expect(json["window"] as? [String: String] == ["from": "2026-03-01T10:00:00Z", "to": "2026-03-02T00:00:00Z"])
        let subjects = try #require(json["subjects"] as? [String: Int])
        #expect(subjects == ["exposed": 40, "analysed": 40, "multiple_variants": 0, "whitelisted": 0, "unknown_variant_rows": 0])
        let srm = try #require(json["srm"] as? [String: Any])
        #expect(srm["status"] as? String == "ok")
        #expect(srm["expected"] as? [String: Double] == ["control": 0.5, "green": 0.5])
        #expect(srm["observed"] as? [String: Int] == ["control": 20, "green": 20])
        let metric = try #require((json["metrics"] as? [[String: Any]])?.first)
        #expect(metric["metric"] as? String == "buy" && metric["type"] as? String == "proportion")
        let variants = try #require(metric["variants"] as? [[String: Any]])
        #expect(variants.map { $0["name"] as? String } == ["control", "green"])
        #expect(variants[0]["control"] as? Bool == true && variants[0]["lift"] is NSNull && variants[0]["ci"] is NSNull)
        #expect(variants[1]["chance_to_win"] is Double && variants[1]["p_value"] is NSNull)
        #expect((variants[1]["ci"] as? [Double])?.count == 2)
        for key in ["name", "control", "subjects", "sum", "sum_squares", "mean", "lift", "ci", "chance_to_win", "p_value"] {
            #expect(variants.allSatisfy { $0.keys.contains(key) }, "\(key) missing")
        }
        let frequentist = try #require(try JSONSerialization.jsonObject(
            with: sandbox.ok(["results", "running_exp", "--json", "--engine", "frequentist"], env: Self.later).stdoutData) as? [String: Any])
        let treatment = try #require(((frequentist["metrics"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])?.last)
        #expect(treatment["chance_to_win"] is NSNull && treatment["p_value"] is Double)
    }

    @Test func plainTextReadsAtAGlance() throws {
        let sandbox = try Self.sandbox()
        let lines = sandbox.ok(["results", "running_exp"], env: Self.later).lines
        #expect(lines.first == "running_exp · Bayesian · 2026-03-01T10:00:00Z – 2026-03-02T00:00:00Z")
        #expect(lines.contains { $0.hasPrefix("sample ratio: ok (p = 1.0000)") })
        #expect(lines.contains("buy (proportion)"))
        #expect(lines.contains { $0.hasPrefix("VARIANT") && $0.contains("CHANCE TO WIN") })
    }

    @Test func environmentAndOptionsNameTheLogs() throws {
        let sandbox = try Self.sandbox()
        let moved = try sandbox.write("moved.jsonl", Self.defaultExposures.joined(separator: "\n"))
        try FileManager.default.removeItem(atPath: sandbox.path("events/exposures.jsonl"))
        sandbox.refused(["results", "running_exp"], code: 66, "events/exposures.jsonl: no such file", env: Self.later)
        sandbox.ok(["results", "running_exp"], env: Self.later.merging(["ABCONSOLE_EXPOSURES": moved]) { $1 })
        sandbox.ok(["results", "running_exp", "--exposures", moved], env: Self.later)
    }

    @Test func malformedRowsExit65NamingFileLineAndField() throws {
        let bad = Self.defaultExposures + ["{\"timestamp\":\"2026-03-01T25:00:00Z\",\"experiment\":\"running_exp\",\"variant\":\"control\",\"subject\":\"x\"}"]
        let sandbox = try Self.sandbox(exposures: bad)
        sandbox.refused(["results", "running_exp"], code: 65, "events/exposures.jsonl:41: field `timestamp`: hour 25 does not exist", env: Self.later)
        let good = try Self.sandbox()
        let csv = try good.write("c.csv", "timestamp,subject,metric,value\n2026-03-01T11:00:00Z,u1,buy,\n2026-03-01T11:00:00Z,u2,buy,x1\n")
        good.refused(["results", "running_exp", "--conversions", csv], code: 65, "c.csv:3: field `value`: expected a number, not `x1`", env: Self.later)
    }

    @Test func usageErrorsExit64() throws {
        let sandbox = try Self.sandbox()
        sandbox.refused(["results", "running_exp", "--engine", "magic"], code: 64, "--engine must be bayesian or frequentist", env: Self.later)
        sandbox.refused(["results", "running_exp", "--from", "yesterday"], code: 64, "--from `yesterday`", env: Self.later)
        sandbox.refused(["results", "running_exp", "--conversion-window", "-1"], code: 64, "--conversion-window must be a positive number", env: Self.later)
        sandbox.refused(["results", "running_exp", "--sequential", "--engine", "bayesian"], code: 64, "--sequential applies to the frequentist engine", env: Self.later)
        let text = try sandbox.write("e.txt", "")
        sandbox.refused(["results", "running_exp", "--exposures", text], code: 64, "name the file .jsonl or .ndjson (JSON Lines) or .csv", env: Self.later)
        sandbox.refused(["results", "nope"], code: 65, "nope", env: Self.later)
    }

    @Test func summaryInputGivesTheSameNumbers() throws {
        let sandbox = try Self.sandbox()
        let summary = try sandbox.write("s.csv", "metric,type,variant,subjects,sum,sum_squares\nbuy,proportion,control,20,7,7\nbuy,proportion,green,20,14,14.0\n")
        let fromLogs = try #require(try JSONSerialization.jsonObject(with: sandbox.ok(["results", "running_exp", "--json"], env: Self.later).stdoutData) as? [String: Any])
        let fromSummary = try #require(try JSONSerialization.jsonObject(
            with: sandbox.ok(["results", "running_exp", "--json", "--summary", summary], env: Self.later).stdoutData) as? [String: Any])
        #expect(NSDictionary(dictionary: ["m": fromLogs["metrics"] ?? 0]) == NSDictionary(dictionary: ["m": fromSummary["metrics"] ?? 0]))
        #expect((fromSummary["subjects"] as? [String: Any])?["exposed"] is NSNull)
        let wrong = try sandbox.write("w.csv", "metric,type,variant,subjects,sum,sum_squares\nbuy,proportion,blue,20,10,10\n")
        sandbox.refused(["results", "running_exp", "--summary", wrong], code: 65, "w.csv:2: field `variant`: `running_exp` has no variant `blue`", env: Self.later)
        sandbox.refused(["results", "running_exp", "--summary", summary, "--exposures", "x.jsonl"], code: 64, "--exposures does not apply with --summary", env: Self.later)
    }
}

/// `abconsole results` over a past phase whose ramp text was edited by hand: exit 65 naming the history entry.
@Suite struct ResultsHistoryTextTests {
    @Test func anUnreadableRampTextExits65NamingTheEntry() throws {
        let sandbox = try ResultsCommandTests.sandbox(exposures: (0..<40).map {
            ResultsCommandTests.exposure("u\($0)", $0 % 2 == 0 ? "control" : "green", "2026-03-01T11:40:00Z")
        })
        sandbox.ok(["ramp", "running_exp", "control=90", "green=10"], env: ["ABCONSOLE_NOW": "2026-03-01T11:00:00Z", "ABCONSOLE_OPERATOR": "maria.pm"])
        sandbox.ok(["ramp", "running_exp", "control=50", "green=50"], env: ["ABCONSOLE_NOW": "2026-03-01T12:00:00Z"])
        let past = ["results", "running_exp", "--from", "2026-03-01T11:30:00Z"]
        sandbox.ok(past, env: ResultsCommandTests.later)
        let text = try #require(sandbox.storeBytes().map { String(decoding: $0, as: UTF8.self) })
        #expect(text.contains("\"after\": \"control=90,green=10\""))
        _ = try sandbox.write("experiments.json", text.replacingOccurrences(of: "\"after\": \"control=90,green=10\"", with: "\"after\": \"control=ninety,green=10\""))
        sandbox.refused(past, code: 65, "the history entry `ramp` of `running_exp` by maria.pm at 2026-03-01 11:00:00 UTC: its after text "
                            + "does not read as weights (name=percent,…): \"control=ninety,green=10\"", env: ResultsCommandTests.later)
    }
}
