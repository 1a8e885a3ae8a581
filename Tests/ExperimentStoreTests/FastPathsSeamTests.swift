import ExperimentTestSupport
import Foundation
import Testing
@testable import ExperimentCore
import ExperimentEditing
@testable import ExperimentStore

/// The fast paths chosen by the value a store file is given, not by the environment: with every
/// fast path on or none, the same changes leave the same bytes, and the plain paths take no fast one.
struct FastPathsSeamTests {
    /// Two copies of a random store, one saved with every fast path and one with the save's off.
    struct Twins {
        let directory: TempDirectory
        let fast: StoreFile
        let plain: StoreFile

        init(seed: UInt64) throws {
            var random = SplitMix64(seed: seed)
            let bytes = StoreFile.encode(RandomStore.plain.snapshot(using: &random))
            directory = try TempDirectory()
            fast = StoreFile(path: directory.path("fast.json"), fastPaths: .all)
            plain = StoreFile(path: directory.path("plain.json"), fastPaths: FastPaths.all.without(.save))
            try bytes.write(to: URL(fileURLWithPath: fast.path))
            try bytes.write(to: URL(fileURLWithPath: plain.path))
        }

        func bytes(_ file: StoreFile) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file.path)) }

        /// Changes at the time of the store's newest entry: each appends to the history, so a save may copy it.
        func context() throws -> ChangeContext {
            ChangeContext(operatorName: "carol", now: try plain.load().history.map(\.at).max() ?? Fixture.t2)
        }
    }

    /// Random changes saved through each: after every one the two files hold the same bytes, and read the same.
    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func plainAndFastSavesWriteTheSameBytes(seed: UInt64) throws {
        let twins = try Twins(seed: seed)
        defer { twins.directory.remove() }
        var random = SplitMix64(seed: seed &+ 1_000)
        let context = try twins.context()
        for _ in 0..<12 {
            let current = try twins.plain.load()
            let open = current.experiments.values.filter { $0.status != .resolved }.map(\.key).sorted()
            guard let key = open.randomElement(using: &random) else { break }
            let change = VerbatimSaveTests.change(to: key, in: current, using: &random)
            let fast = Result { try twins.fast.apply(change, context: context) }
            let plain = Result { try twins.plain.apply(change, context: context) }
            #expect((try? fast.get()) == (try? plain.get()))
            #expect(try twins.bytes(twins.fast) == twins.bytes(twins.plain))
        }
        #expect(try twins.fast.load() == twins.plain.load())
    }

    /// A store file without the save's fast path saves by the plain path; given `.all`, it takes the fast one.
    @Test func plainStoreFilesTakeNoFastPath() throws {
        let twins = try Twins(seed: 3)
        defer { twins.directory.remove() }
        let context = try twins.context()
        func taken(_ file: StoreFile) throws -> FastPathTrace.Tally {
            let tally = FastPathTrace.Tally()
            try FastPathTrace.$taken.withValue(tally) {
                let key = try #require(file.load().experiments.values.filter { $0.status != .resolved }.map(\.key).min())
                try file.apply(.whitelistAdd(experiment: key, subject: "seam-subject", variant: "control", note: ""), context: context)
                _ = try file.load()
            }
            return tally
        }
        let plain = try taken(twins.plain)
        #expect(plain.count(.save) == 0)
        let fast = try taken(twins.fast)
        #expect(fast.count(.read) > 0 && fast.count(.save) > 0, "read \(fast.count(.read)) save \(fast.count(.save))")
        #expect(try twins.bytes(twins.fast) == twins.bytes(twins.plain))
    }

    /// Each fast path off alone still gives the plain path's snapshot: the read seam decides nothing.
    @Test func readsAgreeWithEveryFastPathOff() throws {
        var random = SplitMix64(seed: 11)
        let bytes = StoreFile.encode(RandomStore.awkward.snapshot(using: &random))
        let fast = try StoreSnapshot.decode(bytes, path: "s.json", fastPaths: .all)
        #expect(try StoreSnapshot.decode(bytes, path: "s.json", fastPaths: .plain) == fast)
        #expect(try StoreSnapshot.decode(bytes, path: "s.json", fastPaths: FastPaths.all.without(.read)) == fast)
    }
}
