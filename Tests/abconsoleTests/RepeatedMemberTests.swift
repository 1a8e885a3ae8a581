import Foundation
import Testing

/// A store whose JSON repeats a member name, at any level, is invalid: refused with the member's
/// path (65), never written, whether the command reads or changes the store; so is a field nested
/// too deep for the store's readers, named as the field it is (only a payload is called one).
@Suite struct RepeatedMemberTests {
    static let sample = String(decoding: FileManager.default.contents(atPath: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-data/experiments.json").path) ?? Data(), as: UTF8.self)

    struct Repeat: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let target: String
        let replacement: String
        let problem: String
    }

    static let repeats: [Repeat] = [
        Repeat(testDescription: "store", target: #""schema_version": 1"#, replacement: #""schema_version": 1, "schema_version": 1"#,
               problem: "  $.schema_version: repeated member \"schema_version\""),
        Repeat(testDescription: "experiment", target: #""status": "running""#, replacement: #""status": "paused", "status": "running""#,
               problem: "  $.experiments[0].status: repeated member \"status\": JSON readers disagree on which value counts"),
        Repeat(testDescription: "variant", target: #"{"name": "control", "payload": null"#,
               replacement: #"{"name": "control", "weight": 50, "payload": null"#, problem: "  $.experiments[0].variants[0].weight: repeated member \"weight\""),
        Repeat(testDescription: "whitelist entry", target: #""note": "QA baseline account""#,
               replacement: #""note": "x", "note": "QA baseline account""#, problem: "  $.experiments[0].whitelist[1].note: repeated member \"note\""),
        Repeat(testDescription: "history entry", target: #""operator": "maria.pm""#, replacement: #""operator": "x", "operator": "maria.pm""#,
               problem: "  $.history[0].operator: repeated member \"operator\""),
        Repeat(testDescription: "payload, one name escaped", target: ##"{"accent": "#0a84ff""##,
               replacement: ##"{"accent": "#000000", "\u0061ccent": "#0a84ff""##, problem: "  $.experiments[1].variants[0].payload.accent: repeated member \"accent\""),
        Repeat(testDescription: "unknown field", target: #""schema_version": 1"#, replacement: #""schema_version": 1, "x": {"y": [{"z": 1, "z": 2}]}"#,
               problem: "  $.x.y[0].z: repeated member \"z\""),
    ]

    @Test(arguments: repeats, [["validate"], ["list"], ["export", "--format", "client"], ["pause", "account_add_funds"]])
    func aRepeatedMemberIsAnInvalidStore(_ repeated: Repeat, _ arguments: [String]) throws {
        #expect(Self.sample.contains(repeated.target))
        let spoiled = Self.sample.replacingOccurrences(of: repeated.target, with: repeated.replacement)
        let sandbox = try Sandbox(storeBytes: Data(spoiled.utf8))
        let result = sandbox.refused(arguments, code: 65, "the store \(sandbox.store) is not valid (1 problem); ")
        #expect(result.stderr.contains("\n" + repeated.problem), "\(result.stderr)")
    }

    /// A field the store does not know, nested past what its readers take, is named with its own path.
    @Test func aTooDeepFieldIsNamedAsAFieldNotAPayload() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let cases = [
            (#""schema_version": 1"#, #""schema_version": 1, "extra": "# + deep, "  $.extra: nests 600 levels of arrays and objects, too deep for a field the store keeps"),
            (#""status": "running""#, #""status": "running", "extra": "# + deep, "  $.experiments[0].extra: nests 600 levels"),
            (#""operator": "maria.pm""#, #""operator": "maria.pm", "extra": "# + deep, "  $.history[0].extra: nests 600 levels"),
            (#""payload": null"#, #""payload": "# + deep, "  $.experiments[0].variants[0].payload: nests 600 levels of arrays and objects; a payload may nest at most 64"),
        ]
        for (target, replacement, problem) in cases {
            let sandbox = try Sandbox(storeBytes: Data(Self.sample.replacingOccurrences(of: target, with: replacement, options: [], range: Self.sample.range(of: target)).utf8))
            let result = sandbox.refused(["validate"], code: 65, "\n" + problem)
            #expect(problem.contains("payload") || !result.stderr.contains("payload"), "\(result.stderr)")
        }
    }
}
