import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// `refresh(fromServer:context:)` against a real HTTP server speaking the bulk endpoint of OFREP
/// (Tests/delivery/ofrep_stub.py): answers, defaults, overrides, ETag and `304`, the cache across
/// launches, and failures that keep the last good answers.
@Suite(.serialized) struct RemoteModeTests {
    /// A bulk answer: `split` served `b` (a name), `theme` served `red` (a payload), `rollout` the
    /// control for want of a subject, and one flag the server could not evaluate.
    static let bulk = #"""
        {"flags":[{"key":"split","value":"b","variant":"b","reason":"SPLIT"},
        {"key":"theme","value":{"color":"red"},"variant":"red","reason":"SPLIT"},
        {"key":"rollout","value":"off","variant":"off","reason":"DEFAULT"},
        {"key":"broken","errorCode":"GENERAL","errorDetails":"no"}]}
        """#

    /// The requests the stub logged, in order.
    static func requests(_ server: SnapshotServer) throws -> [StubRequest] {
        let text = (try? String(contentsOf: server.root.appendingPathComponent("requests.jsonl"), encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(StubRequest.self, from: Data($0.utf8)) }
    }

    struct StubRequest: Decodable {
        let path: String
        let authorization: String?
        let if_none_match: String?
        let body: String
    }

    @Test func answersFromTheServerWithDefaultsAndKeepsThemForTheNextLaunch() async throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(Self.bulk.utf8), at: "bulk.json")
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("snapshot.json")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let recorder = Recorder()
        let sink = MemorySink()
        let client = ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache, exposureSink: sink, delegate: recorder)
        let context = EvaluationContext(userId: "u1", deviceId: "d1")
        #expect(try await client.refresh(fromServer: base, context: context, token: "secret") == .replaced(changed: ["split", "theme", "rollout"]))
        #expect(client.value(for: Split.self) == .b)
        #expect(client.value(for: ThemeKey.self) == Theme(color: "red"))
        #expect(client.value(for: Rollout.self) == false)
        #expect(client.evaluation(for: Split.self).source == .server(reason: "SPLIT"))
        // A key the server does not serve (or could not evaluate) gets the app's default, reported once.
        #expect(client.value(for: Missing.self) == .x)
        #expect(client.evaluation(forKey: "broken").source == .fallback(.keyNotFound))
        #expect(recorder.reports.contains(.keyNotFound(key: "not_in_snapshot")))
        #expect(client.experimentKeys == ["rollout", "split", "theme"])
        let first = try #require(try Self.requests(server).first)
        #expect(first.path == "/ofrep/v1/evaluate/flags")
        #expect(first.authorization == "Bearer secret")
        #expect(try JSONDecoder().decode([String: EvaluationContext].self, from: Data(first.body.utf8)) == ["context": context])
        #expect(first.if_none_match == nil)
        // Exposures: a SPLIT answer is one (named by the user), the control served for want of a subject is not.
        #expect(client.markSeen(Split.self))
        #expect(!client.markSeen(Rollout.self))
        #expect(sink.exposures.map { "\($0.experiment) \($0.variant) \($0.subject)" } == ["split b u1"])
        // Asked again for the same context: If-None-Match, 304, nothing changes.
        #expect(try await client.refresh(fromServer: base, context: context, token: "secret") == .notModified)
        #expect(try Self.requests(server).last?.if_none_match?.hasPrefix("\"") == true)
        // The next launch answers from the cache and asks conditionally too.
        let relaunched = ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache)
        #expect(relaunched.value(for: ThemeKey.self) == Theme(color: "red"))
        #expect(try await relaunched.refresh(fromServer: base, context: context, token: "secret") == .notModified)
        // Another context is asked in full (the same answers: nothing changed).
        #expect(try await relaunched.refresh(fromServer: base, context: EvaluationContext(userId: "u2"), token: "secret") == .unchanged)
        #expect(try Self.requests(server).last?.if_none_match == nil)
        // Offline: a new instance still answers from the cache; the failed refresh keeps it.
        server.stop()
        let offline = ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache)
        #expect(offline.value(for: Split.self) == .b)
        await #expect(throws: RefreshError.self) { try await offline.refresh(fromServer: base, context: context, timeout: 2) }
        #expect(offline.value(for: Split.self) == .b)
    }

    /// An exposure names the id the answer's `metadata.subjectType` says the experiment buckets by,
    /// even when the context has both; an answer without it names the user, as before.
    @Test func exposuresNameTheIdTheAnswerSaysTheExperimentBucketsBy() async throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(#"""
            {"flags":[{"key":"split","metadata":{"subjectType":"user"},"value":"b","variant":"b","reason":"SPLIT"},
            {"key":"by_device","metadata":{"subjectType":"device","note":3},"value":"a","variant":"a","reason":"SPLIT"},
            {"key":"paused_one","value":"b","variant":"b","reason":"SPLIT"}]}
            """#.utf8), at: "bulk.json")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let sink = MemorySink()
        let client = ExperimentClient(subject: Subject(userID: "u1", deviceID: "d1"), exposureSink: sink)
        try await client.refresh(fromServer: base, context: EvaluationContext(userId: "u1", deviceId: "d1"))
        for key in ["split", "by_device", "paused_one"] { #expect(Keyed.seen(client, key), "\(key)") }
        #expect(sink.exposures.map { "\($0.experiment) \($0.variant) \($0.subject)" } == ["split b u1", "by_device a d1", "paused_one b u1"])
    }

    @Test func overridesBeatTheServerAndSaySo() async throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(Self.bulk.utf8), at: "bulk.json")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let recorder = Recorder()
        let sink = MemorySink()
        let client = ExperimentClient(subject: Subject(userID: "u1"), exposureSink: sink, delegate: recorder)
        #expect(client.setOverride("a", for: Split.self) == ["split"])
        try await client.refresh(fromServer: base, context: EvaluationContext(userId: "u1"))
        #expect(client.value(for: Split.self) == .a)
        #expect(client.evaluation(for: Split.self).source == .override)
        #expect(recorder.reports.contains(.overridden(key: "split", variant: "a")))
        // The server's own variant keeps its payload under an override naming it.
        client.setOverride("red", for: ThemeKey.self)
        #expect(client.value(for: ThemeKey.self) == Theme(color: "red"))
        #expect(!client.markSeen(Split.self), "an override is no exposure")
        #expect(client.removeAllOverrides() == ["split", "theme"])
        #expect(client.value(for: Split.self) == .b)
    }

    /// An error status, a body that is no bulk evaluation, or no server: the last good answers
    /// stay, each failure is thrown and reported once per kind.
    @Test func failuresKeepTheLastGoodAnswers() async throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(Self.bulk.utf8), at: "bulk.json")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u1"), delegate: recorder)
        let context = EvaluationContext(targetingKey: "u1")
        try await client.refresh(fromServer: base, context: context)
        try server.publish(Data("503".utf8), at: "status")
        for _ in 0..<2 {
            await #expect { try await client.refresh(fromServer: base, context: context) } throws: { ($0 as? RefreshError)?.kind == .httpStatus(503) }
        }
        try FileManager.default.removeItem(at: server.root.appendingPathComponent("status"))
        try server.publish(Data("<html>sign in</html>".utf8), at: "bulk.json")
        await #expect { try await client.refresh(fromServer: base, context: context) } throws: {
            ($0 as? RefreshError)?.description.contains("not an OFREP bulk evaluation") == true
        }
        let nowhere = try #require(URL(string: "http://127.0.0.1:1"))
        await #expect { try await client.refresh(fromServer: nowhere, context: context, timeout: 2) } throws: {
            ($0 as? RefreshError)?.kind == .unreachable
        }
        #expect(client.value(for: Split.self) == .b)
        #expect(client.value(for: ThemeKey.self) == Theme(color: "red"))
        let failures = recorder.reports.filter { if case .refreshFailed = $0 { true } else { false } }
        #expect(failures.count == 3, "\(failures)")
    }

    /// A snapshot after remote answers (and the other way round) replaces them, in memory and in the cache.
    @Test func aSnapshotAndServerAnswersReplaceEachOther() async throws {
        let server = try SnapshotServer(script: "ofrep_stub.py")
        defer { server.stop() }
        try server.publish(Data(Self.bulk.utf8), at: "bulk.json")
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("snapshot.json")
        let client = ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache)
        client.replaceSnapshot(with: RefreshTests.snapshot("a", revision: 1))
        try await client.refresh(fromServer: base, context: EvaluationContext(userId: "u1"))
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        #expect(ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache).value(for: Split.self) == .b)
        #expect(client.replaceSnapshot(with: RefreshTests.snapshot("a", revision: 2)) == .success(["split", "theme", "rollout"]))
        #expect(client.snapshotRevision == 2)
        #expect(ExperimentClient(subject: Subject(userID: "u1"), cacheURL: cache).value(for: ThemeKey.self) == Theme(color: "default"))
    }
}
