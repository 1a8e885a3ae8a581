import ConsoleUI
import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// The store's conflicted merge as git left it: the index stages read against the file as it is
/// now (`ConflictedMerge`), and, when the conflicts screen cannot settle it, the sentence that says
/// why and the way out.
struct GitConflicts {
    /// The store file, absolute.
    let storePath: String
    /// The fast paths its reads may take, as the console's launcher chose them.
    let fastPaths: FastPaths

    /// The conflicts to pick on the screen, or the sentence saying why there are none to pick.
    func read() -> (conflicts: [MergeConflict], trouble: String?) {
        let current: StoreSnapshot
        do {
            current = try StoreFile(path: storePath, fastPaths: fastPaths).load()
        } catch {
            return ([], fileTrouble(error))
        }
        do {
            switch try merge().reading(current: current) {
            case .open(let conflicts): return (conflicts, nil)
            case .notMerged:
                return ([], "\(name) is conflicted but does not hold both sides' changes (abconsole's merge driver did not run, "
                    + "or the file was replaced): run `\(setup)`, then `git checkout -m \(name)` to merge it by meaning, "
                    + "or `git add \(name)` to keep the file as it is")
            case .settled:
                return ([], "\(name) is conflicted but holds no conflict left to pick: check it (`abconsole validate`), "
                    + "then `git add \(name)` marks it settled")
            }
        } catch {
            return ([], "\(name) is conflicted but its merge cannot be computed: \(Self.message(error)); "
                + "fix the file by hand, `abconsole validate`, then `git add \(name)`")
        }
    }

    /// The merge as git's index holds it: BASE (stage 1; an empty store when both sides added the file), OURS and THEIRS.
    func merge() throws -> ConflictedMerge {
        let git = GitCommands(directory: (storePath as NSString).deletingLastPathComponent)
        let hasBase = try git.stages(of: storePath).contains(1)
        let side = { (stage: Int) throws -> StoreSnapshot in
            try StoreSnapshot.decode(git.stage(stage, of: storePath), path: "\(name) (index stage \(stage))", fastPaths: fastPaths)
        }
        return ConflictedMerge(base: hasBase ? try side(1) : StoreSnapshot(), ours: try side(2), theirs: try side(3))
    }

    /// Why the file itself cannot be settled on screen: git's line merge (conflict markers) or another reason it does not read.
    private func fileTrouble(_ error: Error) -> String {
        let bytes = FileManager.default.contents(atPath: storePath) ?? Data()
        if bytes.starts(with: Data("<<<<<<< ".utf8)) || bytes.range(of: Data("\n<<<<<<< ".utf8)) != nil {
            return "\(name) is conflicted but abconsole's merge driver did not run (git merged it line by line): "
                + "run `\(setup)`, then `git checkout -m \(name)` to merge it by meaning"
        }
        return "\(name) is conflicted and does not read as a store: \(Self.message(error))"
    }

    /// The store as the operator names it: relative to the current directory when inside it.
    private var name: String {
        let here = FileManager.default.currentDirectoryPath
        return storePath.hasPrefix(here + "/") ? String(storePath.dropFirst(here.count + 1)) : storePath
    }

    /// `abconsole git-setup`, naming the store when it is not the default.
    private var setup: String {
        name == "experiments.json" ? "abconsole git-setup" : "abconsole --store \(name) git-setup"
    }

    static func message(_ error: Error) -> String {
        switch error {
        case let error as StoreError: error.message
        case let error as GitCommands.GitError: error.message
        default: "\(error)"
        }
    }
}
