import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// What `refresh(from:)` reads over the wire against the real server (Tests/delivery/snapshot_server.py):
/// chunked answers (gzip-compressed when asked), a redirect followed, a content coding not asked
/// for refused, and a cancelled refresh ending at once while the server stays silent.
@Suite(.serialized) struct RefreshTransportTests {
    @Test func readsChunkedAndRedirectedAnswersAndRefusesAnUnaskedCoding() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        let big = RefreshTests.snapshot("a", revision: 2) + Data(repeating: 0x20, count: 300_000)
        try server.publish(RefreshTests.snapshot("b", revision: 1), at: "client.json")
        try server.publish(big, at: "big.json")
        let client = ExperimentClient(subject: Subject(userID: "u"))
        #expect(try await client.refresh(from: server.url("client.json", failing: "_redirect")) == .replaced(changed: ["split"]))
        #expect(client.value(for: Split.self) == .b)
        #expect(try await client.refresh(from: server.url("big.json", failing: "_chunked")) == .replaced(changed: ["split"]))
        #expect(client.value(for: Split.self) == .a && client.snapshotRevision == 2)
        // The chunked body counts against the cap too (gzip-compressed on the wire, inflated here).
        do {
            _ = try await client.refresh(from: server.url("client.json", failing: "_chunked"), maxBytes: 100)
            Issue.record("a chunked body over the cap was kept")
        } catch {
            #expect(error.kind == .tooLarge(limit: 100), "\(error)")
        }
        do {
            _ = try await client.refresh(from: server.url("client.json", failing: "_br"))
            Issue.record("a body in an unasked coding was read")
        } catch {
            #expect(error.kind.isNotASnapshot, "\(error)")
            #expect(error.description.contains("Content-Encoding: br"), "\(error.description)")
        }
        #expect(client.snapshotRevision == 2)
    }

    /// Cancelling the refreshing task ends the wait at once, well before the refresh's deadline.
    @Test func aCancelledRefreshEndsPromptly() async throws {
        let server = try SnapshotServer()
        defer { server.stop() }
        try server.publish(RefreshTests.snapshot("b", revision: 1), at: "client.json")
        let client = ExperimentClient(subject: Subject(userID: "u"))
        let url = server.url("client.json", failing: "_timeout")
        let task = Task { () -> RefreshError? in
            do {
                _ = try await client.refresh(from: url, timeout: 120)
                return nil
            } catch let error as RefreshError {
                return error
            } catch {
                return nil
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let start = Date()
        task.cancel()
        let error = await task.value
        #expect(error?.kind == .unreachable && error?.detail == "cancelled", "\(String(describing: error))")
        // Generous slack: the server stays silent for 30 s and the deadline is 120 s.
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
