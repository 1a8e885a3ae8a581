import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// `merge BASE OURS THEIRS`: the store's three-way merge by meaning (SPEC §11), git's merge driver.
enum MergeCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let paths = try ["BASE", "OURS", "THEIRS"].map { try arguments.required($0) }
        let name = arguments[Self.name]
        // The files compared by bytes (`WrittenMerge`) decide as the plain path; anything it cannot do, the plain path does.
        let fast = context.fastPaths.allows(.merge)
            ? WrittenMerge(base: paths[0], ours: paths[1], theirs: paths[2], by: context.changeContext()) : nil
        let conflicts: [MergeConflict]
        let write: (String) throws(FileSystem.Failure) -> Bool
        if let fast {
            (conflicts, write) = (fast.conflicts, fast.write(to:))
        } else {
            let result = try plainMerge(paths, name: name, by: context.changeContext(), fastPaths: context.fastPaths)
            conflicts = result.conflicts
            write = { (out: String) throws(FileSystem.Failure) -> Bool in try FileSystem.replaceAtomically(out, with: StoreFile.encode(result.snapshot)) }
        }
        let out = arguments[Self.out] ?? paths[1]
        let shown = name ?? out
        do {
            _ = try write(out)
        } catch {
            let exists = FileManager.default.fileExists(atPath: out)
            throw CLIError(code: exists ? .ioError : .cannotCreate, message: "cannot write \(SafeOutput.text(shown)): \(error.reason); nothing was written")
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(ConflictsJSON(conflicts: conflicts.map(ConflictJSON.init))))
        } else if conflicts.isEmpty {
            context.output.line("merged \(SafeOutput.text(shown)) cleanly")
        } else {
            context.output.line("\(Plural.count(conflicts.count, "conflict")) merging \(SafeOutput.text(shown)); it holds OURS's value of each:")
            for conflict in conflicts { context.output.write(text(of: conflict)) }
        }
        if !conflicts.isEmpty { context.exit.code = 1 }
    }

    /// The plain merge: the three stores read whole (an empty BASE, git's for a file both sides
    /// added, as an empty store), merged by `StoreMerge`, the result validated.
    static func plainMerge(_ paths: [String], name: String?, by change: ChangeContext, fastPaths: FastPaths) throws -> MergeResult {
        let base = try readStore(paths[0], side: "BASE", name: name, emptyIsStore: true, fastPaths: fastPaths)
        let ours = try readStore(paths[1], side: "OURS", name: name, fastPaths: fastPaths)
        let theirs = try readStore(paths[2], side: "THEIRS", name: name, fastPaths: fastPaths)
        let result = StoreMerge.merge(base: base, ours: ours, theirs: theirs, by: change)
        let problems = StoreValidator.problems(in: StoreDocument(result.snapshot))
        guard problems.isEmpty else {
            let list = problems.prefix(5).map { "\($0.path): \($0.message)" }.joined(separator: "; ")
            throw CLIError.data("the merged store would break the store's rules (\(SafeOutput.text(list))); nothing was written")
        }
        return result
    }

    /// A conflict in words: what, BASE → OURS / THEIRS, and the command that applies THEIRS.
    static func text(of conflict: MergeConflict) -> String {
        func words(_ value: String?) -> String { value.map { SafeOutput.text($0) } ?? "∅" }
        var lines = ["  \(SafeOutput.text(conflict.title)):",
                     "    \(words(conflict.base)) → OURS \(words(conflict.ours)) / THEIRS \(words(conflict.theirs))"]
        lines.append("    to take THEIRS: " + (command(conflict) ?? "edit it by hand (no command sets it)"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `abconsole …` command lines that make THEIRS's changes, joined by `&&`, each argument quoted
    /// for a POSIX shell where needed; nil when a change has no command.
    static func command(_ conflict: MergeConflict) -> String? {
        ChangeCommandLine.lines(conflict.changes, order: conflict.order).map { lines in
            lines.map { (["abconsole"] + $0).map(shellQuoted).joined(separator: " ") }.joined(separator: " && ")
        }
    }

    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.=,/:@%+".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The validated store at `path`, or one sentence on one line naming the side (by `name`, the
    /// store's path in the work tree, when given: git's files are temporary) and why (66 missing, 65
    /// invalid). With `emptyIsStore`, an empty file is an empty store.
    static func readStore(_ path: String, side: String, name: String? = nil, emptyIsStore: Bool = false, fastPaths: FastPaths) throws -> StoreSnapshot {
        let shown = SafeOutput.text(name.map { "\(side) of \($0)" } ?? "\(side) \(path)")
        if emptyIsStore, let data = FileManager.default.contents(atPath: path), data.isEmpty { return StoreSnapshot() }
        do {
            return try StoreFile(path: path, fastPaths: fastPaths).load()
        } catch {
            switch error {
            case .missing: throw CLIError(code: .noInput, message: "\(shown) does not exist; nothing was written")
            case .unreadable(_, let reason): throw CLIError(code: .noInput, message: "cannot read \(shown): \(SafeOutput.text(reason))")
            case .invalid(_, let problems):
                let listed = problems.prefix(3).map { SafeOutput.text("\($0)") }.joined(separator: "; ")
                let more = problems.count > 3 ? " and \(problems.count - 3) more" : ""
                throw CLIError(code: .dataError, message: "\(shown) is not a valid store: \(listed)\(more); nothing was written")
            default: throw CLIError(code: .dataError, message: "\(shown) is not a valid store: \(SafeOutput.text(error.message)); nothing was written")
            }
        }
    }

    struct ConflictsJSON: Encodable {
        let conflicts: [ConflictJSON]
    }

    /// A conflict of `merge --json`: the SPEC fields, plus `field` and `command`.
    struct ConflictJSON: Encodable {
        let experiment: String?, unit: String, variant: String?, subject: String?, field: String?
        let base: String?, ours: String?, theirs: String?, command: String?

        init(_ conflict: MergeConflict) {
            experiment = conflict.experiment
            unit = conflict.unit.rawValue
            variant = conflict.variant
            subject = conflict.subject
            field = conflict.field
            base = conflict.base
            ours = conflict.ours
            theirs = conflict.theirs
            command = MergeCommand.command(conflict)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(experiment, forKey: .experiment)
            try container.encode(unit, forKey: .unit)
            try container.encode(variant, forKey: .variant)
            try container.encode(subject, forKey: .subject)
            try container.encode(field, forKey: .field)
            try container.encode(base, forKey: .base)
            try container.encode(ours, forKey: .ours)
            try container.encode(theirs, forKey: .theirs)
            try container.encode(command, forKey: .command)
        }

        enum CodingKeys: String, CodingKey { case experiment, unit, variant, subject, field, base, ours, theirs, command }
    }
}
