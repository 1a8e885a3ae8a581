import ExperimentCore
import ExperimentStore
import Foundation

/// `git-setup [--commit-changes] [--check]`: makes git merge and diff the store by meaning (SPEC §11).
enum GitSetupCommand {
    /// The config key that turns on a commit of the store after each change.
    static let commitChangesKey = GitCommands.commitChangesKey

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let storePath = absolute(context.store.path)
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
        let attributeLine = "/\(relative) merge=abconsole diff=abconsole"
        var wanted: [(key: String, value: String)] = [
            ("merge.abconsole.name", "abconsole: merge the experiment store by meaning"),
            ("merge.abconsole.driver", "\(shellWord(binary)) merge %O %A %B --name %P"),
            ("diff.abconsole.command", "\(shellWord(binary)) diff"),
            ("diff.abconsole.textconv", "\(shellWord(binary)) diff --textconv"),
        ]
        if arguments.flag("--commit-changes") { wanted.append((commitChangesKey, "true")) }
        let attributesPath = top + "/.gitattributes"
        let attributes = (try? String(contentsOfFile: attributesPath, encoding: .utf8)) ?? ""
        let hasLine = attributes.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == attributeLine }
        let check = arguments.flag("--check")
        var missing: [String] = []
        do {
            if !hasLine {
                missing.append(".gitattributes line `\(attributeLine)`")
                if !check {
                    let text = attributes.isEmpty || attributes.hasSuffix("\n") ? attributes : attributes + "\n"
                    do {
                        try Data((text + attributeLine + "\n").utf8).write(to: URL(fileURLWithPath: attributesPath), options: .atomic)
                    } catch {
                        throw CLIError(code: .ioError, message: "cannot write \(SafeOutput.text(attributesPath)): \(error.localizedDescription)")
                    }
                    context.output.line("added `\(SafeOutput.text(attributeLine))` to \(SafeOutput.text(attributesPath))")
                }
            }
            for (key, value) in wanted where try git.config(key) != value {
                missing.append("config \(key)")
                if !check {
                    try git.setConfig(key, value)
                    context.output.line("set \(key) = \(SafeOutput.text(value))")
                }
            }
        } catch let error as GitCommands.GitError {
            throw CLIError.data(error.message)
        }
        if check {
            if missing.isEmpty {
                context.output.line("git is set up for \(SafeOutput.text(relative)): merges and diffs go through abconsole")
            } else {
                context.output.line("not set up: " + missing.map(SafeOutput.text).joined(separator: ", ") + "; run `abconsole git-setup`")
                context.exit.code = 1
            }
        } else if missing.isEmpty {
            context.output.line("already set up for \(SafeOutput.text(relative)); nothing changed")
        }
    }

    /// After a change through the CLI: commits the store alone when `git-setup --commit-changes` asked
    /// for it; a commit that cannot be made leaves the change saved and says why (on stderr).
    static func commitIfAsked(store path: String, context: CommandContext) {
        let storePath = absolute(path)
        guard GitCommands.mayBeInRepository((storePath as NSString).deletingLastPathComponent) else { return }
        let subject = (try? context.load())?.history.last.map { "\($0.action.rawValue) \($0.experiment): \($0.changeText)" }
            ?? "update the experiment store"
        if let why = GitCommands.commitStoreIfAsked(storePath, subject: subject, operatorName: context.operatorName) {
            StandardStreams.writeError("abconsole: the change is saved but not committed: \(SafeOutput.text(why))\n")
        }
    }

    static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.resolvingSymlinksInPath().path
    }

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
