import Foundation
import Testing

/// Hostile event logs, exports and command lines through the real `abconsole` process: a log a
/// logger is still writing, CSV headers that name a column twice or start with a BOM, numbers that
/// are not JSON numbers, `</script>` in a payload, a store the fast reader defers, empty file names.
@Suite struct HostileLogAndExportTests {
    static let later = ResultsCommandTests.later

    static func analysed(_ sandbox: Sandbox, _ arguments: [String]) throws -> (analysed: Int, warnings: [String]) {
        let result = sandbox.ok(["results", "running_exp", "--json"] + arguments, env: later)
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let subjects = try #require(json["subjects"] as? [String: Any])
        return (try #require(subjects["analysed"] as? Int), json["warnings"] as? [String] ?? [])
    }

    /// A logger appends the 41st row; a reader may see any prefix of it. A prefix that does not read
    /// as a row is ignored with a note; the whole row without its newline counts; nothing fails.
    @Test func aLastLineStillBeingWrittenIsIgnoredWithANote() throws {
        let sandbox = try ResultsCommandTests.sandbox()
        let rows = ResultsCommandTests.defaultExposures.joined(separator: "\n") + "\n"
        let last = ResultsCommandTests.exposure("late", "green")
        for cut in stride(from: 1, through: last.utf8.count, by: 6) + [last.utf8.count] {
            let path = try sandbox.write("partial.jsonl", rows + String(decoding: Array(last.utf8).prefix(cut), as: UTF8.self))
            let (analysed, warnings) = try Self.analysed(sandbox, ["--exposures", path])
            if cut == last.utf8.count {
                #expect(analysed == 41 && warnings.isEmpty, "the whole last row without a newline counts")
            } else {
                #expect(analysed == 40, "cut at \(cut)")
                #expect(warnings.contains { $0.hasPrefix("\(path):41: the last line is incomplete (being written?) and was ignored") }, "cut at \(cut): \(warnings)")
            }
        }
        // CSV the same; a bad line that is not the last is still an error naming file, line and field.
        let csvRows = "timestamp,experiment,variant,subject\n" + (0..<40).map { "2026-03-01T10:30:00Z,running_exp,\($0 % 2 == 0 ? "control" : "green"),u\($0)" }.joined(separator: "\n") + "\n"
        let csv = try sandbox.write("partial.csv", csvRows + "2026-03-01T10:3")
        let (analysed, warnings) = try Self.analysed(sandbox, ["--exposures", csv])
        #expect(analysed == 40)
        #expect(warnings.contains { $0.hasPrefix("\(csv):42: the last line is incomplete (being written?) and was ignored: ") })
        let middle = try sandbox.write("middle.jsonl", "{\"timestamp\":\"2026-03-01T10:30:00Z\"\n" + rows)
        sandbox.refused(["results", "running_exp", "--exposures", middle], code: 65, "middle.jsonl:1: expected `,` or `}` after a member", env: Self.later)
    }

    @Test func csvHeaderRules() throws {
        let sandbox = try ResultsCommandTests.sandbox()
        let twice = try sandbox.write("twice.csv", "timestamp,experiment,subject,variant,subject\n2026-03-01T10:30:00Z,running_exp,u1,control,u2\n")
        sandbox.refused(["results", "running_exp", "--exposures", twice], code: 65,
                        "twice.csv:1: the header names the column `subject` twice (columns 3 and 5)", env: Self.later)
        let empty = try sandbox.write("empty.csv", "")
        sandbox.refused(["results", "running_exp", "--exposures", empty], code: 65, "empty.csv:1: the file is empty: no header", env: Self.later)
        let blank = try sandbox.write("blank.csv", "\n  \n")
        sandbox.refused(["results", "running_exp", "--conversions", blank], code: 65, "blank.csv:1: only blank lines: no header", env: Self.later)
        // A BOM before a quoted header, and spaces around values as around names: read, and matched.
        let bom = try sandbox.write("bom.csv", "\u{FEFF}\"timestamp\", \"experiment\" ,variant,subject\n"
            + "2026-03-01T10:30:00Z , running_exp ,\tcontrol\t, \"u1\" \n2026-03-01T10:30:00Z,running_exp,green,\" u 2 \"\n")
        #expect(try Self.analysed(sandbox, ["--exposures", bom]).analysed == 2)
        let summary = try sandbox.write("summary.csv", "metric,type,variant,subjects,sum,sum_squares,sum\n")
        sandbox.refused(["results", "running_exp", "--summary", summary], code: 65, "the header names the column `sum` twice", env: Self.later)
    }

    @Test func jsonLinesNumbersMustBeJSONNumbers() throws {
        let sandbox = try ResultsCommandTests.sandbox()
        for (text, field) in [("\"junk\":1e+-.", "junk"), ("\"junk\":01", "junk"), ("\"junk\":-", "junk"), ("\"junk\":1.", "junk")] {
            let path = try sandbox.write("n.jsonl", "{\"timestamp\":\"2026-03-01T10:30:00Z\",\"experiment\":\"running_exp\",\"variant\":\"control\",\"subject\":\"u1\",\(text)}\n")
            sandbox.refused(["results", "running_exp", "--exposures", path], code: 65, "n.jsonl:1: field `\(field)`: ", env: Self.later)
        }
        let subject = try sandbox.write("s.jsonl", "{\"timestamp\":\"2026-03-01T10:30:00Z\",\"experiment\":\"running_exp\",\"variant\":\"control\",\"subject\":--1-}\n")
        sandbox.refused(["results", "running_exp", "--exposures", subject], code: 65, "s.jsonl:1: field `subject`: `--1-` is not a valid JSON number", env: Self.later)
        let fine = try sandbox.write("f.jsonl", "{\"timestamp\":\"2026-03-01T10:30:00Z\",\"experiment\":\"running_exp\",\"variant\":\"control\",\"subject\":-12,\"x\":[1e+-.],\"y\":-0.5E+3}\n")
        #expect(try Self.analysed(sandbox, ["--exposures", fine]).analysed == 1)
    }

    @Test func smallerRefusals() throws {
        let sandbox = try ResultsCommandTests.sandbox()
        sandbox.refused(["results", "running_exp", "--summary", "x.jsonl"], code: 64, "x.jsonl: a summary is a CSV file (metric,type,variant,subjects,sum,sum_squares); name it .csv", env: Self.later)
        sandbox.refused(["results", "running_exp", "--conversion-window", "0x10"], code: 64, "--conversion-window must be a positive number of hours up to 2,562,047, not `0x10`", env: Self.later)
        sandbox.refused(["results", "running_exp", "--conversion-window", "1e1"], code: 64, "--conversion-window must be a positive number of hours", env: Self.later)
        sandbox.ok(["results", "running_exp", "--conversion-window", "0.5"], env: Self.later)
        sandbox.refused(["list"], code: 64, "ABCONSOLE_LOCK_TIMEOUT must be a number of seconds, not `0x10`", env: ["ABCONSOLE_LOCK_TIMEOUT": "0x10"])
        sandbox.refused(["export", "--format", "client", "--out", ""], code: 64, "--out needs a file name")
        sandbox.refused(["export", "--format", "client", "--out="], code: 64, "--out needs a file name")
        sandbox.refused(["results", "running_exp", "--exposures", ""], code: 64, "--exposures needs a file name", env: Self.later)
        sandbox.refused(["whitelist", "import", "running_exp", ""], code: 64, "FILE needs a file name")
        sandbox.refused(["list", "--store", ""], code: 64, "--store needs a file name")
    }

    /// A payload holding `</script>` is exported as `<\/script>` in both formats and reads back the same.
    @Test func exportsCanBeInlinedInHTML() throws {
        let sandbox = try Sandbox()
        sandbox.ok(["create", "page", "--type", "user", "--variants", "control=50,green=50"])
        sandbox.ok(["set-payload", "page", "control", #""</b>""#])
        sandbox.ok(["set-payload", "page", "green", #"{"html":"</script><script>alert(1)</script>","n":1.0}"#])
        sandbox.ok(["start", "page"])
        for format in ["client", "growthbook"] {
            let arguments = ["export", "--format", format] + (format == "growthbook" ? ["--values", "payloads"] : [])
            let data = sandbox.ok(arguments).stdoutData
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("</"), "\(format): \(text)")
            #expect(text.contains(#"<\/script><script>alert(1)<\/script>"#), "\(format)")
            #expect(Self.strings(in: try JSONSerialization.jsonObject(with: data)).contains("</script><script>alert(1)</script>"), "\(format) reads back")
        }
    }

    /// Every string anywhere in a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap { strings(in: $0) }
        case let object as [String: Any]: object.values.flatMap { strings(in: $0) }
        default: []
        }
    }

    /// A store the fast reader defers (saved with a BOM) keeps a payload's `1.0` through an unrelated change.
    @Test func payloadTextSurvivesTheFallbackReader() throws {
        let sandbox = try Fixture.sandbox()
        sandbox.ok(["set-payload", "running_exp", "green", #"{"size":1.0,"big":1.50e3,"list":[0.10,2]}"#])
        let bytes = try #require(sandbox.storeBytes())
        try (Data([0xEF, 0xBB, 0xBF]) + bytes).write(to: URL(fileURLWithPath: sandbox.store))
        sandbox.ok(["set-description", "draft_exp", "unrelated"])
        let after = String(decoding: try #require(sandbox.storeBytes()), as: UTF8.self)
        #expect(after.contains(#"{"big": 1.50e3, "list": [0.10, 2], "size": 1.0}"#), "\(after)")
        // And every output that writes payloads through `JSONEncoder`: show --json and both exports.
        #expect(sandbox.ok(["show", "running_exp", "--json"]).stdout.contains(#""big": 1.50e3"#))
        #expect(sandbox.ok(["export", "--format", "client"]).stdout.contains(#"{"big":1.50e3,"list":[0.10,2],"size":1.0}"#))
    }
}
