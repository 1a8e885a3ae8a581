import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation
import Testing
@testable import abconsole

/// The fast paths `abconsole` takes: read once from the environment by the entry point, then passed
/// down as a value, so merge and diff give the same answers and bytes whichever value they are given.
struct FastPathsSettingTests {
    @Test(arguments: [
        ([:], FastPaths.all),
        (["ABCONSOLE_PLAIN_MERGE": "1"], FastPaths.all.without(.merge).without(.diff)),
        (["ABCONSOLE_PLAIN_MERGE": ""], FastPaths.all.without(.merge).without(.diff)),
        (["ABCONSOLE_PLAIN_EXPORT": "1"], FastPaths.all),
    ])
    func theEnvironmentChoosesTheFastPaths(environment: [String: String], expected: FastPaths) {
        #expect(FastPaths.chosen(by: environment) == expected)
    }

    /// `merge` and `diff` run in-process with a context carrying `.all` or `.plain`: the same merged
    /// bytes, the same changes, and the plain run takes no fast path.
    @Test func mergeAndDiffGiveTheSameAnswerWithEitherValue() throws {
        let sandbox = try Sandbox()
        let (ours, theirs) = try MergeDiffCommandTests.sides(sandbox)
        func run(_ fastPaths: FastPaths) throws -> (bytes: Data, changes: [StoreChange], tally: FastPathTrace.Tally) {
            let out = sandbox.path("merged-\(fastPaths == .all ? "fast" : "plain").json")
            let tally = FastPathTrace.Tally()
            let changes = try FastPathTrace.$taken.withValue(tally) {
                guard case .command(_, let arguments) = try parseCommandLine(["merge", sandbox.store, ours, theirs, "--out", out], commands: commandTable)
                else { throw CLIError.usage("not a command", command: nil) }
                let context = CommandContext(store: StoreFile(path: sandbox.store, fastPaths: fastPaths), operatorName: "tester",
                                             now: { Date(timeIntervalSince1970: 1_772_359_200) }, output: OutputBuffer(),
                                             environment: [:], exit: ExitStatus())
                try MergeCommand.run(arguments, context)
                return try DiffCommand.changes(sandbox.store, out, name: nil, fastPaths: fastPaths)
            }
            return (try Data(contentsOf: URL(fileURLWithPath: out)), changes, tally)
        }
        let fast = try run(.all), plain = try run(.plain)
        #expect(fast.bytes == plain.bytes)
        #expect(fast.changes == plain.changes && !fast.changes.isEmpty)
        #expect(fast.tally.count(.merge) == 1 && fast.tally.count(.diff) == 1)
        #expect(plain.tally.count(.merge) == 0 && plain.tally.count(.diff) == 0 && plain.tally.count(.read) == 0)
    }
}
