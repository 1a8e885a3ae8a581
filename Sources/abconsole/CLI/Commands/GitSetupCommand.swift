import ExperimentCore
import ExperimentStore
import Foundation

/// `git-setup [--commit-changes] [--check]`: makes git merge and diff the store by meaning (SPEC §11).
enum GitSetupCommand {
    /// The config key that turns on a commit of the store after each change.
    static let commitChangesKey = GitCommands.commitChangesKey

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let storePath = context.store.gitPath
        let directory = (storePath as NSString).deletingLastPathComponent
        let git = GitCommands(directory: directory)
        let top: String
        do {
            guard let found = try git.topLevel() else {
                throw CLIError.data("\(SafeOutput.text(storePath)) is not inside a git work tree; run `git init` (or clone) there first")
            }
            top = found
        } catch let error as GitCommands.GitError {
            throw CLIError.data(error.message)
        }
        let relative = relativePath(storePath, to: top)
        let binary = absolute(executablePath())
        var wanted: [(key: String, value: String)] = [
            ("merge.abconsole.name", "abconsole: merge the experiment store by meaning"),
            ("merge.abconsole.driver", "\(shellWord(binary)) merge %O %A %B --name %P"),
            ("diff.abconsole.command", "\(shellWord(binary)) diff"),
            ("diff.abconsole.textconv", "\(shellWord(binary)) diff --textconv"),
        ]
        if arguments[commitChanges] { wanted.append((commitChangesKey, "true")) }
        let setup = Setup(git: GitCommands(directory: top), top: top, check: arguments[Self.check], context: context)
        var missing: [String] = []
        do {
            missing += try setup.attributes(of: relative)
            missing += try setup.ignoredLock(of: relative)
            for (key, value) in wanted where try git.config(key) != value {
                missing.append("config \(key)")
                if !setup.check {
                    try git.setConfig(key, value)
                    context.output.line("set \(key) = \(SafeOutput.text(value))")
                }
            }
        } catch let error as GitCommands.GitError {
            throw CLIError.data(error.message)
        }
        if setup.check {
            if missing.isEmpty {
                context.output.line("git is set up for \(SafeOutput.text(relative)): merges and diffs go through abconsole, its lock file is ignored")
            } else {
                context.output.line("not set up: " + missing.map(SafeOutput.text).joined(separator: ", ") + "; run `abconsole git-setup`")
                context.exit.code = 1
            }
        } else if missing.isEmpty {
            context.output.line("already set up for \(SafeOutput.text(relative)); nothing changed")
        }
    }

    /// The work tree's two files `git-setup` writes, each checked by asking git how it reads them.
    private struct Setup {
        let git: GitCommands
        let top: String
        let check: Bool
        let context: CommandContext

        /// Makes git give the store `merge=abconsole diff=abconsole` (a `.gitattributes` line); what was missing.
        func attributes(of relative: String) throws -> [String] {
            let wanted = ["merge": "abconsole", "diff": "abconsole"]
            // git's own answer: a later rule that unsets the attribute, or one in .git/info/attributes, counts.
            let given = try git.attributes(["merge", "diff"], of: relative)
            guard given != wanted else { return [] }
            let line = "\(GitPattern.attributes(relative)) merge=abconsole diff=abconsole"
            let found = "git gives \(relative) " + ["merge", "diff"].map { "\($0): \(given[$0] ?? "unspecified")" }.joined(separator: ", ")
            if !check {
                try append(line, to: ".gitattributes")
                let now = try git.attributes(["merge", "diff"], of: relative)
                guard now == wanted else {
                    throw CLIError.data("added `\(SafeOutput.text(line))` to .gitattributes, but git still gives \(SafeOutput.text(relative)) "
                        + ["merge", "diff"].map { "\($0): \(now[$0] ?? "unspecified")" }.joined(separator: ", ")
                        + "; a rule in .git/info/attributes or in a .gitattributes nearer the store overrides it: remove that rule")
                }
            }
            return [".gitattributes line `\(line)` (\(found))"]
        }

        /// Makes git ignore the store's lock file (a `.gitignore` line); what was missing.
        func ignoredLock(of relative: String) throws -> [String] {
            let lock = relative + ".lock"
            guard try !git.ignores(lock) else { return [] }
            let line = GitPattern.ignore(lock)
            if !check {
                try append(line, to: ".gitignore")
                guard try git.ignores(lock) else {
                    throw CLIError.data("added `\(SafeOutput.text(line))` to .gitignore, but git still does not ignore \(SafeOutput.text(lock)); "
                        + "a later `!` rule or one in a .gitignore nearer the store undoes it: remove that rule")
                }
                if try git.tracks(lock) {
                    context.output.line("the lock file \(SafeOutput.text(lock)) is committed; `git rm --cached -- '\(SafeOutput.text(lock))'` stops tracking it")
                }
            }
            return [".gitignore line `\(line)` (the store's lock file)"]
        }

        /// Appends `line` to the work tree's top file `name` (created when missing) and says so;
        /// nothing when the file already ends with it.
        private func append(_ line: String, to name: String) throws {
            let path = top + "/" + name
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").last.map(String.init) == line { return }
            let joined = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
            do {
                try Data((joined + line + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CLIError(code: .ioError, message: "cannot write \(SafeOutput.text(path)): \(error.localizedDescription)")
            }
            context.output.line("added `\(SafeOutput.text(line))` to \(SafeOutput.text(path))")
        }
    }

    static func absolute(_ path: String) -> String { StoreFile.resolvedAbsolute(path) }

    /// This executable's path (for git's config to call it back).
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func relativePath(_ path: String, to top: String) -> String {
        let root = absolute(top)
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : (path as NSString).lastPathComponent
    }

    /// A word for git's shell (config commands run through `sh -c`): single-quoted when needed.
    static func shellWord(_ word: String) -> String { MergeCommand.shellQuoted(word) }
}
