import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
@testable import ExperimentEditing
@testable import ExperimentStore

/// The JSON store on a real file in a unique temp directory: bytes, permissions, links, locks,
/// validation and conflicts (SPEC §6).
struct StoreFileTests {
    // MARK: Fixtures

    /// Two experiments created out of key order, whitelist entries added out of subject order.
    static func base() throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        try snapshot.apply(.create(Fixture.draft("zeta", type: .device, [("off", "30"), ("on", "70")], description: "Dark \"mode\" / <b>")),
                           context: Fixture.alice)
        try snapshot.apply(.create(Fixture.draft("alpha", [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
        try snapshot.apply(.whitelistAdd(experiment: "alpha", subject: "u2", variant: "control", note: "second"), context: Fixture.bob)
        try snapshot.apply(.whitelistAdd(experiment: "alpha", subject: "u1", variant: "treatment", note: "qa"), context: Fixture.bob)
        try snapshot.apply(.setPayload(experiment: "zeta", variant: "on", payload: .object(["theme": .string("dark"), "level": .number(2.5)])),
                           context: Fixture.bob)
        return snapshot
    }

    /// `base()` with alpha running (revision 4) and zeta resolved (winner `on`, revision 5).
    static func served() throws -> StoreSnapshot {
        var snapshot = try base()
        try snapshot.apply(.start(experiment: "alpha"), context: Fixture.carol)
        try snapshot.apply(.start(experiment: "zeta"), context: Fixture.carol)
        try snapshot.apply(.pause(experiment: "zeta"), context: Fixture.carol)
        try snapshot.apply(.resolve(experiment: "zeta", winner: "on"), context: Fixture.carol)
        return snapshot
    }

    /// The exact bytes of `base()`: sorted keys, alpha before zeta, u1 before u2, one line per
    /// variant, whitelist entry and history entry.
    static let baseBytes = #"""
        {
          "experiments": [
            {
              "control": "control",
              "created_at": "2026-01-01T00:00:00Z",
              "description": "",
              "key": "alpha",
              "revision": 3,
              "salt": "alpha",
              "status": "draft",
              "type": "user",
              "updated_at": "2026-01-01T01:00:00Z",
              "updated_by": "bob",
              "variants": [
                {"name": "control", "payload": null, "ranges": [[0, 5000]], "weight": 50},
                {"name": "treatment", "payload": null, "ranges": [[5000, 10000]], "weight": 50}
              ],
              "whitelist": [
                {"added_at": "2026-01-01T01:00:00Z", "added_by": "bob", "note": "qa", "subject": "u1", "variant": "treatment"},
                {"added_at": "2026-01-01T01:00:00Z", "added_by": "bob", "note": "second", "subject": "u2", "variant": "control"}
              ],
              "winner": null
            },
            {
              "control": "off",
              "created_at": "2026-01-01T00:00:00Z",
              "description": "Dark \"mode\" / <b>",
              "key": "zeta",
              "revision": 2,
              "salt": "zeta",
              "status": "draft",
              "type": "device",
              "updated_at": "2026-01-01T01:00:00Z",
              "updated_by": "bob",
              "variants": [
                {"name": "off", "payload": null, "ranges": [[0, 3000]], "weight": 30},
                {"name": "on", "payload": {"level": 2.5, "theme": "dark"}, "ranges": [[3000, 10000]], "weight": 70}
              ],
              "whitelist": [],
              "winner": null
            }
          ],
          "history": [
            {"action": "create", "after": "draft off=30,on=70", "at": "2026-01-01T00:00:00Z", "before": null, "experiment": "zeta", "operator": "alice"},
            {"action": "create", "after": "draft control=50,treatment=50", "at": "2026-01-01T00:00:00Z", "before": null, "experiment": "alpha", "operator": "alice"},
            {"action": "whitelist_add", "after": "u2=control note=\"second\"", "at": "2026-01-01T01:00:00Z", "before": null, "experiment": "alpha", "operator": "bob"},
            {"action": "whitelist_add", "after": "u1=treatment note=\"qa\"", "at": "2026-01-01T01:00:00Z", "before": null, "experiment": "alpha", "operator": "bob"},
            {"action": "set_payload", "after": "on {\"level\":2.5,\"theme\":\"dark\"}", "at": "2026-01-01T01:00:00Z", "before": null, "experiment": "zeta", "operator": "bob"}
          ],
          "revision": 5,
          "schema_version": 1
        }

        """#

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Builds the same store through `StoreFile.apply`, one transaction per change.
    func writeBase(to store: StoreFile) throws {
        try store.apply(.create(Fixture.draft("zeta", type: .device, [("off", "30"), ("on", "70")], description: "Dark \"mode\" / <b>")),
                        context: Fixture.alice)
        try store.apply(.create(Fixture.draft("alpha", [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
        try store.apply(.whitelistAdd(experiment: "alpha", subject: "u2", variant: "control", note: "second"), context: Fixture.bob)
        try store.apply(.whitelistAdd(experiment: "alpha", subject: "u1", variant: "treatment", note: "qa"), context: Fixture.bob)
        try store.apply(.setPayload(experiment: "zeta", variant: "on", payload: .object(["theme": .string("dark"), "level": .number(2.5)])),
                        context: Fixture.bob)
    }

    // MARK: Creating and the exact bytes

    @Test func createOnAMissingFileMakesIt0644() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        #expect(store.fingerprint() == nil)
        let outcome = try store.apply(.create(Fixture.draft("alpha", [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
        #expect(outcome == ChangeOutcome(message: "created draft `alpha` (control=50,treatment=50)", revision: 1))
        #expect(try mode(path) == 0o644)
        var expected = StoreSnapshot()
        try expected.apply(.create(Fixture.draft("alpha", [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
        #expect(try store.load() == expected)
        #expect(try bytes(path) == StoreFile.encode(expected))
        // Only the store and its lock file remain: no temp file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
            == ["experiments.json", "experiments.json.lock"])
    }

    @Test func encodingIsExactAndSorted() throws {
        #expect(String(decoding: StoreFile.encode(try Self.base()), as: UTF8.self) == Self.baseBytes)
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        try writeBase(to: StoreFile(path: path))
        #expect(String(decoding: try bytes(path), as: UTF8.self) == Self.baseBytes)
    }

    @Test func loadThenEncodeIsByteIdentical() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        try writeBase(to: store)
        try store.apply(.start(experiment: "alpha"), context: Fixture.carol)
        try store.apply(.ramp(experiment: "alpha", weights: ["control": Fixture.w("12.34"), "treatment": Fixture.w("0.01")]),
                        context: Fixture.carol)
        try store.apply(.whitelistAdd(experiment: "alpha", subject: "h\u{E9}llo \"q\" \u{1F600}", variant: "control", note: "ünïcode"),
                        context: Fixture.carol)
        try store.apply(.addVariant(experiment: "alpha", name: "late", payload: .array([.null, .bool(false), .number(-1.5), .string("a/b")])),
                        context: Fixture.carol)
        let loaded = try store.load()
        #expect(try StoreFile.encode(loaded) == bytes(path))
        #expect(try StoreFile.decode(bytes(path), path: path) == loaded)
        #expect(loaded.experiments["alpha"]?.variants.map(\.weight) == [Weight(buckets: 1234), Weight(buckets: 1), .zero])
    }

    // MARK: Saving without changes

    @Test func savingAnUnchangedStoreTouchesNothing() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        try writeBase(to: store)
        let before = try bytes(path)
        let fingerprint = try #require(store.fingerprint())
        let loaded = try store.update { snapshot in snapshot }
        #expect(loaded == (try Self.base()))
        #expect(store.fingerprint() == fingerprint)
        #expect(try bytes(path) == before)
        // A refused change writes nothing either.
        #expect(throws: StoreError.refused(.forbiddenTransition(experiment: "alpha", from: .draft, to: .paused))) {
            try store.apply(.pause(experiment: "alpha"), context: Fixture.carol)
        }
        #expect(store.fingerprint() == fingerprint)
        #expect(try bytes(path) == before)
        // A real change replaces the file with exactly the new snapshot's bytes.
        try store.apply(.start(experiment: "alpha"), context: Fixture.carol)
        var expected = try Self.base()
        try expected.apply(.start(experiment: "alpha"), context: Fixture.carol)
        #expect(try bytes(path) == StoreFile.encode(expected))
        #expect(store.fingerprint() != fingerprint)
    }

    // MARK: Permissions and links

    @Test func permissionsAreKeptAcrossSaves() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        try store.apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.alice)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        #expect(try mode(path) == 0o600)
        #expect(try store.load().experiments["alpha"]?.status == .running)
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: path)
        try store.apply(.pause(experiment: "alpha"), context: Fixture.bob)
        #expect(try mode(path) == 0o664)
    }

    @Test func aSymlinkedStoreIsWrittenThroughToItsTarget() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: false)
        let target = directory.path("real/experiments.json")
        let link = directory.path("link.json")
        try StoreFile(path: target).apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.alice)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/experiments.json")
        let store = StoreFile(path: link)
        #expect(store.fingerprint() == StoreFile(path: target).fingerprint())
        try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/experiments.json")
        #expect(try StoreFile(path: target).load().experiments["alpha"]?.status == .running)
        #expect(try store.load() == StoreFile(path: target).load())
        #expect(try mode(target) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["link.json", "real"])
    }

    // MARK: Invalid stores are reported and never overwritten

    /// A store rendered from `served()` after `edit`, written without validation.
    static func document(_ edit: (inout StoreDocument) -> Void) throws -> Data {
        var document = StoreDocument(try served())
        edit(&document)
        var data = try StoreCoding.encoder().encode(document)
        data.append(0x0A)
        return data
    }

    /// `served()`'s bytes with `old` (which must occur exactly once) replaced by `new`.
    static func replacing(_ old: String, with new: String) throws -> Data {
        let text = String(decoding: StoreFile.encode(try served()), as: UTF8.self)
        guard text.components(separatedBy: old).count == 2 else { throw CocoaError(.fileReadCorruptFile) }
        return Data(text.replacingOccurrences(of: old, with: new).utf8)
    }

    static let invalidStores: [(name: String, bytes: @Sendable () throws -> Data, problems: [StoreProblem])] = [
        ("wrong type", { try replacing("\"revision\": 4,", with: "\"revision\": \"4\",") },
         [StoreProblem("$.experiments[0].revision", "expected a number")]),
        ("missing field", { try replacing("\"salt\": \"alpha\",\n", with: "") },
         [StoreProblem("$.experiments[0]", "missing field `salt`")]),
        ("weight with three decimals", { try replacing("\"weight\": 30", with: "\"weight\": 30.001") },
         [StoreProblem("$.experiments[1].variants[0].weight", "weight 30.001 must be 0–100 with at most two decimals")]),
        ("unknown status", { try replacing("\"status\": \"resolved\"", with: "\"status\": \"archived\"") },
         [StoreProblem("$.experiments[1].status", "`archived` is not one of `draft`, `running`, `paused`, `resolved`")]),
        ("duplicate whitelist subject", { try replacing("\"subject\": \"u2\"", with: "\"subject\": \"u1\"") },
         [StoreProblem("$.experiments[0].whitelist", "subject `u1` is listed twice")]),
        ("schema version 2", { try replacing("\"schema_version\": 1", with: "\"schema_version\": 2") },
         [StoreProblem("$.schema_version", "schema version 2 is not supported; this abconsole reads version 1")]),
        ("schema version 2 in another shape", { Data(#"{"schema_version": 2, "stores": []}"#.utf8) },
         [StoreProblem("$.schema_version", "schema version 2 is not supported; this abconsole reads version 1")]),
        ("overlapping ranges", { try document { $0.experiments[0].variants[1].ranges = [BucketRange(4000, 9000)] } },
         [StoreProblem("$.experiments[0].variants[1].ranges", "[4000, 9000) overlaps [0, 5000) of variant `control`")]),
        ("ranges not matching the weight", { try document { $0.experiments[0].variants[0].ranges = [BucketRange(0, 4000)] } },
         [StoreProblem("$.experiments[0].variants[0].ranges", "the ranges hold 4000 buckets but the weight 50 % needs 5000")]),
        ("range out of bounds", { try document { $0.experiments[0].variants[1].ranges = [BucketRange(5000, 10_001)] } },
         [StoreProblem("$.experiments[0].variants[1].ranges[0]", "[5000, 10001) is not a non-empty range within [0, 10000)"),
          StoreProblem("$.experiments[0].variants[1].ranges", "the ranges hold 0 buckets but the weight 50 % needs 5000")]),
        ("whitelist pointing to a missing variant", { try document { $0.experiments[0].whitelist["u1"]?.variant = "ghost" } },
         [StoreProblem("$.experiments[0].whitelist[subject=\"u1\"].variant", "`ghost` is not one of the variants")]),
        ("winner not a variant", { try document { $0.experiments[1].winner = "nope" } },
         [StoreProblem("$.experiments[1].winner", "`nope` is not one of the variants")]),
        ("resolved without a winner", { try document { $0.experiments[1].winner = nil } },
         [StoreProblem("$.experiments[1].winner", "a resolved experiment needs a winner")]),
        ("winner while running", { try document { $0.experiments[0].winner = "control" } },
         [StoreProblem("$.experiments[0].winner", "only a resolved experiment has a winner")]),
        ("control not a variant", { try document { $0.experiments[0].control = "ctrl" } },
         [StoreProblem("$.experiments[0].control", "`ctrl` is not one of the variants")]),
        ("duplicate experiment keys", { try document { $0.experiments[1].key = "alpha" } },
         [StoreProblem("$.experiments[1].key", "experiment `alpha` is also at $.experiments[0]")]),
        ("bad key and salt", { try document { $0.experiments[0].key = "Alpha"; $0.experiments[0].salt = "" } },
         [StoreProblem("$.experiments[0].key", "`Alpha` breaks the key rule [a-z0-9][a-z0-9_.-]{0,63}"),
          StoreProblem("$.experiments[0].salt", "must be 1–256 characters without control characters")]),
        ("weights over 100", { try document {
            $0.experiments[0].variants[1].weight = Weight(buckets: 5001)
            $0.experiments[0].variants[1].ranges = [BucketRange(5000, 10_000)]
        } },
         [StoreProblem("$.experiments[0].variants[1].ranges", "the ranges hold 5000 buckets but the weight 50.01 % needs 5001"),
          StoreProblem("$.experiments[0].variants", "the weights add up to 100.01 %, over 100 %")]),
        ("every problem at once", { try document {
            $0.revision = -1
            $0.experiments[0].revision = 0
            $0.experiments[1].winner = "nope"
            $0.history[0].operatorName = ""
        } },
         [StoreProblem("$.revision", "must be 0 to 9007199254740991"),
          StoreProblem("$.experiments[0].revision", "must be 1 to 9007199254740991"),
          StoreProblem("$.experiments[1].winner", "`nope` is not one of the variants"),
          StoreProblem("$.history[0].operator", "must be 1–256 characters without control characters")]),
    ]

    @Test(arguments: invalidStores.indices)
    func invalidStoreIsReportedWithPathsAndNeverOverwritten(_ index: Int) throws {
        let (name, makeBytes, problems) = Self.invalidStores[index]
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let data = try makeBytes()
        try data.write(to: URL(fileURLWithPath: path))
        let store = StoreFile(path: path)
        let fingerprint = store.fingerprint()
        let invalid = StoreError.invalid(path: path, problems: problems)
        #expect(throws: invalid, "\(name)") { try store.load() }
        #expect(throws: invalid, "\(name)") { try store.update { _ in } }
        #expect(throws: invalid, "\(name)") { try store.apply(.start(experiment: "alpha"), context: Fixture.bob) }
        #expect(throws: invalid, "\(name)") {
            try store.apply(.create(Fixture.draft("beta", [("a", "100")])), context: Fixture.bob)
        }
        #expect(try bytes(path) == data, "\(name)")
        #expect(store.fingerprint() == fingerprint, "\(name)")
    }

    static let notJSON: [(name: String, bytes: @Sendable () throws -> Data)] = [
        ("truncated", { StoreFile.encode(try served()).prefix(700) }),
        ("not JSON", { Data("experiments: []\n".utf8) }),
        ("empty", { Data() }),
    ]

    @Test(arguments: notJSON.indices)
    func unparsableStoreIsReportedAtTheRootAndNeverOverwritten(_ index: Int) throws {
        let (name, makeBytes) = Self.notJSON[index]
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let data = try makeBytes()
        try data.write(to: URL(fileURLWithPath: path))
        let store = StoreFile(path: path)
        for attempt in 0..<2 {
            let error = #expect(throws: StoreError.self, "\(name)") {
                if attempt == 0 { _ = try store.load() } else { try store.apply(.start(experiment: "alpha"), context: Fixture.bob) }
            }
            guard case .invalid(let reported, let problems)? = error else {
                Issue.record("\(name): \(String(describing: error))")
                continue
            }
            #expect(reported == path)
            #expect(problems.map(\.path) == ["$"], "\(name)")
            #expect(problems.first?.message.hasPrefix("not valid JSON") == true, "\(name): \(problems)")
        }
        #expect(try bytes(path) == data, "\(name)")
    }

    @Test func invalidMessageListsEveryProblem() {
        let error = StoreError.invalid(path: "x.json", problems: [StoreProblem("$.revision", "must be 0 or more"),
                                                                  StoreProblem("$.experiments[1].winner", "`nope` is not one of the variants")])
        #expect(error.message == """
            the store x.json is not valid (2 problems); fix it by hand or restore it from version control:
              $.revision: must be 0 or more
              $.experiments[1].winner: `nope` is not one of the variants
            """)
        #expect(error.message(refusingChange: true).hasPrefix("the store x.json is not valid (2 problems); it was not changed — fix it by hand"))
    }

    // MARK: Missing and unreadable stores

    @Test func missingStoreIsReportedForEveryChangeButCreate() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        #expect(throws: StoreError.missing(path: path)) { try store.load() }
        #expect(throws: StoreError.missing(path: path)) { try store.apply(.start(experiment: "alpha"), context: Fixture.bob) }
        #expect(throws: StoreError.missing(path: path)) { try store.update { _ in } }
        // Nothing is created beside a missing store, not even the lock file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test func storeInAMissingDirectory() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("nowhere/experiments.json")
        let store = StoreFile(path: path)
        #expect(throws: StoreError.missing(path: path)) { try store.load() }
        #expect(throws: StoreError.missing(path: path)) { try store.apply(.start(experiment: "alpha"), context: Fixture.bob) }
        #expect(throws: StoreError.cannotCreate(path: path, reason: "open lock file failed: No such file or directory")) {
            try store.apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.bob)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test func aDirectoryIsUnreadable() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = StoreError.unreadable(path: path, reason: "it is a directory, not a regular file")
        #expect(throws: error) { try StoreFile(path: path).load() }
        #expect(throws: error) { try StoreFile(path: path).apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.bob) }
    }

    // MARK: Locks

    @Test func aHeldLockTimesOut() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        try StoreFile(path: path).apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.alice)
        let before = try bytes(path)
        let held = try FileSystem.lock(path + ".lock", timeout: 0)
        defer { held.release() }
        let store = StoreFile(path: path, lockTimeout: 0.2)
        #expect(throws: StoreError.lockTimeout(path: path, seconds: 0.2)) {
            try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        }
        #expect(try bytes(path) == before)
        #expect(StoreError.lockTimeout(path: path, seconds: 0.2).message
            == "another process has held the lock on \(path) for over 0.2 s; try again, or find the stuck process (e.g. `fuser \(path).lock`)")
        held.release()
        try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        #expect(try store.load().experiments["alpha"]?.status == .running)
    }

    @Test func aStaleLockFileDoesNotBlock() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        try Data("12345\n".utf8).write(to: URL(fileURLWithPath: path + ".lock"))
        // A zero timeout: any wait for the lock would fail with lockTimeout.
        let store = StoreFile(path: path, lockTimeout: 0)
        try store.apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.alice)
        try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        #expect(try store.load().experiments["alpha"]?.revision == 2)
    }

    @Test func aLockIsReleasedAfterAFailedChange() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path, lockTimeout: 0)
        try store.apply(.create(Fixture.draft("alpha", [("a", "100")])), context: Fixture.alice)
        #expect(throws: StoreError.refused(.unknownExperiment("ghost"))) { try store.apply(.start(experiment: "ghost"), context: Fixture.bob) }
        let lock = try FileSystem.lock(path + ".lock", timeout: 0)
        lock.release()
    }

    // MARK: Conflicts

    @Test func aStaleRevisionIsAConflictAndTheFileIsUnchanged() throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let path = directory.path("experiments.json")
        let store = StoreFile(path: path)
        try store.apply(.create(Fixture.draft("alpha", [("control", "50"), ("treatment", "50")])), context: Fixture.alice)
        let seen = try #require(try store.load().experiments["alpha"]?.revision)
        try store.apply(.start(experiment: "alpha"), context: Fixture.bob)
        let before = try bytes(path)
        let fingerprint = store.fingerprint()
        #expect(throws: StoreError.refused(.conflict(experiment: "alpha", expected: 1, actual: 2, by: "bob", at: Fixture.t1))) {
            try store.apply(.ramp(experiment: "alpha", weights: ["control": Fixture.w("90"), "treatment": Fixture.w("10")]),
                            expectedRevision: seen, context: Fixture.carol)
        }
        #expect(try bytes(path) == before)
        #expect(store.fingerprint() == fingerprint)
        let outcome = try store.apply(.pause(experiment: "alpha"), expectedRevision: 2, context: Fixture.carol)
        #expect(outcome.revision == 3)
    }
}
