import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// `refresh(from:)` against a real HTTP server (Tests/delivery/snapshot_server.py on 127.0.0.1):
/// ETags and `304`, the disk cache, every bad answer, background refreshing and `changes`.
@Suite(.serialized) struct RefreshTests {
    /// A snapshot in which `split` is resolved to `variant` for everyone.
    static func snapshot(_ variant: String, revision: Int) -> Data {
        Fixture.clientData([Fixture.experiment("split", status: .resolved, winner: variant, variants: Fixture.half)], revision: revision)
    }

    @Test func fetchesThenAsksConditionallyAndKeepsTheETagForTheNextLaunch() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("snapshot.json")
        let url = server.url("client.json")
        try server.publish(Self.snapshot("b", revision: 1), at: "client.json")
        let client = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache)
        #expect(try await client.refresh(from: url) == .replaced(changed: ["split"]))
        #expect(client.value(for: Split.self) == .b)
        #expect(try Data(contentsOf: cache) == Self.snapshot("b", revision: 1))
        // Nothing new: the server answers 304 and nothing is decoded or written.
        #expect(try await client.refresh(from: url) == .notModified)
        try server.publish(Self.snapshot("a", revision: 2), at: "client.json")
        #expect(try await client.refresh(from: url) == .replaced(changed: ["split"]))
        #expect(client.value(for: Split.self) == .a)
        #expect(client.snapshotRevision == 2)
        // The next launch starts from the cache and asks with the ETag saved beside it.
        let relaunched = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache)
        #expect(relaunched.value(for: Split.self) == .a)
        #expect(try await relaunched.refresh(from: url) == .notModified)
        // A snapshot given directly drops the ETag: the URL's copy is fetched in full again.
        relaunched.replaceSnapshot(with: Self.snapshot("b", revision: 3))
        #expect(try await relaunched.refresh(from: url) == .replaced(changed: ["split"]))
    }

    /// Each bad answer keeps the last good snapshot, is thrown, and reaches the delegate once per kind.
    @Test func badAnswersKeepTheLastGoodSnapshotAndAreReportedOncePerKind() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        try server.publish(Self.snapshot("b", revision: 1), at: "client.json")
        try server.publish(Data(#"{"features":{"split":{"defaultValue":"a","rules":[]}},"dateUpdated":"2026-01-01T00:00:00Z"}"#.utf8), at: "growthbook.json")
        try server.publish(Data(#"{"format":"something-else","schema_version":1}"#.utf8), at: "other.json")
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        try await client.refresh(from: server.url("client.json"))
        let cases: [(URL, (RefreshError.Kind) -> Bool, String)] = [
            (server.url("client.json", failing: "_timeout"), { $0 == .timedOut }, "no answer in time"),
            (server.url("client.json", failing: "_500"), { $0 == .httpStatus(500) }, "HTTP 500"),
            (server.url("client.json", failing: "_html"), { if case .notASnapshot = $0 { true } else { false } }, "HTML"),
            (server.url("client.json", failing: "_truncated"), { $0 == .interrupted || $0.isNotASnapshot }, "broke off"),
            (server.url("client.json", failing: "_loop"), { $0 == .redirectLoop }, "redirects in a loop"),
            (server.url("growthbook.json"), { $0.isNotASnapshot }, "this is a GrowthBook export, for GrowthBook SDKs; give the client `abconsole export --format client`"),
            (server.url("other.json"), { $0.isNotASnapshot }, "unknown format `something-else`"),
            (URL(string: "http://127.0.0.1:1/client.json") ?? server.root, { $0 == .unreachable }, "cannot be reached"),
        ]
        for (url, isExpected, words) in cases {
            for _ in 0..<2 {
                do {
                    _ = try await client.refresh(from: url, timeout: 1)
                    Issue.record("\(url) did not fail")
                } catch {
                    #expect(isExpected(error.kind), "\(url): \(error.kind)")
                    #expect(error.description.contains(words), "\(error.description)")
                }
                #expect(client.value(for: Split.self) == .b, "\(url)")
                #expect(client.snapshotRevision == 1)
            }
        }
        let failures = recorder.reports.compactMap { report -> RefreshError? in
            if case .refreshFailed(let error) = report { error } else { nil }
        }
        #expect(failures.count == cases.count, "\(failures)")
    }

    /// A body past `maxBytes` (declared, or counted as it inflates from gzip) is dropped: the refresh
    /// fails `.tooLarge`, reported once per URL, and the last good snapshot stays; the same snapshot
    /// served gzip-compressed within the cap is read. (Peak memory: Tests/delivery/refresh_bounds.py.)
    @Test func aBodyOverTheCapIsDroppedAndTheLastGoodSnapshotStays() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        try server.publish(Self.snapshot("b", revision: 1), at: "client.json")
        // Three MiB of a valid snapshot's bytes (whitespace after it), the cap one MiB.
        try server.publish(Self.snapshot("a", revision: 2) + Data(repeating: 0x20, count: 3 << 20), at: "big.json")
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        #expect(ExperimentClient.defaultMaxSnapshotBytes == 128 << 20)
        try await client.refresh(from: server.url("client.json"), maxBytes: 1 << 20)
        let urls = [server.url("big.json"), server.url("big.json", failing: "_gzip"), server.url("x", failing: "_bomb/64")]
        for url in urls {
            for _ in 0..<2 {
                do {
                    _ = try await client.refresh(from: url, maxBytes: 1 << 20)
                    Issue.record("\(url) did not fail")
                } catch {
                    #expect(error.kind == .tooLarge(limit: 1 << 20), "\(url): \(error.kind)")
                    #expect(error.description.contains("the snapshot is larger than the 1 MiB limit"), "\(error.description)")
                }
                #expect(client.value(for: Split.self) == .b && client.snapshotRevision == 1, "\(url)")
            }
        }
        let failures = recorder.reports.filter { if case .refreshFailed = $0 { true } else { false } }
        #expect(failures.count == urls.count, "\(failures)")
        // Under the default cap the big body is a snapshot; compressed on the wire, the same.
        #expect(try await client.refresh(from: server.url("big.json", failing: "_gzip")) == .replaced(changed: ["split"]))
        #expect(client.value(for: Split.self) == .a)
    }

    /// A body sent a byte a second ends at the refresh's deadline (not when the body ends, nor only
    /// when the server goes silent): the refresh fails `.timedOut` and the snapshot stays.
    /// (CPU while waiting, on the real process: Tests/delivery/refresh_bounds.py.)
    @Test func aTrickledBodyEndsAtTheDeadline() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        try server.publish(Self.snapshot("b", revision: 1), at: "client.json")
        let client = ExperimentClient(subject: Subject(userID: "u"))
        try await client.refresh(from: server.url("client.json"))
        let start = Date()
        do {
            _ = try await client.refresh(from: server.url("client.json", failing: "_slow"), timeout: 2)
            Issue.record("a trickled body did not fail")
        } catch {
            #expect(error.kind == .timedOut, "\(error)")
            #expect(error.description.contains("no answer in time (the whole answer must come within 2 s)"), "\(error.description)")
        }
        // Generous slack: the body alone would take minutes at a byte a second.
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(client.value(for: Split.self) == .b)
    }

    /// `startRefreshing` follows the hosted file; `changes` delivers the keys to an async consumer.
    @Test func backgroundRefreshingFollowsTheHostAndChangesStreamTheKeys() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        try server.publish(Self.snapshot("a", revision: 1), at: "client.json")
        let client = ExperimentClient(subject: Subject(userID: "u"))
        let changes = client.changes
        client.startRefreshing(from: server.url("client.json"), every: 1)
        defer { client.stopRefreshing() }
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == ["split"])
        #expect(client.value(for: Split.self) == .a)
        try server.publish(Self.snapshot("b", revision: 2), at: "client.json")
        #expect(await iterator.next() == ["split"])
        #expect(client.value(for: Split.self) == .b)
    }
}

