import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// What a command may touch: the store, who is operating, the clock, and standard output.
///
/// Built once in `main.swift` from the command line and environment, so commands read no globals.
struct CommandContext {
    let store: StoreFile
    let operatorName: String
    let now: () -> Date
    let output: OutputBuffer
    let environment: [String: String]
    let exit: ExitStatus

    /// The byte-level fast paths the entry point chose, which the store file carries.
    var fastPaths: FastPaths { store.fastPaths }

    /// The operator and the current time, for a change.
    func changeContext() -> ChangeContext { ChangeContext(operatorName: operatorName, at: now()) }

    /// Applies `change` in one store transaction and prints its message, then `advice` if any.
    func apply(_ change: Change, advice: String = "") throws {
        output.line(SafeOutput.text(try applyCommitting(change).message + advice))
    }

    /// Applies `change` in one store transaction, which with `git-setup --commit-changes` also commits
    /// it; a commit that cannot be made leaves the change saved and says why on stderr. With
    /// `expectedRevision`, a change decided on an older revision of the experiment is refused (75).
    func applyCommitting(_ change: Change, expectedRevision: Int? = nil) throws -> ChangeOutcome {
        try said(service.apply(change, expectedRevision: expectedRevision, context: changeContext()))
    }

    /// The store's use cases with what follows each write, shared with the console.
    var service: StoreService { StoreService(store) }

    /// The outcome of `saved`, after saying on stderr why its commit was not made, if it was not.
    func said(_ saved: SavedChange) -> ChangeOutcome {
        if let note = saved.notCommittedNote { StandardStreams.writeError("abconsole: \(SafeOutput.text(note))\n") }
        return saved.outcome
    }

    /// The validated store.
    func load() throws -> StoreSnapshot { try store.load() }

    /// The experiment `key`, or the domain's "no such experiment" refusal.
    func experiment(_ key: String, in snapshot: StoreSnapshot) throws -> Experiment {
        guard let experiment = snapshot.experiments[key] else { throw ExperimentError.unknownExperiment(key) }
        return experiment
    }
}
