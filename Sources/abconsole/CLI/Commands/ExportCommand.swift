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
        let keys = arguments.arguments("EXP")
        if !ClientExportStream.plain, let path = arguments.option("--out") {
            // Streamed to the file: the document is never whole in memory as encoder values.
            let experiments = try chosen(snapshot, keys: keys).sortedExperiments
            if let values {
                let stream = try GrowthBookExportStream(snapshot, experiments: experiments, values: values)
                warn(GrowthBookExport.warnings(experiments))
                try write(to: path, context) { stream.write(into: &$0) }
            } else {
                let stream = try ClientExportStream(revision: snapshot.revision, experiments: experiments)
                try write(to: path, context) { stream.write(into: &$0) }
            }
            context.output.line("exported \(experiments.count) experiment\(experiments.count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
            return
        }
        let (data, warnings, experiments) = try export(snapshot, keys: keys, format: format, values: values)
        warn(warnings)
        guard let path = arguments.option("--out") else {
            context.output.write(bytes: data)
            return
        }
        try write(to: path, context) { writer in data.withUnsafeBytes { writer.append($0.bindMemory(to: UInt8.self)) } }
        let count = experiments
        context.output.line("exported \(count) experiment\(count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
    }

    /// Prints each warning on standard error.
    private static func warn(_ warnings: [String]) {
        for warning in warnings {
            FileHandle.standardError.write(Data("abconsole: warning: \(SafeOutput.text(warning))\n".utf8))
        }
    }

    /// Replaces `path` (never the store itself) with the bytes `bytes` streams, atomically.
    private static func write(to path: String, _ context: CommandContext, _ bytes: (inout ByteWriter) -> Void) throws {
        guard !FileSystem.sameFile(path, context.store.path) else {
            throw CLIError.usage("--out \(SafeOutput.text(path)) is the store itself; export to another file", command: nil)
        }
        do {
            _ = try FileSystem.replaceAtomically(path, known: nil, write: bytes)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw CLIError(code: exists ? .ioError : .cannotCreate, message: "cannot write \(path): \(error.reason); nothing was written")
        }
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
        let chosen = try chosen(snapshot, keys: keys)
        let experiments = chosen.sortedExperiments
        guard let values else {
            let data = ClientExportStream.plain ? try ClientSnapshotDocument(chosen).encoded()
                : try ClientExportStream(revision: chosen.revision, experiments: experiments).data()
            return (data, [], experiments.count)
        }
        let data = ClientExportStream.plain ? try encode(try GrowthBookExport.payload(snapshot, experiments: experiments, values: values))
            : try GrowthBookExportStream(snapshot, experiments: experiments, values: values).data()
        return (data, GrowthBookExport.warnings(experiments), experiments.count)
    }

    /// `snapshot` with only the experiments `keys` names (all when empty); an unknown key is the domain's refusal.
    static func chosen(_ snapshot: StoreSnapshot, keys: [String]) throws -> StoreSnapshot {
        guard !keys.isEmpty else { return snapshot }
        var chosen = snapshot
        chosen.experiments = [:]
        for key in keys {
            guard let experiment = snapshot.experiments[key] else { throw ExperimentError.unknownExperiment(key) }
            chosen.experiments[key] = experiment
        }
        return chosen
    }

    /// Compact JSON with sorted keys and a final newline: the same bytes for the same store.
    static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `</` written `<\/`, so the export can be inlined in an HTML `<script>`.
        return HTMLSafeJSON.escapingClosingTags(try PayloadEncoding.encode(value, with: encoder)) + Data("\n".utf8)
    }
}
