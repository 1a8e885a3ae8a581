import ExperimentTestSupport
import Foundation
import HTTPServer
import Testing
@testable import ExperimentServer

/// Tokens and the access log: every endpoint but `/healthz` needs a token; the log names it, never shows it.
@Suite struct AccessTests {
    static let tokensText = """
    # clients
    ios     ios-0123456789abcdef
    android\tandroid-0123456789abcdef

    """

    @Test func tokensAreRequiredByBearerOrAPIKey() throws {
        let tokens = try AccessTokens.parse(Data(AccessTests.tokensText.utf8), source: "tokens").get()
        let directory = try TempDirectory()
        defer { directory.remove() }
        let log = try AccessLog.open(directory.path("access.log")).get()
        let fixture = try ServerFixture(tokens: tokens, accessLog: log)
        let body = #"{"context":{"userId":"u"}}"#
        let none = fixture.send("POST", "/ofrep/v1/evaluate/flags", body: body)
        #expect(none.status == 401)
        #expect(none.object["errorDetails"] is String)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags", body: body, headers: [HTTPHeader("Authorization", "Bearer ios-0123456789abcdeX")]).status == 401)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags", body: body, headers: [HTTPHeader("Authorization", "Bearer ios-0123456789abcde")]).status == 401)
        #expect(fixture.send("GET", "/nowhere", headers: [HTTPHeader("X-API-Key", "wrong")]).status == 401)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags", body: body, headers: [HTTPHeader("Authorization", "Bearer ios-0123456789abcdef")]).status == 200)
        #expect(fixture.send("POST", "/ofrep/v1/evaluate/flags", body: body, headers: [HTTPHeader("x-api-key", "android-0123456789abcdef")]).status == 200)
        #expect(fixture.send("GET", "/ofrep/v1/configuration", headers: [HTTPHeader("authorization", "bearer android-0123456789abcdef")]).status == 200)
        #expect(fixture.send("GET", "/healthz").status == 200)

        let lines = try String(contentsOfFile: directory.path("access.log"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 8)
        #expect(!lines.contains { $0.contains("0123456789abcdef") })
        let fields = lines[4].split(separator: " ")
        #expect(fields.count == 7)
        #expect(Array(fields[1...5]) == ["127.0.0.1", "ios", "POST", "/ofrep/v1/evaluate/flags", "200"])
        #expect(fields[6].hasSuffix("ms"))
        #expect(lines[0].split(separator: " ")[2] == "-")
        #expect(lines[5].split(separator: " ")[2] == "android")
        #expect(lines[7].split(separator: " ")[1...5] == ["127.0.0.1", "-", "GET", "/healthz", "200"])
    }

    @Test func replacedTokensTakeEffect() throws {
        let fixture = try ServerFixture(tokens: try AccessTokens.parse(Data("a aaaaaaaaaaaaaaaaaaaa\n".utf8), source: "t").get())
        let header = [HTTPHeader("X-API-Key", "bbbbbbbbbbbbbbbbbbbb")]
        #expect(fixture.send("GET", "/ofrep/v1/configuration", headers: header).status == 401)
        fixture.handler.replaceTokens(try AccessTokens.parse(Data("b bbbbbbbbbbbbbbbbbbbb\n".utf8), source: "t").get())
        #expect(fixture.send("GET", "/ofrep/v1/configuration", headers: header).status == 200)
    }

    @Test func malformedTokenFilesAreRefusedWithTheLine() {
        let cases: [(String, String)] = [
            ("ios\n", "line 1: expected `NAME TOKEN`"),
            ("ios a b c\n", "line 1: expected `NAME TOKEN`"),
            ("# only a comment\n\n", "names no token"),
            ("ios short\n", "line 1: the token of ios is 5 characters"),
            ("ios aaaaaaaaaaaaaaaaaaaa\nios bbbbbbbbbbbbbbbbbbbb\n", "line 2: the name ios is given twice"),
            ("ios aaaaaaaaaaaaaaaaaaaa\nweb aaaaaaaaaaaaaaaaaaaa\n", "line 2: the token of web is also another name's"),
        ]
        for (text, message) in cases {
            guard case .failure(let problem) = AccessTokens.parse(Data(text.utf8), source: "tokens.txt") else {
                Issue.record("accepted \(text)")
                continue
            }
            #expect(problem.message.contains(message), "\(problem.message)")
            #expect(!problem.isMissing)
        }
        #expect(AccessTokens.parse(Data([0xFF, 0x20]), source: "t").failure?.message.contains("not UTF-8") == true)
        #expect(AccessTokens.read("/nonexistent/tokens").failure?.isMissing == true)
    }

    @Test func constantTimeComparisonIsEquality() {
        #expect(AccessTokens.equalInConstantTime(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AccessTokens.equalInConstantTime(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AccessTokens.equalInConstantTime(Array("abc".utf8), Array("ab".utf8)))
        #expect(!AccessTokens.equalInConstantTime(Array("ab".utf8), Array("abc".utf8)))
        #expect(!AccessTokens.equalInConstantTime(Array("abc".utf8), Array("abc\0".utf8)))
        #expect(!AccessTokens.equalInConstantTime([], Array("a".utf8)))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
