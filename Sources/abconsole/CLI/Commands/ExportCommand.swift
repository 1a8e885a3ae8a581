import ExperimentClient
import ExperimentCore
import ExperimentStore
import Foundation

/// `export`: the store for GrowthBook SDKs or for the client library, to stdout or atomically to a file.
enum ExportCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        guard let format = arguments.option("--format") else {
            throw CLIError.usage("export needs --format growthbook or --format client", command: nil)
        }
        let valuesText = arguments.option("--values")
        let snapshot: StoreSnapshot
        let data: Data
        switch format {
        case "growthbook":
            guard let values = GrowthBookExport.Values(rawValue: valuesText ?? "names") else {
                throw CLIError.usage("--values must be `names` or `payloads`, not `\(SafeOutput.text(valuesText ?? ""))`", command: nil)
            }
            snapshot = try context.load()
            data = try encode(try GrowthBookExport.payload(snapshot, values: values))
            for warning in GrowthBookExport.warnings(snapshot) {
                FileHandle.standardError.write(Data("abconsole: warning: \(SafeOutput.text(warning))\n".utf8))
            }
        case "client":
            guard valuesText == nil else { throw CLIError.usage("--values applies to --format growthbook only", command: nil) }
            snapshot = try context.load()
            data = try ClientSnapshotDocument(snapshot).encoded()
        default:
            throw CLIError.usage("--format must be `growthbook` or `client`, not `\(SafeOutput.text(format))`", command: nil)
        }
        guard let path = arguments.option("--out") else {
            context.output.write(bytes: data)
            return
        }
        guard !FileSystem.sameFile(path, context.store.path) else {
            throw CLIError.usage("--out \(SafeOutput.text(path)) is the store itself; export to another file", command: nil)
        }
        do {
            _ = try FileSystem.replaceAtomically(path, with: data)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw CLIError(code: exists ? .ioError : .cannotCreate, message: "cannot write \(path): \(error.reason); nothing was written")
        }
        let count = snapshot.experiments.count
        context.output.line("exported \(count) experiment\(count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
    }

    /// Compact JSON with sorted keys and a final newline: the same bytes for the same store.
    private static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `</` written `<\/`, so the export can be inlined in an HTML `<script>`.
        return HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(value, with: encoder)) + Data("\n".utf8)
    }
}
