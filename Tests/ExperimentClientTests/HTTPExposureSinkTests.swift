import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// `HTTPExposureSink` against a real HTTP server (Tests/delivery/ofrep_stub.py): batches, the
/// queue file across instances, the bound and its drop count, refused rows, backoff.
@Suite(.serialized) struct HTTPExposureSinkTests {
    static func exposure(_ index: Int, experiment: String = "split") -> Exposure {
        Exposure(timestamp: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)), experiment: experiment, variant: "b", subject: "user-\(index)")
    }

    /// The rows the stub accepted, as JSON lines (sorted keys, as `jsonLine` writes them).
    static func received(_ server: SnapshotServer) -> [String] {
        let text = (try? String(contentsOf: server.root.appendingPathComponent("exposures.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) ?? [:]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// A sink and the things around it; everything goes when `done` is called.
    struct Setup {
        let server: SnapshotServer
        let directory: URL
        var base: URL { URL(string: "http://127.0.0.1:\(server.port)") ?? directory }
        var queue: URL { directory.appendingPathComponent("exposures-queue.jsonl") }

        init() throws {
            server = try SnapshotServer(script: "ofrep_stub.py")
            directory = try Fixture.temporaryDirectory()
        }

        func done() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func postsBatchesOfJSONRowsWithTheToken() async throws {
        let setup = try Setup()
        defer { setup.done() }
        let sink = HTTPExposureSink(server: setup.base, token: "t0k", queueFile: setup.queue, batchSize: 2, sendAfter: nil)
        let rows = (0..<5).map { Self.exposure($0) }
        rows.forEach(sink.record)
        #expect(sink.pending == 5)
        #expect(try await sink.flush() == 5)
        #expect(Self.received(setup.server) == rows.map(\.jsonLine))
        let requests = try RemoteModeTests.requests(setup.server)
        #expect(requests.map(\.path) == Array(repeating: "/v1/exposures", count: 3))
        #expect(requests.map { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [Any] }.map { $0?.count } == [2, 2, 1])
        #expect(requests.allSatisfy { $0.authorization == "Bearer t0k" })
        #expect(sink.pending == 0)
        #expect(try String(contentsOf: setup.queue, encoding: .utf8).isEmpty)
        #expect(try await sink.flush() == 0, "nothing is sent twice")
        #expect(Self.received(setup.server).count == 5)
    }

    /// A server answering 503, then none at all: the rows stay on disk for the next instance, the
    /// wait before the next background try doubles, and a success clears it.
    @Test func unsentRowsSurviveANewInstanceAndFailuresBackOff() async throws {
        let setup = try Setup()
        defer { setup.done() }
        try setup.server.publish(Data("503".utf8), at: "status")
        let rows = (0..<3).map { Self.exposure($0) }
        do {
            let sink = HTTPExposureSink(server: setup.base, queueFile: setup.queue, sendAfter: nil)
            rows.forEach(sink.record)
            var delays: [TimeInterval] = []
            for _ in 0..<3 {
                await #expect { try await sink.flush() } throws: { ($0 as? ExposureSendError)?.reason == "the server answered HTTP 503" }
                delays.append(sink.retryDelay)
            }
            #expect(delays == [1, 2, 4])
            #expect(sink.pending == 3)
            let refused = HTTPExposureSink(server: URL(string: "http://127.0.0.1:1") ?? setup.base, queueFile: setup.directory.appendingPathComponent("other.jsonl"), sendAfter: nil)
            refused.record(rows[0])
            for _ in 0..<2 { await #expect(throws: ExposureSendError.self) { try await refused.flush() } }
            #expect(refused.retryDelay == 2)
            #expect(refused.pending == 1)
        }
        try FileManager.default.removeItem(at: setup.server.root.appendingPathComponent("status"))
        let relaunched = HTTPExposureSink(server: setup.base, queueFile: setup.queue, sendAfter: nil)
        #expect(relaunched.pending == 3)
        #expect(try await relaunched.flush() == 3)
        #expect(relaunched.retryDelay == 0)
        #expect(Self.received(setup.server) == rows.map(\.jsonLine))
    }

    /// Past its capacity the sink drops rows and says so through the client; rows the server
    /// refuses are dropped, counted and reported too; a torn last line of the queue file is dropped.
    @Test func dropsPastTheBoundAndRefusedRowsAndReportsThem() async throws {
        let setup = try Setup()
        defer { setup.done() }
        let sink = HTTPExposureSink(server: setup.base, queueFile: setup.queue, capacity: 3, sendAfter: nil)
        let recorder = Recorder()
        let client = ExperimentClient(exposureSink: sink, delegate: recorder)
        for index in 0..<3 { #expect(sink.recordReportingFailure(Self.exposure(index)) == nil) }
        #expect(sink.recordReportingFailure(Self.exposure(3))?.contains("full (3 rows") == true)
        #expect(sink.dropped == 1)
        #expect(try await sink.flush() == 3)
        sink.record(Self.exposure(4, experiment: "unknown_experiment"))
        sink.record(Self.exposure(5))
        #expect(try await sink.flush() == 1)
        #expect(sink.dropped == 2)
        #expect(recorder.reports == [.exposureNotRecorded(sink: sink.endpoint.absoluteString, reason: "the server refused it (unknown experiment)")])
        #expect(Self.received(setup.server).count == 4)
        withExtendedLifetime(client) {}
        // A crash mid-append leaves a torn line: the next instance drops and counts it.
        try Data((Self.exposure(6).jsonLine + "\n{\"experi").utf8).write(to: setup.queue)
        let relaunched = HTTPExposureSink(server: setup.base, queueFile: setup.queue, sendAfter: nil)
        #expect(relaunched.pending == 1)
        #expect(relaunched.dropped == 1)
    }

    /// Many threads record at once and a flush races the background sender: every row arrives once.
    @Test func concurrentRecordsAndSendsLoseAndDoubleNothing() async throws {
        let setup = try Setup()
        defer { setup.done() }
        let sink = HTTPExposureSink(server: setup.base, queueFile: setup.queue, batchSize: 7, sendAfter: 0.01)
        DispatchQueue.concurrentPerform(iterations: 200) { sink.record(Self.exposure($0)) }
        try await sink.flush()
        // The background sender may still hold the gate; a second flush waits for it.
        try await sink.flush()
        #expect(Set(Self.received(setup.server)) == Set((0..<200).map { Self.exposure($0).jsonLine }))
        #expect(Self.received(setup.server).count == 200)
    }
}
