import ExperimentCore
import ExperimentEditing
import ExperimentStore
import ExperimentTestSupport
import Foundation
import HTTPServer
import Testing
@testable import ExperimentServer

/// OFREP evaluation over a real store: what every endpoint answers, with which status and shape.
@Suite struct OFREPEvaluationTests {
    @Test func bulkAnswersEveryServedExperimentAsAssignDoes() throws {
        let fixture = try ServerFixture()
        let index = AssignmentIndex(try fixture.file.load())
        var random = SplitMix64(seed: 30)
        for round in 0..<300 {
            let user = round % 7 == 0 ? nil : "user-\(random.next() % 100_000)"
            let device = round % 5 == 0 ? nil : "device-\(random.next() % 100_000)"
            var context: [String] = []
            if let user { context.append(#""\#(round % 2 == 0 ? "userId" : "targetingKey")":\#(quoted(user))"#) }
            if let device { context.append(#""deviceId":\#(quoted(device))"#) }
            let response = fixture.bulk("{" + context.joined(separator: ",") + "}")
            #expect(response.status == 200)
            let flags = try #require(response.object["flags"] as? [[String: Any]])
            #expect(flags.map { $0["key"] as? String } == ["checkout", "dark_mode", "killswitch", "old_banner"])
            let subject = Subject(userID: user, deviceID: device)
            let expected = index.assign(["checkout", "dark_mode", "killswitch", "old_banner"], to: subject).variants
            for flag in flags {
                let key = try #require(flag["key"] as? String)
                #expect(flag["variant"] as? String == expected[key], "\(key) for \(subject)")
                #expect(Set(flag.keys) == ["key", "metadata", "reason", "value", "variant"])
                let type = key == "dark_mode" ? "device" : "user"
                #expect(flag["metadata"] as? [String: String] == ["subjectType": type], "\(key) names only the id it buckets by")
                let missing = index.decide(key, for: subject)?.reason == .noSubject
                #expect(flag["reason"] as? String == (missing ? "DEFAULT" : "SPLIT"))
            }
        }
    }

    @Test func valueIsThePayloadWhenEveryVariantHasOneElseTheName() throws {
        let fixture = try ServerFixture()
        let checkout = fixture.send("POST", "/ofrep/v1/evaluate/flags/checkout", body: #"{"context":{"userId":"partner-7"}}"#)
        #expect(checkout.status == 200)
        #expect(checkout.text == #"{"key":"checkout","metadata":{"subjectType":"user"},"reason":"SPLIT","value":{"color":"green"},"variant":"treatment"}"#)
        // dark_mode has a payload on `on` only: the value is the name.
        let dark = fixture.send("POST", "/ofrep/v1/evaluate/flags/dark_mode", body: #"{"context":{"deviceId":"d-1"}}"#)
        let variant = try #require(dark.object["variant"] as? String)
        #expect(dark.object["value"] as? String == variant)
    }

    @Test func resolvedAndPausedSaySplitWithoutASubject() throws {
        let fixture = try ServerFixture()
        let resolved = fixture.send("POST", "/ofrep/v1/evaluate/flags/old_banner", body: "{}")
        #expect(resolved.text == #"{"key":"old_banner","metadata":{"subjectType":"user"},"reason":"SPLIT","value":"treatment","variant":"treatment"}"#)
        let paused = fixture.send("POST", "/ofrep/v1/evaluate/flags/killswitch", body: #"{"context":null}"#)
        #expect(paused.text == #"{"key":"killswitch","metadata":{"subjectType":"user"},"reason":"SPLIT","value":"control","variant":"control"}"#)
        let missing = fixture.send("POST", "/ofrep/v1/evaluate/flags/checkout", body: #"{"context":{"deviceId":"d"}}"#)
        #expect(missing.text == #"{"key":"checkout","metadata":{"subjectType":"user"},"reason":"DEFAULT","value":{"color":"grey"},"variant":"control"}"#)
    }

    @Test func draftsAndUnknownKeysAreNotFound() throws {
        let fixture = try ServerFixture()
        for key in ["new_thing", "no_such_flag", "checkout%2Fx"] {
            let response = fixture.send("POST", "/ofrep/v1/evaluate/flags/\(key)", body: #"{"context":{"userId":"u"}}"#)
            #expect(response.status == 404)
            #expect(response.object["errorCode"] as? String == "FLAG_NOT_FOUND")
            #expect(response.object["key"] as? String == key.removingPercentEncoding)
            #expect(response.object["errorDetails"] is String)
        }
        let bulk = fixture.bulk(#"{"userId":"u"}"#)
        #expect(!bulk.text.contains("new_thing"))
    }

    @Test func bodiesThatNameNoSubjectAreRefused() throws {
        let fixture = try ServerFixture()
        let cases: [(Data, String)] = [
            (Data("not json".utf8), "PARSE_ERROR"),
            (Data(), "PARSE_ERROR"),
            (Data([0x7B, 0x22, 0x63, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), "PARSE_ERROR"),  // {"c\xFF":1}
            (Data(#"{"context":{"userId":"caf"#.utf8) + Data([0xC3]) + Data(#""}}"#.utf8), "PARSE_ERROR"),  // a cut-off é
            (Data("[1,2]".utf8), "PARSE_ERROR"),
            (Data(#"{"context":[1]}"#.utf8), "INVALID_CONTEXT"),
            (Data(#"{"context":"user-1"}"#.utf8), "INVALID_CONTEXT"),
            (Data(#"{"context":{"userId":42}}"#.utf8), "INVALID_CONTEXT"),
            (Data(#"{"context":{"targetingKey":{"id":"u"}}}"#.utf8), "INVALID_CONTEXT"),
            (Data(#"{"context":{"deviceId":"a\u0007b"}}"#.utf8), "INVALID_CONTEXT"),
            (Data(#"{"context":{"userId":" padded"}}"#.utf8), "INVALID_CONTEXT"),
        ]
        for (body, code) in cases {
            for path in ["/ofrep/v1/evaluate/flags", "/ofrep/v1/evaluate/flags/checkout"] {
                let response = fixture.handler.respond(to: HTTPRequest(method: "POST", target: path, body: body))
                #expect(response.status == 400, "\(String(decoding: body, as: UTF8.self)) at \(path)")
                #expect(response.object["errorCode"] as? String == code, "\(String(decoding: body, as: UTF8.self))")
                #expect(response.object["errorDetails"] is String)
            }
        }
        // Other attributes, of any shape, are ignored; an empty id is no id.
        let lenient = fixture.send("POST", "/ofrep/v1/evaluate/flags/checkout",
                                   body: #"{"context":{"userId":"","plan":{"tier":[1,2]},"age":30},"extra":true}"#)
        #expect(lenient.object["reason"] as? String == "DEFAULT")
    }

    @Test func noAnswerShowsWeightsSaltsStatusesOrAnotherSubjectsID() throws {
        let fixture = try ServerFixture()
        let forbidden = ["weight", "salt", "ranges", "running", "paused", "resolved", "draft", "whitelist", "partner-7", "bucket", "winner", "status"]
        var random = SplitMix64(seed: 7)
        var answers: [HTTPResponse] = [fixture.send("GET", "/ofrep/v1/configuration"), fixture.send("GET", "/healthz"),
                                       fixture.send("POST", "/ofrep/v1/evaluate/flags/new_thing", body: #"{"context":{"userId":"u"}}"#)]
        for _ in 0..<200 {
            let context = #"{"userId":"u\#(random.next() % 1000)","deviceId":"d\#(random.next() % 1000)"}"#
            answers.append(fixture.bulk(context))
            for key in ["checkout", "dark_mode", "old_banner", "killswitch"] {
                answers.append(fixture.send("POST", "/ofrep/v1/evaluate/flags/\(key)", body: #"{"context":\#(context)}"#))
            }
        }
        for answer in answers {
            let text = answer.text.lowercased() + answer.headers.map { "\($0.name): \($0.value)" }.joined().lowercased()
            for word in forbidden { #expect(!text.contains(word), "\(word) in \(answer.text)") }
        }
        // The whitelisted subject itself gets its variant, and still no word of why.
        let partner = fixture.bulk(#"{"userId":"partner-7"}"#)
        #expect(partner.text.contains(#""variant":"treatment""#))
    }

    @Test func bulkETagChangesExactlyWhenThisContextsAnswersChange() throws {
        let fixture = try ServerFixture()
        let context = #"{"userId":"user-42","deviceId":"device-42"}"#
        let first = fixture.bulk(context)
        let tag = try #require(first.header("ETag"))
        #expect(fixture.bulk(context).header("ETag") == tag)
        let notModified = fixture.bulk(context, headers: [HTTPHeader("If-None-Match", tag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == tag)
        #expect(fixture.bulk(context, headers: [HTTPHeader("If-None-Match", #""other", W/\#(tag)"#)]).status == 304)
        #expect(fixture.bulk(context, headers: [HTTPHeader("If-None-Match", #""other""#)]).status == 200)

        // A change that leaves this context's answers alone keeps the tag (a new revision is no new answer).
        _ = try fixture.file.apply(.setDescription(experiment: "checkout", description: "green or grey"), context: Fixture.bob)
        _ = try fixture.file.apply(.whitelistAdd(experiment: "checkout", subject: "someone-else", variant: "control", note: ""), context: Fixture.bob)
        fixture.live.refresh()
        #expect(fixture.live.served?.revision != nil)
        let unchanged = fixture.bulk(context, headers: [HTTPHeader("If-None-Match", tag)])
        #expect(unchanged.status == 304)

        // Whitelisting this user into the other variant changes its answers, and the tag.
        let checkout = try #require((first.object["flags"] as? [[String: Any]])?.first { $0["key"] as? String == "checkout" })
        let other = checkout["variant"] as? String == "control" ? "treatment" : "control"
        _ = try fixture.file.apply(.whitelistAdd(experiment: "checkout", subject: "user-42", variant: other, note: ""), context: Fixture.bob)
        fixture.live.refresh()
        let changed = fixture.bulk(context, headers: [HTTPHeader("If-None-Match", tag)])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") != tag)
    }

    @Test func endpointsMethodsAndHealth() throws {
        let fixture = try ServerFixture()
        let health = fixture.send("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.object["revision"] as? Int == (try fixture.file.load()).revision)
        let configuration = fixture.send("GET", "/ofrep/v1/configuration")
        #expect(configuration.status == 200)
        #expect(configuration.object["name"] as? String == "abconsole")
        let capabilities = configuration.object["capabilities"] as? [String: Any]
        #expect((capabilities?["flagEvaluation"] as? [String: Any])?["supportedTypes"] as? [String] == ["boolean", "float", "int", "object", "string"])
        for (method, path, status) in [("GET", "/ofrep/v1/evaluate/flags", 405), ("GET", "/ofrep/v1/evaluate/flags/checkout", 405),
                                       ("POST", "/ofrep/v1/configuration", 405), ("POST", "/healthz", 405), ("DELETE", "/healthz", 405),
                                       ("GET", "/", 404), ("POST", "/ofrep/v2/evaluate/flags", 404), ("GET", "/v1/exposures", 405),
                                       ("POST", "/v1/exposures", 404), ("POST", "/v1/conversions", 404)] {
            let response = fixture.send(method, path, body: "{}")
            #expect(response.status == status, "\(method) \(path)")
            #expect(response.object["errorDetails"] is String, "\(method) \(path)")
            #expect(response.header("Content-Type") == "application/json")
        }
        #expect(fixture.send("GET", "/ofrep/v1/evaluate/flags").header("Allow") == "POST")
    }
}
