import ExperimentClient
import ExperimentCore
import ExperimentStore
import Foundation

/// `export`: the store for GrowthBook SDKs or for the client library, to stdout or atomically to a file.
enum ExportCommand {
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let format = try arguments.requiredOption("--format")
        let values = try exportValues(format: format, arguments.choice("--values", as: GrowthBookExport.Values.self))
        if arguments.flag("--watch") {
            try ExportWatch.run(arguments, context, format: format, values: values)
            return
        }
        let snapshot = try context.load()
        let (data, warnings, experiments) = try export(snapshot, keys: arguments.arguments("EXP"), format: format, values: values)
        for warning in warnings {
            FileHandle.standardError.write(Data("abconsole: warning: \(SafeOutput.text(warning))\n".utf8))
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
        let count = experiments
        context.output.line("exported \(count) experiment\(count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
    }

    /// What `--values` asks for: nil for `--format client` (which takes none); the parser allows only `growthbook` and `client`.
    static func exportValues(format: String, _ values: GrowthBookExport.Values?) throws -> GrowthBookExport.Values? {
        guard format == "growthbook" else {
            guard values == nil else { throw CLIError.usage("--values applies to --format growthbook only", command: nil) }
            return nil
        }
        return values ?? .names
    }

    /// The bytes of the export of `keys` (all experiments when empty), its warnings and how many
    /// experiments it holds; an unknown key is the domain's refusal.
    static func export(_ snapshot: StoreSnapshot, keys: [String], format: String,
                       values: GrowthBookExport.Values?) throws -> (Data, [String], Int) {
        var chosen = snapshot
        if !keys.isEmpty {
            chosen.experiments = [:]
            for key in keys {
                guard let experiment = snapshot.experiments[key] else { throw ExperimentError.unknownExperiment(key) }
                chosen.experiments[key] = experiment
            }
        }
        let experiments = chosen.sortedExperiments
        guard let values else { return (try ClientSnapshotDocument(chosen).encoded(), [], experiments.count) }
        let data = try encode(try GrowthBookExport.payload(snapshot, experiments: experiments, values: values))
        return (data, GrowthBookExport.warnings(experiments), experiments.count)
    }

    /// Compact JSON with sorted keys and a final newline: the same bytes for the same store.
    static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `</` written `<\/`, so the export can be inlined in an HTML `<script>`.
        return HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(value, with: encoder)) + Data("\n".utf8)
    }
}
