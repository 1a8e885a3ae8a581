#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ExperimentCore
import ExperimentStore
import Foundation

/// Where an export reads each experiment's whitelist entries: the snapshot's values, or the store
/// file's lines when it was read leaving them there (`WrittenWhitelists`). Either gives the same
/// subjects and variants in the same order, so the export's bytes do not depend on which.
enum ExportEntries {
    case values
    case written(WrittenWhitelists)

    /// The store to export and where its entries come from: read leaving the entries in the file
    /// when it is all in the writer's form, whole otherwise (and always with `ABCONSOLE_PLAIN_EXPORT`).
    static func load(_ context: CommandContext) throws -> (StoreSnapshot, ExportEntries) {
        if !ExportEncoding.plain, let written = WrittenWhitelists(path: context.store.path) { return (written.snapshot, .written(written)) }
        return (try context.load(), .values)
    }

    /// Whether `experiment` whitelists any subject.
    func hasEntries(in experiment: Experiment) -> Bool {
        switch self {
        case .values: !experiment.whitelist.isEmpty
        case .written(let file): file.hasEntries(of: experiment.key)
        }
    }

    /// Calls `body` with the subject and variant of each of `experiment`'s entries as UTF-8, in subject order.
    func forEach(in experiment: Experiment,
                 _ body: (_ subject: UnsafeBufferPointer<UInt8>, _ variant: UnsafeBufferPointer<UInt8>) -> Void) throws {
        switch self {
        case .values:
            for entry in experiment.sortedWhitelist {
                var (subject, variant) = (entry.subject, entry.variant)
                subject.withUTF8 { subject in variant.withUTF8 { body(subject, $0) } }
            }
        case .written(let file):
            do { try file.forEachEntry(of: experiment.key, body) } catch { throw CLIError.changedWhileExported }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are `other`'s.
    func same(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress else { return true }
        return memcmp(base, other, count) == 0
    }
}

/// How the exports encode: streamed pieces, or the plain encoder of the whole value (the reference in tests).
enum ExportEncoding {
    /// Whether the environment asks for the plain encoder.
    static var plain: Bool { ProcessInfo.processInfo.environment["ABCONSOLE_PLAIN_EXPORT"] != nil }
}

extension ByteWriter {
    /// Appends UTF-8 `text` as the exports' encoder writes a string: `JSONEncoder`'s escaping (the
    /// store writer's) with `</` written `<\/`.
    mutating func appendExportString(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress, memchr(base, Int32(UInt8(ascii: "<")), text.count) != nil else {
            appendQuoted(utf8: text)
            return
        }
        var quoted = ByteWriter(capacity: text.count + 8)
        quoted.appendQuoted(utf8: text)
        append(HTMLSafeJSON.escapingClosingTags(quoted.data()))
    }

    /// Appends the bytes of `data`.
    mutating func append(_ data: Data) {
        data.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
    }
}

extension CLIError {
    /// The store file changed under an export that was reading it.
    static var changedWhileExported: CLIError {
        CLIError(code: .ioError, message: "the store file was changed in place while it was exported; nothing was written; export again")
    }
}
