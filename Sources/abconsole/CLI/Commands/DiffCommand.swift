import ExperimentCore
import ExperimentEditing
import ExperimentStore
import Foundation

/// `diff OLD NEW` (or git's seven-argument external-diff form): the store's changes in words (SPEC §11);
/// git's one-argument form names an unmerged path; `diff FILE --textconv`: the store in words, one
/// line per unit, for git's `textconv`. A file that is not a valid store is shown as a line diff.
enum DiffCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let files = arguments.arguments("FILE")
        if arguments[textconv] {
            guard files.count == 1 else { throw CLIError.usage("--textconv takes one FILE", command: nil) }
            return try textconv(files[0], context: context)
        }
        let (label, oldPath, newPath): (String?, String, String)
        switch files.count {
        case 1:
            // git calls the external diff so for a path its merge left conflicted: no two versions to compare.
            context.output.line("\(SafeOutput.text(files[0])) is unmerged: settle the conflict (abconsole console, or the commands `abconsole merge` printed), then diff")
            return
        case 2: (label, oldPath, newPath) = (nil, files[0], files[1])
        case 7: (label, oldPath, newPath) = (files[0], files[1], files[4])
        default: throw CLIError.usage("diff takes OLD NEW, or git's seven external-diff arguments", command: nil)
        }
        let changes: [StoreChange]
        do {
            changes = try Self.changes(oldPath, newPath, name: label, fastPaths: context.fastPaths)
        } catch let error as CLIError where error.code == .dataError {
            // A hand edit that breaks the store: git's diff goes on, showing the lines that changed.
            FileHandle.standardError.write(Data("abconsole: warning: \(error.message.replacingOccurrences(of: "; nothing was written", with: "")); showing the lines that changed\n".utf8))
            if let label { context.output.line("abconsole diff \(SafeOutput.text(label)): not a valid store, lines that changed") }
            let lines = { (path: String) in
                path == "/dev/null" ? [] : String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
                    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            for line in LineDiff.lines(old: lines(oldPath), new: lines(newPath)) { context.output.line(SafeOutput.text(line)) }
            return
        }
        if arguments[CommonOptions.json] {
            context.output.line(try SafeOutput.json(ChangesJSON(changes: changes.map(ChangeJSON.init))))
            return
        }
        if let label { context.output.line("abconsole diff \(SafeOutput.text(label)): \(Plural.count(changes.count, "change"))") }
        for change in changes { context.output.line(SafeOutput.text(change.words)) }
    }

    /// `StoreDiff.changes` of the two files: by their bytes where `WrittenDiff` can (the same changes), else read whole.
    static func changes(_ oldPath: String, _ newPath: String, name: String?, fastPaths: FastPaths) throws -> [StoreChange] {
        if fastPaths.allows(.diff), let changes = WrittenDiff.changes(old: oldPath, new: newPath) {
            return changes
        }
        let old = try store(oldPath, side: "OLD", name: name, fastPaths: fastPaths)
        let new = try store(newPath, side: "NEW", name: name, fastPaths: fastPaths)
        return StoreDiff.changes(old: old, new: new)
    }

    /// The store in words; a file that is not a store (or is gone: /dev/null) is passed through as it is.
    static func textconv(_ path: String, context: CommandContext) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError(code: .noInput, message: "cannot read \(SafeOutput.text(path))")
        }
        guard !data.isEmpty, let snapshot = try? StoreSnapshot.decode(data, path: path, fastPaths: context.fastPaths) else {
            context.output.write(bytes: data)
            return
        }
        for line in StoreDiff.words(snapshot) { context.output.line(SafeOutput.text(line)) }
    }

    /// The validated store at `path`; `/dev/null` or an empty file (git's side of an added or deleted file) is an empty store.
    static func store(_ path: String, side: String, name: String?, fastPaths: FastPaths) throws -> StoreSnapshot {
        if path == "/dev/null" { return StoreSnapshot() }
        return try MergeCommand.readStore(path, side: side, name: name, emptyIsStore: true, fastPaths: fastPaths)
    }

    struct ChangesJSON: Encodable {
        let changes: [ChangeJSON]
    }

    /// A change of `diff --json`: experiment, action, before, after, operator, at, moved_share.
    struct ChangeJSON: Encodable {
        let change: StoreChange

        init(_ change: StoreChange) { self.change = change }

        enum CodingKeys: String, CodingKey {
            case experiment, action, before, after, at
            case operatorName = "operator", movedShare = "moved_share"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change.experiment, forKey: .experiment)
            try container.encode(change.action, forKey: .action)
            try container.encode(change.before, forKey: .before)
            try container.encode(change.after, forKey: .after)
            try container.encode(change.operatorName, forKey: .operatorName)
            try container.encode(change.at.map(StoreDiff.dateText), forKey: .at)
            try container.encode(change.movedShare, forKey: .movedShare)
        }
    }
}
