import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// Exposures: once per subject and key per session, `bucketed` decisions only, safe under concurrency.
@Suite struct ExposureTests {
    static let fixed = Date(timeIntervalSince1970: 1_795_000_000)

    static let experiments = [
        Fixture.experiment("split", variants: Fixture.half, whitelist: ["vip": "b"]),
        Fixture.experiment("resolved_one", status: .resolved, winner: "b", variants: Fixture.half),
        Fixture.experiment("paused_one", status: .paused, variants: Fixture.half),
        Fixture.experiment("draft_one", status: .draft, variants: Fixture.half),
        Fixture.experiment("unallocated", variants: [("a", [], nil), ("b", [], nil)]),
        Fixture.experiment("by_device", type: .device, variants: Fixture.half),
    ]

    static func client(_ subject: Subject, sink: MemorySink) -> ExperimentClient {
        let client = ExperimentClient(subject: subject, exposureSink: sink, now: { fixed })
        client.replaceSnapshot(with: Fixture.clientData(experiments))
        return client
    }

    @Test func onlyBucketedDecisionsAreExposuresAndEachOnce() {
        let sink = MemorySink()
        let client = Self.client(Subject(userID: "user-1"), sink: sink)
        #expect(Keyed.seen(client, "split"))
        #expect(!Keyed.seen(client, "split"))
        for key in ["resolved_one", "paused_one", "draft_one", "unallocated", "by_device", "not_in_snapshot"] {
            #expect(!Keyed.seen(client, key), "\(key)")
        }
        let variant = client.evaluation(forKey: "split").variant ?? ""
        #expect(sink.exposures == [Exposure(timestamp: Self.fixed, experiment: "split", variant: variant, subject: "user-1")])
        #expect(sink.exposures.first?.jsonLine == #"{"experiment":"split","subject":"user-1","timestamp":"2026-11-18T11:06:40Z","variant":"\#(variant)"}"#)
    }

    @Test func whitelistedOverriddenAndFallbackValuesAreNotExposures() {
        let sink = MemorySink()
        let vip = Self.client(Subject(userID: "vip"), sink: sink)
        #expect(!Keyed.seen(vip, "split"))
        let overridden = Self.client(Subject(userID: "user-1"), sink: sink)
        overridden.setOverride("b", forKey: "split")
        #expect(!Keyed.seen(overridden, "split"))
        let empty = ExperimentClient(subject: Subject(userID: "user-1"), exposureSink: sink)
        #expect(!empty.markSeen(Split.self))
        #expect(sink.exposures.isEmpty)
    }

    @Test func aNewSubjectIsExposedAgainAndDeviceExperimentsUseTheDeviceID() {
        let sink = MemorySink()
        let client = Self.client(Subject(userID: "user-1", deviceID: "device-1"), sink: sink)
        #expect(Keyed.seen(client, "split"))
        #expect(Keyed.seen(client, "by_device"))
        client.setSubject(Subject(userID: "user-2", deviceID: "device-1"))
        #expect(Keyed.seen(client, "split"))
        #expect(!Keyed.seen(client, "by_device"))
        client.setSubject(Subject(userID: "user-1", deviceID: "device-1"))
        #expect(!Keyed.seen(client, "split"))
        #expect(sink.exposures.map(\.subject) == ["user-1", "device-1", "user-2"])
    }

    @Test func concurrentCallsLogExactlyOneExposurePerKey() async {
        let sink = MemorySink()
        let client = Self.client(Subject(userID: "user-1", deviceID: "device-1"), sink: sink)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for round in 0..<200 {
                        if (task + round) % 3 == 0 { client.markSeen(Split.self) }
                        _ = client.value(for: Split.self)
                        if round % 50 == 0 { client.setOverride(nil, forKey: "unrelated") }
                        Keyed.markByDevice(client)
                    }
                }
            }
        }
        #expect(sink.exposures.count == 2)
        #expect(Set(sink.exposures.map(\.experiment)) == ["split", "by_device"])
    }

    @Test func threadsHammeringTheFileSinkWriteWholeLines() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("exposures.jsonl").path
        let sink = try JSONLinesExposureSink(path: path)
        let threads = 16, perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let client = ExperimentClient(subject: Subject(userID: "t\(thread)"), exposureSink: sink, now: { Self.fixed })
            client.replaceSnapshot(with: Fixture.clientData(Self.experiments))
            for index in 0..<perThread {
                sink.record(Exposure(timestamp: Self.fixed, experiment: "split", variant: "a", subject: "t\(thread)-\(index)"))
                client.markSeen(Split.self)
            }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == threads * perThread + threads)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            #expect(object?.keys.sorted() == ["experiment", "subject", "timestamp", "variant"])
        }
        #expect(sink.failures == 0)
        // Appends: a second sink on the same file adds after what is there.
        try JSONLinesExposureSink(path: path).record(Exposure(timestamp: Self.fixed, experiment: "x", variant: "y", subject: "z"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == lines.count + 1)
    }

    @Test func anUnopenableFileIsAnError() {
        #expect(throws: ExposureSinkError.self) { try JSONLinesExposureSink(path: "/no/such/dir/exposures.jsonl") }
    }
}

/// Typed keys for the exposure fixtures, picked by name.
enum Keyed {
    enum ResolvedOne: String, ExperimentEnum { case a, b; static let key = "resolved_one", defaultValue = ResolvedOne.a }
    enum PausedOne: String, ExperimentEnum { case a, b; static let key = "paused_one", defaultValue = PausedOne.a }
    enum DraftOne: String, ExperimentEnum { case a, b; static let key = "draft_one", defaultValue = DraftOne.a }
    enum Unallocated: String, ExperimentEnum { case a, b; static let key = "unallocated", defaultValue = Unallocated.a }
    enum ByDevice: String, ExperimentEnum { case a, b; static let key = "by_device", defaultValue = ByDevice.a }

    static func seen(_ client: ExperimentClient, _ key: String) -> Bool {
        switch key {
        case "split": client.markSeen(Split.self)
        case "resolved_one": client.markSeen(ResolvedOne.self)
        case "paused_one": client.markSeen(PausedOne.self)
        case "draft_one": client.markSeen(DraftOne.self)
        case "unallocated": client.markSeen(Unallocated.self)
        case "by_device": client.markSeen(ByDevice.self)
        default: client.markSeen(Missing.self)
        }
    }

    static func markByDevice(_ client: ExperimentClient) { client.markSeen(ByDevice.self) }
}
