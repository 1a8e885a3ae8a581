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
    /// when it is all in the writer's form, whole otherwise.
    static func load(_ context: CommandContext) throws -> (StoreSnapshot, ExportEntries) {
        if let written = WrittenWhitelists(path: context.store.path) { return (written.snapshot, .written(written)) }
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

extension CLIError {
    /// The store file changed under an export that was reading it.
    static var changedWhileExported: CLIError {
        CLIError(code: .ioError, message: "the store file was changed in place while it was exported; nothing was written; export again")
    }
}
