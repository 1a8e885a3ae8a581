import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// `refresh(from:)` against Python's own `http.server`, a plain static host: no `ETag`, only
/// `Last-Modified`, so only `If-Modified-Since` gets a `304`.
@Suite(.serialized) struct StaticHostingTests {
    @Test func aPlainStaticServerAnswers304ToIfModifiedSince() async throws {
        let server = try SnapshotServer.plainPython()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("snapshot.json")
        let url = server.url("client.json")
        let published = server.root.appendingPathComponent("client.json")
        let past = Date(timeIntervalSinceNow: -3600)
        try server.publish(RefreshTests.snapshot("b", revision: 1), at: "client.json")
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: published.path)
        let client = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache)
        #expect(try await client.refresh(from: url) == .replaced(changed: ["split"]))
        // Without If-Modified-Since the server sends the same bytes again (`unchanged`); with it, 304.
        #expect(try await client.refresh(from: url) == .notModified)
        // The next launch asks conditionally with the Last-Modified saved beside the cache.
        let relaunched = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache)
        #expect(try await relaunched.refresh(from: url) == .notModified)
        // A newer file is fetched in full.
        try server.publish(RefreshTests.snapshot("a", revision: 2), at: "client.json")
        try FileManager.default.setAttributes([.modificationDate: past.addingTimeInterval(60)], ofItemAtPath: published.path)
        #expect(try await relaunched.refresh(from: url) == .replaced(changed: ["split"]))
        #expect(relaunched.value(for: Split.self) == .a)
        #expect(try await relaunched.refresh(from: url) == .notModified)
    }
}
