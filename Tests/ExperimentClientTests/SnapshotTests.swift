import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// Snapshots: the store file and the client format, bad input, replacement, persistence, observers.
@Suite struct SnapshotTests {
    static let split = Fixture.experiment("split", variants: Fixture.half)

    @Test func storeFileAndClientExportGiveTheSameAnswers() throws {
        let storeData = try Data(contentsOf: Fixture.sampleStoreURL)
        let store = try StoreSnapshot.decode(storeData, path: Fixture.sampleStoreURL.path)
        let clientData = try ClientSnapshotDocument(store).encoded()
        let keys = store.experiments.keys.sorted()
        for index in 0..<300 {
            let subject = Subject(userID: index % 7 == 0 ? nil : "user-\(index)", deviceID: index % 5 == 0 ? nil : "device-\(index)")
            let fromStore = ExperimentClient(subject: subject), fromExport = ExperimentClient(subject: subject)
            #expect(try fromStore.replaceSnapshot(with: storeData).get().count == keys.count)
            _ = fromExport.replaceSnapshot(with: clientData)
            for key in keys {
                let expected = CompiledExperiment(try #require(store.experiments[key])).decide(for: subject)
                #expect(fromStore.evaluation(forKey: key).variant == expected.variant)
                #expect(fromExport.evaluation(forKey: key).variant == expected.variant)
                #expect(fromExport.evaluation(forKey: key).source == .experiment(expected.reason))
            }
        }
        #expect(fromRevision(clientData) == 34)
    }

    private func fromRevision(_ data: Data) -> Int? {
        let client = ExperimentClient()
        client.replaceSnapshot(with: data)
        return client.snapshotRevision
    }

    /// Bad input of every kind keeps the last good snapshot and is reported once, with a reason.
    @Test(arguments: [
        ("empty", Data()),
        ("not JSON", Data("hello".utf8)),
        ("truncated client", Data(#"{"format":"abconsole-client","schema_version":1,"revision":1,"experiments":[{"key":"split""#.utf8)),
        ("other schema", Data(#"{"format":"abconsole-client","schema_version":2,"revision":1,"experiments":[]}"#.utf8)),
        ("other format", Data(#"{"format":"launchdarkly","schema_version":1}"#.utf8)),
        ("store of other schema", Data(#"{"schema_version":7,"revision":1,"experiments":[],"history":[]}"#.utf8)),
        ("array", Data("[]".utf8)),
        ("inconsistent ranges", Fixture.clientData([Fixture.experiment("split", variants: [("a", [BucketRange(0, 6000)], nil), ("b", [BucketRange(5000, 10000)], nil)])])),
        ("unknown control", Fixture.clientData([Fixture.experiment("split", control: "zz", variants: Fixture.half)])),
        ("whitelisted into nothing", Fixture.clientData([Fixture.experiment("split", variants: Fixture.half, whitelist: ["u": "zz"])])),
    ])
    func badInputKeepsTheLastGoodSnapshot(name: String, data: Data) {
        let recorder = Recorder()
        let client = ExperimentClient(subject: Subject(userID: "u"), delegate: recorder)
        let good = Fixture.clientData([Self.split], revision: 5)
        client.replaceSnapshot(with: good)
        let before = client.evaluation(forKey: "split")
        let result = client.replaceSnapshot(with: data)
        client.replaceSnapshot(with: data)
        guard case .failure(let error) = result else {
            Issue.record("\(name): accepted")
            return
        }
        #expect(!error.reason.isEmpty)
        #expect(client.snapshotRevision == 5, "\(name)")
        #expect(client.evaluation(forKey: "split").variant == before.variant)
        #expect(recorder.reports == [.snapshotNotUsed(error)], "\(name): \(recorder.reports)")
    }

    @Test func truncatedStoreFilesAreRefusedAtEveryLength() throws {
        let data = try Data(contentsOf: Fixture.sampleStoreURL)
        let client = ExperimentClient(subject: Subject(userID: "u"))
        for length in stride(from: 0, to: data.count - 1, by: 97) {
            guard case .failure = client.replaceSnapshot(with: data.prefix(length)) else {
                Issue.record("accepted \(length) bytes")
                return
            }
        }
        #expect(client.snapshotRevision == nil)
        #expect(client.evaluation(for: Split.self).source == .fallback(.noSnapshot))
    }

    @Test func lastGoodSnapshotIsUsedAtTheNextLaunch() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("snapshot.json")
        let first = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache)
        #expect(first.snapshotRevision == nil)
        first.replaceSnapshot(with: Fixture.clientData([Self.split], revision: 3))
        first.replaceSnapshot(with: Data("garbage".utf8))
        #expect(try Data(contentsOf: cache) == Fixture.clientData([Self.split], revision: 3))
        let recorder = Recorder()
        let second = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache, delegate: recorder)
        #expect(second.snapshotRevision == 3)
        #expect(second.evaluation(for: Split.self).source == .experiment(.bucketed))
        #expect(recorder.reports.isEmpty)
        // A damaged cache file: defaults, reported once, and the next good snapshot replaces it.
        try Data("{\"format\":".utf8).write(to: cache)
        let third = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache, delegate: recorder)
        #expect(third.snapshotRevision == nil)
        #expect(recorder.reports.count == 1)
        #expect(third.value(for: Split.self) == .a)
        third.replaceSnapshot(contentsOf: Fixture.sampleStoreURL)
        #expect(try Data(contentsOf: cache) == Data(contentsOf: Fixture.sampleStoreURL))
    }

    @Test func unwritableCacheIsReportedButTheSnapshotIsUsed() {
        let recorder = Recorder()
        let cache = URL(fileURLWithPath: "/nonexistent-dir-\(UUID().uuidString)/snapshot.json")
        let client = ExperimentClient(subject: Subject(userID: "u"), cacheURL: cache, delegate: recorder)
        #expect((try? client.replaceSnapshot(with: Fixture.clientData([Self.split])).get()) != nil)
        #expect(client.snapshotRevision == 1)
        guard case .cacheNotWritten(let path, _)? = recorder.reports.first else {
            Issue.record("\(recorder.reports)")
            return
        }
        #expect(path == cache.path)
    }

    @Test func missingFileIsReported() {
        let recorder = Recorder()
        let client = ExperimentClient(delegate: recorder)
        let result = client.replaceSnapshot(contentsOf: URL(fileURLWithPath: "/no/such/snapshot.json"))
        #expect(result == .failure(SnapshotError(source: "/no/such/snapshot.json", reason: "no such file")))
        #expect(recorder.reports == [.snapshotNotUsed(SnapshotError(source: "/no/such/snapshot.json", reason: "no such file"))])
    }

    @Test func observersHearExactlyTheKeysThatChanged() throws {
        let log = ChangeLog()
        let client = ExperimentClient(subject: Subject(userID: "u", deviceID: "d"))
        let observation = client.observeChanges { log.append($0) }
        let stable = Fixture.experiment("stable", variants: Fixture.half)
        let theme = Fixture.experiment("theme", variants: [("x", [BucketRange(0, 10000)], .string("red"))])
        #expect(try client.replaceSnapshot(with: Fixture.clientData([Self.split, stable, theme])).get() == ["split", "stable", "theme"])
        // Same variants: nothing changes, nobody is called.
        #expect(try client.replaceSnapshot(with: Fixture.clientData([Self.split, stable, theme], revision: 2)).get() == [])
        // Resolving `split` to the other variant, and a new payload on `theme`'s variant.
        let variant = client.evaluation(forKey: "split").variant
        let resolved = Fixture.experiment("split", status: .resolved, winner: variant == "a" ? "b" : "a", variants: Fixture.half)
        let recoloured = Fixture.experiment("theme", variants: [("x", [BucketRange(0, 10000)], .string("blue"))])
        #expect(try client.replaceSnapshot(with: Fixture.clientData([resolved, stable, recoloured], revision: 3)).get() == ["split", "theme"])
        // Removing an experiment changes its key; an override changes its key.
        #expect(try client.replaceSnapshot(with: Fixture.clientData([resolved, recoloured], revision: 4)).get() == ["stable"])
        #expect(client.setOverride(variant, forKey: "split") == ["split"])
        #expect(log.changes == [["split", "stable", "theme"], ["split", "theme"], ["stable"], ["split"]])
        observation.cancel()
        client.setOverride(nil, forKey: "split")
        #expect(log.changes.count == 4)
    }

    @Test func subjectChangeNotifiesTheKeysWhoseVariantMoved() {
        let log = ChangeLog()
        let client = ExperimentClient(subject: Subject(userID: "vip"))
        client.replaceSnapshot(with: Fixture.clientData([Fixture.experiment("split", variants: Fixture.half, whitelist: ["vip": "b", "vip2": "b"])]))
        let observation = client.observeChanges { log.append($0) }
        #expect(client.setSubject(Subject(userID: "vip2")) == [])
        #expect(client.setSubject(Subject()) == ["split"])
        #expect(log.changes == [["split"]])
        withExtendedLifetime(observation) {}
    }
}

/// Replacements while other threads read: every read sees a whole snapshot (never none, never a
/// half-built one), and each replacement is announced once with both keys.
@Suite struct ConcurrentReplacementTests {
    @Test func readersAlwaysSeeAWholeSnapshot() async {
        // Two snapshots that disagree on both experiments for everyone: A gives (a, a), B gives (b, b).
        func snapshot(_ variant: String, revision: Int) -> Data {
            Fixture.clientData(["split", "other"].map { key in
                Fixture.experiment(key, status: .resolved, winner: variant, variants: Fixture.half)
            }, revision: revision)
        }
        let first = snapshot("a", revision: 1), second = snapshot("b", revision: 2)
        let client = ExperimentClient(subject: Subject(userID: "u"))
        client.replaceSnapshot(with: first)
        let log = ChangeLog()
        let observation = client.observeChanges { log.append($0) }
        let mixed = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<300 { client.replaceSnapshot(with: round % 2 == 0 ? second : first) }
                return 0
            }
            for _ in 0..<8 {
                group.addTask {
                    var mixed = 0
                    for _ in 0..<3000 {
                        if client.evaluation(for: Split.self).source != .experiment(.resolved) { mixed += 1 }
                        if client.evaluation(forKey: "other").variant == nil || client.snapshotRevision == nil { mixed += 1 }
                    }
                    return mixed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mixed == 0)
        #expect(log.changes.count == 300 && log.changes.allSatisfy { $0 == ["split", "other"] })
        #expect(client.snapshotRevision == 1)
        withExtendedLifetime(observation) {}
    }
}
