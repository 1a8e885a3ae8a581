import ExperimentCore
import Foundation
import TerminalText

#if os(Linux) || os(macOS)  // Process: no child processes on iOS, tvOS or watchOS

extension GitCommands {
    /// The repository config key `git-setup --commit-changes` sets: commit the store after each change.
    package static let commitChangesKey = "abconsole.commitChanges"

    /// The one place a change is committed (`git-setup --commit-changes`, SPEC §11): when the
    /// repository asks for it, commits the store at `storePath` (absolute) alone, message `subject`
    /// and an `Operator:` trailer, both made terminal-safe. `StoreFile` calls it under the change's
    /// lock, so each change is one commit holding that change only. Nil when committed or not
    /// asked; otherwise why no commit was made (one sentence; the change itself stays saved).
    package static func commitStoreIfAsked(_ storePath: String, subject: String, operatorName: String) -> String? {
        let directory = (storePath as NSString).deletingLastPathComponent
        let git = GitCommands(directory: directory)
        guard mayBeInRepository(directory), executable() != nil, (try? git.config(commitChangesKey)) == "true" else { return nil }
        do {
            // Staging now would settle git's conflict or join its half-done result: nothing is touched.
            if let operation = try git.operationInProgress() {
                return "git is in the middle of \(operation), so nothing was staged or committed; finish it, then commit the store"
            }
            if try git.branch() == nil { return "HEAD is detached (check out a branch to commit)" }
            try git.commitOnly(storePath, message: commitMessage(subject: subject, operatorName: operatorName))
            return nil
        } catch {
            return error.message
        }
    }

    /// `subject`, a blank line and the `Operator:` trailer. What an experiment's text holds (newlines,
    /// escape sequences) is shown escaped, as everywhere else: one subject line, one trailer.
    static func commitMessage(subject: String, operatorName: String) -> String {
        "\(SafeText.escaped(subject))\n\nOperator: \(SafeText.escaped(operatorName))"
    }

    /// The operation git is in the middle of (a merge, rebase, cherry-pick or revert, or an index with
    /// unmerged entries as a conflicted `git stash pop` leaves it), in words; nil when none.
    package func operationInProgress() throws(GitError) -> String? {
        let markers = [("MERGE_HEAD", "a merge"), ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert"),
                       ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase or `git am`")]
        let paths = try run(["rev-parse"] + markers.flatMap { ["--git-path", $0.0] }).split(separator: "\n")
        for (path, marker) in zip(paths, markers) {
            let absolute = path.hasPrefix("/") ? String(path) : directory + "/" + path
            if FileManager.default.fileExists(atPath: absolute) { return marker.1 }
        }
        // `:/`: the whole work tree, not only the store's directory.
        if !(try runForBytes(["ls-files", "--unmerged", "-z", "--", ":/"]).isEmpty) {
            return "resolving conflicts (the index holds unmerged files, e.g. after a conflicted `git stash pop`)"
        }
        return nil
    }

    /// Commits `path` alone with `message` (other staged work stays staged and out of the commit).
    /// Nothing is committed when the store is as HEAD has it (a command that changed nothing).
    package func commitOnly(_ path: String, message: String) throws(GitError) {
        try run(["add", "--", path])
        let hasHead = try succeeds(["rev-parse", "-q", "--verify", "HEAD"])
        if hasHead, try succeeds(["diff", "--cached", "--quiet", "HEAD", "--", path]) { return }
        try run(["commit", "--only", "--quiet", "-m", message, "--", path])
    }
}
#endif
