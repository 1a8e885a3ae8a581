import ExperimentCore
import ExperimentStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `export --watch --out FILE`: keeps FILE the export of the store, for a host serving it to apps.
///
/// Exports once (any refusal then is the command's, as without `--watch`), then follows the store:
/// after every change it exports again and replaces FILE atomically, only when its bytes change.
/// A store that becomes unreadable or invalid (or loses a named experiment) leaves FILE as it was
/// and is said once per problem on stderr; watching goes on. SIGINT, SIGTERM or SIGHUP end it with 0.
/// FILE is never the store: refused at start (as without `--watch`, exit 64) and checked again
/// before every write; a FILE that has become the store or a link to it ends watching (exit 73).
enum ExportWatch {
    /// How often the store's fingerprint (inode, size, modification time) is compared.
    static let pollMicroseconds: UInt32 = 100_000

    static func run(_ arguments: ParsedArguments, _ context: CommandContext, format: String, values: GrowthBookExport.Values?) throws {
        guard let path = arguments[ExportCommand.out] else {
            throw CLIError.usage("--watch needs --out FILE, the file it keeps current", command: nil)
        }
        let keys = arguments.arguments("EXP")
        try ExportCommand.refuseStore(path, context)
        SignalFlag.install()
        // A parent may have started us with these blocked (the mask is inherited); they must reach us.
        StandardStreams.unblock([SIGINT, SIGTERM, SIGHUP])
        var fingerprint = context.store.fingerprint()
        let whitelists = !arguments[ExportCommand.noWhitelist]
        var (written, warnings, count, note): (Data, [String], Int, String?) = try export(context, keys: keys, values: values, whitelists: whitelists)
        say(warnings)
        ExportCommand.note(note)
        if (try? Data(contentsOf: URL(fileURLWithPath: path))) != written {
            try write(written, to: path)
        }
        report(count, format: format, path: path, context)
        var problem: String?
        while SignalFlag.received == nil {
            StandardStreams.sleep(microseconds: pollMicroseconds)
            let now = context.store.fingerprint()
            guard now != fingerprint else { continue }
            fingerprint = now
            let data: Data
            do {
                let newWarnings: [String]
                (data, newWarnings, count, _) = try export(context, keys: keys, values: values, whitelists: whitelists)
                problem = nil
                if newWarnings != warnings { say(newWarnings) }
                warnings = newWarnings
            } catch {
                let message = CLIError(error).message
                guard message != problem else { continue }
                problem = message
                StandardStreams.writeError("abconsole: \(SafeOutput.text(path)) keeps the last good export: \(CLIError.safeLines(message, of: error))\n")
                continue
            }
            guard data != written else { continue }
            // Checked before every write: the file may have been replaced by the store or a link to it.
            guard !FileSystem.sameFile(path, context.store.path) else {
                throw CLIError(code: .cannotCreate, message: "--out \(SafeOutput.text(path)) has become the store itself (or a link to it); "
                    + "stopped watching without writing, so the store is as it was — point --out at another file")
            }
            do {
                try write(data, to: path)
                written = data
                report(count, format: format, path: path, context)
            } catch let failure as CLIError where failure.code == .cannotCreate || failure.code == .ioError {
                // A write that failed (a full disk, a folder gone) is said once; watching goes on.
                guard failure.message != problem else { continue }
                problem = failure.message
                StandardStreams.writeError("abconsole: \(SafeOutput.text(failure.message)); \(SafeOutput.text(path)) keeps the last good export\n")
            }
        }
    }

    /// The bytes, warnings, experiment count and whitelist note of the export of the store as it is now.
    private static func export(_ context: CommandContext, keys: [String], values: GrowthBookExport.Values?,
                               whitelists: Bool) throws -> (Data, [String], Int, String?) {
        let (snapshot, entries) = try ExportEntries.load(context)
        let export = try ExportCommand.Export(snapshot, entries: entries, keys: keys, values: values, whitelists: whitelists)
        return (try export.data(), export.warnings, export.experiments, export.whitelistNote)
    }

    /// Replaces `path` atomically with `data`.
    private static func write(_ data: Data, to path: String) throws {
        do {
            _ = try FileSystem.replaceAtomically(path, with: data)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw CLIError(code: exists ? .ioError : .cannotCreate, message: "cannot write \(path): \(error.reason)")
        }
    }

    private static func say(_ warnings: [String]) {
        for warning in warnings { StandardStreams.writeError("abconsole: warning: \(SafeOutput.text(warning))\n") }
    }

    /// One line per export written, at once (a log follows it).
    private static func report(_ count: Int, format: String, path: String, _ context: CommandContext) {
        context.output.line("exported \(count) experiment\(count == 1 ? "" : "s") (\(format)) to \(SafeOutput.text(path))")
        context.output.flush()
    }
}