extension RefreshError.Kind {
    var isNotASnapshot: Bool { if case .notASnapshot = self { true } else { false } }
}

/// `client-example --snapshot-url`: the first fetch prints the variants, later fetches say `304`,
/// a change prints them again; a GrowthBook export is refused with the hint, once.
@Suite(.serialized) struct ExampleURLTests {
    @Test func followsTheHostedExportAndSays304() throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        let store = Fixture.sampleStoreURL.path
        let export = try Binaries.run("abconsole", ["--store", store, "export", "--format", "client", "--out", server.root.appendingPathComponent("client.json").path])
        try #require(export.code == 0, "\(export.stderr)")
        let fromFile = try Binaries.run("client-example", ["--snapshot", store, "--user", "emp-1001", "--device", "device-7f3a"])
        let run = try Binaries.run("client-example", ["--snapshot-url", server.url("client.json").absoluteString, "--refresh-every", "1",
                                                      "--for", "4", "--user", "emp-1001", "--device", "device-7f3a"])
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        // The variants once (as from the file), then one line per later fetch, each a 304.
        #expect(run.stdout.hasPrefix(fromFile.stdout), "\(run.stdout)")
        let later = run.stdout.dropFirst(fromFile.stdout.count).split(separator: "\n")
        #expect(!later.isEmpty && later.allSatisfy { $0 == "not modified (304)" }, "\(run.stdout)")
        let gb = try Binaries.run("abconsole", ["--store", store, "export", "--format", "growthbook", "--out", server.root.appendingPathComponent("features.json").path])
        try #require(gb.code == 0, "\(gb.stderr)")
        let refused = try Binaries.run("client-example", ["--snapshot-url", server.url("features.json").absoluteString, "--refresh-every", "1", "--for", "4"])
        #expect(refused.code == 0)
        #expect(refused.stderr.components(separatedBy: "this is a GrowthBook export").count == 2, "\(refused.stderr)")
        #expect(refused.stdout.contains("fetch failed; keeping the current snapshot"))
    }
}

/// The example's own refusals: a URL that is not HTTP, --refresh-every without --snapshot-url.
@Suite struct ExampleURLUsageTests {
    @Test func refusesWhatItCannotFetch() throws {
        for arguments in [["--snapshot-url", "file:///etc/passwd"], ["--snapshot", "x.json", "--refresh-every", "1"],
                          ["--snapshot-url", "http://127.0.0.1:1/x", "--for", "0"]] {
            let run = try Binaries.run("client-example", arguments)
            #expect(run.code == 64, "\(arguments)")
            #expect(run.stdout.isEmpty)
        }
    }
}
