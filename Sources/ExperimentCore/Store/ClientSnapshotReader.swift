import Foundation

/// What one read of a client snapshot (`abconsole export --format client`) found.
package struct ClientReading {
    package var format: String
    package var schemaVersion: Int
    package var revision: Int
    /// The experiments in file order, each with an empty whitelist (see `listed`).
    package var experiments: [Experiment]
    /// Each experiment's whitelist, by experiment index: subject to variant index, as
    /// `CompiledExperiment(_:listed:)` takes it.
    package var listed: [[SubjectID: Int32]]
}

/// Reads a client snapshot in one pass over its bytes with the store's `JSONCursor`.
///
/// Like `StoreReader`, it answers nil whenever the file is not plainly a valid client snapshot — a
/// syntax error, a missing, mistyped or repeated field, a payload it cannot keep exactly, a subject
/// listed twice, a whitelist entry the validator would refuse (`Identifier.isValidSubject`, a
/// variant not among the experiment's) — so that `JSONDecoder` reads it instead and every problem
/// keeps its words. A nil is never a verdict. Unknown fields are skipped, as `JSONDecoder` skips them.
///
/// A whitelist is kept as subject to variant index, not as `WhitelistEntry` values (whose note,
/// operator and date a client snapshot does not have): in the export's compact form it is walked
/// twice, once to check and count the entries and once to fill a dictionary of exactly that size.
package enum ClientSnapshotReader {
    /// The snapshot in `data`, or nil when `JSONDecoder` must read it.
    package static func reading(from data: Data) -> ClientReading? {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            guard let reading = readDocument(&cursor), cursor.isAtEnd() else { return nil }
            return reading
        }
    }

    /// The core's experiment for a client snapshot's fields; revision 1 and the epoch stand in for
    /// what the snapshot leaves out (dates, description, operator).
    package static func model(key: String, type: SubjectType, status: ExperimentStatus, salt: String, control: String, winner: String?,
                              variants: [Variant], whitelist: [SubjectID: WhitelistEntry]) -> Experiment {
        let epoch = Date(timeIntervalSince1970: 0)
        return Experiment(key: key, type: type, status: status, salt: salt, control: control, winner: winner, description: "",
                          revision: 1, createdAt: epoch, updatedAt: epoch, updatedBy: "", variants: variants, whitelist: whitelist)
    }

    private static func readDocument(_ cursor: inout JSONCursor) -> ClientReading? {
        var format: String?, schemaVersion: Int?, revision: Int?
        var experiments: [Experiment]?, listed: [[SubjectID: Int32]] = []
        let complete = StoreReader.readObject(&cursor) { cursor, field in
            switch StoreReader.Field(field) {
            case "format": return StoreReader.once(&format, cursor.string())
            case "schema_version": return StoreReader.once(&schemaVersion, cursor.integer())
            case "revision": return StoreReader.once(&revision, cursor.integer())
            case "experiments":
                return StoreReader.once(&experiments, StoreReader.readArray(&cursor) { cursor in
                    guard let (experiment, whitelist) = readExperiment(&cursor) else { return nil }
                    listed.append(whitelist)
                    return experiment
                })
            // A store file: the store's reader reads it (declined at once, not after its history).
            case "history": return false
            default: return cursor.skipValue()
            }
        }
        guard complete, let format, let schemaVersion, let revision, let experiments else { return nil }
        return ClientReading(format: format, schemaVersion: schemaVersion, revision: revision, experiments: experiments, listed: listed)
    }

    /// One experiment (its whitelist left empty) and its whitelist by subject.
    private static func readExperiment(_ cursor: inout JSONCursor) -> (Experiment, [SubjectID: Int32])? {
        var key: String?, type: SubjectType?, status: ExperimentStatus?, salt: String?, control: String?
        var winner: String??, variants: [Variant]?, whitelist: [SubjectID: Int32]?
        let complete = StoreReader.readObject(&cursor) { cursor, field in
            switch StoreReader.Field(field) {
            case "key": return StoreReader.once(&key, cursor.string())
            case "type": return StoreReader.once(&type, cursor.string().flatMap(SubjectType.init(rawValue:)))
            case "status": return StoreReader.once(&status, cursor.string().flatMap(ExperimentStatus.init(rawValue:)))
            case "salt": return StoreReader.once(&salt, cursor.string())
            case "control": return StoreReader.once(&control, cursor.string())
            case "winner": return StoreReader.once(&winner, StoreReader.optionalString(&cursor))
            case "variants": return StoreReader.once(&variants, StoreReader.readArray(&cursor, StoreReader.readVariant))
            case "whitelist":
                // The variants come first in the export (keys sorted); otherwise JSONDecoder reads the file.
                guard let variants else { return false }
                return StoreReader.once(&whitelist, readWhitelist(&cursor, names: variants.map(\.name)))
            // A store file's experiment: the store's reader reads it (declined at once, not after its whole whitelist).
            case "description", "revision", "created_at", "updated_at", "updated_by": return false
            default: return cursor.skipValue()
            }
        }
        guard complete, let key, let type, let status, let salt, let control, let variants, let whitelist else { return nil }
        let experiment = model(key: key, type: type, status: status, salt: salt, control: control, winner: winner ?? nil,
                               variants: variants, whitelist: [:])
        return (experiment, whitelist)
    }

    /// `[ {"subject": …, "variant": …}, … ]` as subject to variant index; nil on a repeated subject
    /// or an entry the validator would refuse.
    static func readWhitelist(_ cursor: inout JSONCursor, names: [String]) -> [SubjectID: Int32]? {
        guard cursor.consume(UInt8(ascii: "[")) else { return nil }
        let start = cursor.position
        if let count = compactEntries(&cursor, names: names, into: nil) {
            cursor.rewind(to: start)
            var whitelist = [SubjectID: Int32](minimumCapacity: count)
            guard compactEntries(&cursor, names: names, into: &whitelist) != nil else { return nil }
            return cursor.consume(UInt8(ascii: "]")) ? whitelist : nil
        }
        // Any other layout (spaces, escapes, other field order): entries first, then one dictionary of their count.
        cursor.rewind(to: start)
        var entries: [(subject: String, index: Int32)] = []
        let complete = StoreReader.readElements(&cursor, opened: true) { cursor in
            guard let entry = readEntry(&cursor, names: names) else { return false }
            entries.append(entry)
            return true
        }
        guard complete else { return nil }
        var whitelist = [SubjectID: Int32](minimumCapacity: entries.count)
        for entry in entries where whitelist.updateValue(entry.index, forKey: SubjectID(entry.subject)) != nil { return nil }
        return whitelist
    }

    /// Walks entries written exactly `{"subject":"…","variant":"…"}` (no spaces, no escapes) from just
    /// after `[` up to the closing bracket, checking each as the validator would; with `whitelist`,
    /// adds them to it. The number of entries, or nil (cursor anywhere) at the first byte or entry
    /// that differs, or a repeated subject.
    private static func compactEntries(_ cursor: inout JSONCursor, names: [String], into whitelist: UnsafeMutablePointer<[SubjectID: Int32]>?) -> Int? {
        if cursor.isNext("]") { return 0 }
        var count = 0
        var variant: PlainText = (UnsafeBufferPointer(start: nil, count: 0), true), index: Int32 = -1
        repeat {
            guard count == 0 || cursor.consumeExactly(","), cursor.consumeExactly("{\"subject\":"),
                  let subject = cursor.plainStringContent(), cursor.consumeExactly(",\"variant\":"),
                  let named = cursor.plainStringContent(repeating: index < 0 ? nil : variant), cursor.consumeExactly("}") else { return nil }
            if index < 0 || named.bytes.baseAddress != variant.bytes.baseAddress {
                guard let text = RepeatedText.text(named), let found = names.firstIndex(of: text) else { return nil }
                (variant, index) = (named, Int32(found))
            }
            if let whitelist {
                guard let text = RepeatedText.text(subject), whitelist.pointee.updateValue(index, forKey: SubjectID(text)) == nil else { return nil }
            } else {
                guard RepeatedText.isValidSubject(subject) else { return nil }
            }
            count += 1
        } while cursor.isNext(",")
        return cursor.isNext("]") ? count : nil
    }

    /// One entry in any layout: its subject and its variant's index; nil when the validator would refuse it.
    private static func readEntry(_ cursor: inout JSONCursor, names: [String]) -> (subject: String, index: Int32)? {
        var subject: String?, variant: String?
        let complete = StoreReader.readObject(&cursor) { cursor, field in
            switch StoreReader.Field(field) {
            case "subject": return StoreReader.once(&subject, cursor.string())
            case "variant": return StoreReader.once(&variant, cursor.string())
            default: return cursor.skipValue()
            }
        }
        guard complete, let subject, let variant, Identifier.isValidSubject(subject),
              let index = names.firstIndex(of: variant) else { return nil }
        return (subject, Int32(index))
    }
}
